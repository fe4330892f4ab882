package io.schedext.bench;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** The driver's row statistics: percentiles, and where a row's slowest calls fall. */
class HttpLoadDriverStatsTest {

  private static final long MS = 1_000_000L;

  @Test
  void slowestCallsAreListedSlowestFirstWithTheirPositions() {
    long[] nanos = {241 * MS, 3 * MS, 54 * MS, 2 * MS, 31 * MS + MS / 2};
    assertThat(HttpLoadDriver.Stats.slowest(nanos, 3)).isEqualTo("0:241.0 2:54.0 4:31.5");
    assertThat(HttpLoadDriver.Stats.slowest(nanos, 10))
        .as("at most as many as there are calls")
        .isEqualTo("0:241.0 2:54.0 4:31.5 1:3.0 3:2.0");
    assertThat(HttpLoadDriver.Stats.slowest(nanos, 0)).isEmpty();
  }

  @Test
  void theSlowestCallsStartsAreListedInTheSameOrder() {
    long[] nanos = {241 * MS, 3 * MS, 54 * MS, 2 * MS, 31 * MS + MS / 2};
    long[] starts = {0, 241 * MS + MS / 2, 245 * MS, 299 * MS, 302 * MS};
    assertThat(HttpLoadDriver.Stats.slowestStarts(nanos, starts, 3))
        .isEqualTo("0@0.0 2@245.0 4@302.0");
    assertThat(HttpLoadDriver.Stats.slowestStarts(nanos, starts, 0)).isEmpty();
  }

  @Test
  void theFirstCallsAreSetAgainstTheRest() {
    long[] nanos = new long[1000];
    for (int i = 0; i < nanos.length; i++) {
      nanos[i] = (i < 150 ? 3 : i < 160 ? 9 : 1) * MS;
    }
    assertThat(HttpLoadDriver.Stats.firstAndRest(nanos, 150))
        .isEqualTo("first 150: mean 3.00 ms; the other 850: mean 1.09 ms, p99 9.00 ms");
    assertThat(HttpLoadDriver.Stats.firstAndRest(new long[] {2 * MS, 4 * MS}, 150))
        .as("a row shorter than the first calls")
        .isEqualTo("first 2: mean 3.00 ms");
  }

  @Test
  void theP99OfAThousandCallsIsTheTenthSlowest() {
    long[] nanos = new long[1000];
    for (int i = 0; i < nanos.length; i++) {
      nanos[i] = (i < 10 ? 100 + i : 1) * MS;
    }
    HttpLoadDriver.Stats s = HttpLoadDriver.Stats.of(nanos);
    assertThat(s.p50()).isEqualTo(1.0);
    assertThat(s.p99()).as("the tenth slowest").isEqualTo(100.0);
    assertThat(s.max()).isEqualTo(109.0);
  }
}
