package io.schedext.framework;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** Go's {@code time.Duration.String()}, as the Go standard library's own duration table. */
class GoDurationsTest {

  record Case(Duration d, String want) {
    @Override
    public String toString() {
      return d.toNanos() + "ns prints as " + want;
    }
  }

  static Stream<Case> cases() {
    return Stream.of(
        new Case(Duration.ZERO, "0s"),
        new Case(Duration.ofNanos(1), "1ns"),
        new Case(Duration.ofNanos(999), "999ns"),
        new Case(Duration.ofNanos(1000), "1µs"),
        new Case(Duration.ofNanos(1100), "1.1µs"),
        new Case(Duration.ofNanos(2_200_000), "2.2ms"),
        new Case(Duration.ofMillis(500), "500ms"),
        new Case(Duration.ofMillis(3300), "3.3s"),
        new Case(Duration.ofSeconds(10), "10s"),
        new Case(Duration.ofSeconds(90), "1m30s"),
        new Case(Duration.ofMinutes(4).plusSeconds(5), "4m5s"),
        new Case(Duration.ofMinutes(4).plusMillis(5001), "4m5.001s"),
        new Case(Duration.ofHours(5).plusMinutes(6).plusMillis(7001), "5h6m7.001s"),
        new Case(Duration.ofMinutes(8).plusNanos(1), "8m0.000000001s"),
        new Case(Duration.ofMinutes(15), "15m0s"),
        new Case(Duration.ofHours(2), "2h0m0s"),
        new Case(Duration.ofNanos(Long.MAX_VALUE), "2562047h47m16.854775807s"),
        new Case(Duration.ofNanos(Long.MIN_VALUE), "-2562047h47m16.854775808s"),
        new Case(Duration.ofMillis(-1500), "-1.5s"),
        new Case(Duration.ofNanos(-5), "-5ns"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void format(Case c) {
    assertThat(GoDurations.format(c.d())).isEqualTo(c.want());
  }
}
