package io.schedext.framework;

import java.math.BigDecimal;
import java.time.Duration;

/** Formats durations the way Go's {@code time.Duration.String()} does ("1m30s", "500ms", "2h0m0s"). */
public final class GoDurations {

  private GoDurations() {}

  /** Go's text for {@code d}. */
  public static String format(Duration d) {
    long nanos = d.toNanos();
    if (nanos == 0) {
      return "0s";
    }
    String sign = nanos < 0 ? "-" : "";
    long n = Math.abs(nanos);
    if (n < 1_000) {
      return sign + n + "ns";
    }
    if (n < 1_000_000) {
      return sign + trim(BigDecimal.valueOf(n, 3)) + "µs";
    }
    if (n < 1_000_000_000) {
      return sign + trim(BigDecimal.valueOf(n, 6)) + "ms";
    }
    long h = n / 3_600_000_000_000L;
    long rem = n % 3_600_000_000_000L;
    long m = rem / 60_000_000_000L;
    long s = rem % 60_000_000_000L;
    String secs = trim(BigDecimal.valueOf(s, 9)) + "s";
    if (h > 0) {
      return sign + h + "h" + m + "m" + secs;
    }
    if (m > 0) {
      return sign + m + "m" + secs;
    }
    return sign + secs;
  }

  private static String trim(BigDecimal v) {
    BigDecimal s = v.stripTrailingZeros();
    return s.scale() < 0 ? s.setScale(0).toPlainString() : s.toPlainString();
  }
}
