package io.schedext.framework;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.Duration;

/**
 * Formats durations the way Go's {@code time.Duration.String()} does ("1m30s", "500ms", "2h0m0s").
 */
public final class GoDurations {

  private static final BigInteger THOUSAND = BigInteger.valueOf(1_000);
  private static final BigInteger MILLION = BigInteger.valueOf(1_000_000);
  private static final BigInteger BILLION = BigInteger.valueOf(1_000_000_000);
  private static final BigInteger NANOS_PER_MINUTE = BigInteger.valueOf(60_000_000_000L);
  private static final BigInteger NANOS_PER_HOUR = BigInteger.valueOf(3_600_000_000_000L);

  private GoDurations() {}

  /** Go's text for {@code d}; {@code d} must fit Go's int64 nanoseconds. */
  public static String format(Duration d) {
    long nanos = d.toNanos();
    if (nanos == 0) {
      return "0s";
    }
    String sign = nanos < 0 ? "-" : "";
    // The magnitude as a BigInteger: Math.abs(Long.MIN_VALUE) would stay negative.
    BigInteger n = BigInteger.valueOf(nanos).abs();
    if (n.compareTo(THOUSAND) < 0) {
      return sign + n + "ns";
    }
    if (n.compareTo(MILLION) < 0) {
      return sign + trim(new BigDecimal(n, 3)) + "µs";
    }
    if (n.compareTo(BILLION) < 0) {
      return sign + trim(new BigDecimal(n, 6)) + "ms";
    }
    BigInteger[] hoursRest = n.divideAndRemainder(NANOS_PER_HOUR);
    BigInteger[] minutesRest = hoursRest[1].divideAndRemainder(NANOS_PER_MINUTE);
    String secs = trim(new BigDecimal(minutesRest[1], 9)) + "s";
    if (hoursRest[0].signum() > 0) {
      return sign + hoursRest[0] + "h" + minutesRest[0] + "m" + secs;
    }
    if (minutesRest[0].signum() > 0) {
      return sign + minutesRest[0] + "m" + secs;
    }
    return sign + secs;
  }

  private static String trim(BigDecimal v) {
    BigDecimal s = v.stripTrailingZeros();
    return s.scale() < 0 ? s.setScale(0).toPlainString() : s.toPlainString();
  }
}
