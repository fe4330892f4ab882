package io.schedext.framework;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.Duration;

/**
 * Formats durations the way Go's {@code time.Duration.String()} does ("1m30s", "500ms", "2h0m0s"),
 * and parses them as {@code time.ParseDuration} does.
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

  /**
   * Parses {@code text} as Go's {@code time.ParseDuration}: a sign, then decimal numbers each with
   * a unit (ns, us, µs, ms, s, m, h), like {@code 1h30m} or {@code -1.5s}; throws {@link
   * IllegalArgumentException} with Go's message when it is not a duration.
   */
  public static Duration parse(String text) {
    String s = text;
    boolean negative = false;
    if (!s.isEmpty() && (s.charAt(0) == '-' || s.charAt(0) == '+')) {
      negative = s.charAt(0) == '-';
      s = s.substring(1);
    }
    if (s.equals("0")) {
      return Duration.ZERO;
    }
    if (s.isEmpty()) {
      throw invalid(text);
    }
    BigDecimal nanos = BigDecimal.ZERO;
    int i = 0;
    while (i < s.length()) {
      int start = i;
      while (i < s.length() && (Character.isDigit(s.charAt(i)) || s.charAt(i) == '.')) {
        i++;
      }
      String number = s.substring(start, i);
      if (number.isEmpty()
          || number.equals(".")
          || number.indexOf('.') != number.lastIndexOf('.')) {
        throw invalid(text);
      }
      int unitStart = i;
      while (i < s.length() && !Character.isDigit(s.charAt(i)) && s.charAt(i) != '.') {
        i++;
      }
      String unit = s.substring(unitStart, i);
      if (unit.isEmpty()) {
        throw new IllegalArgumentException("time: missing unit in duration \"" + text + "\"");
      }
      long scale =
          switch (unit) {
            case "ns" -> 1L;
            case "us", "µs", "μs" -> 1_000L;
            case "ms" -> 1_000_000L;
            case "s" -> 1_000_000_000L;
            case "m" -> 60_000_000_000L;
            case "h" -> 3_600_000_000_000L;
            default ->
                throw new IllegalArgumentException(
                    "time: unknown unit \"" + unit + "\" in duration \"" + text + "\"");
          };
      nanos =
          nanos.add(
              new BigDecimal(number.startsWith(".") ? "0" + number : number)
                  .multiply(BigDecimal.valueOf(scale)));
    }
    BigInteger whole = nanos.toBigInteger();
    if (whole.bitLength() > 63) {
      throw invalid(text);
    }
    long n = whole.longValue();
    return Duration.ofNanos(negative ? -n : n);
  }

  private static IllegalArgumentException invalid(String text) {
    return new IllegalArgumentException("time: invalid duration \"" + text + "\"");
  }
}
