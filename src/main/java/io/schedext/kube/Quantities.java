package io.schedext.kube;

import io.fabric8.kubernetes.api.model.Quantity;
import java.math.BigDecimal;
import java.math.RoundingMode;

/**
 * Exact conversions of Kubernetes quantities to integers, rounding up as apimachinery's {@code
 * Value()} and {@code MilliValue()} do. Stateless and thread-safe; meant to run when an object
 * enters the cache, never in a per-node loop.
 */
public final class Quantities {

  private static final BigDecimal THOUSAND = BigDecimal.valueOf(1000);

  private Quantities() {}

  /**
   * Returns the exact decimal value of {@code q}; throws {@link IllegalArgumentException} when it
   * is malformed.
   */
  public static BigDecimal decimal(Quantity q) {
    if (q == null) {
      return BigDecimal.ZERO;
    }
    BigDecimal common = plainDecimal(q.getAmount(), q.getFormat());
    if (common != null) {
      return common;
    }
    try {
      return q.getNumericalAmount();
    } catch (RuntimeException e) {
      throw new IllegalArgumentException("invalid quantity \"" + q + "\"", e);
    }
  }

  /**
   * The value of the common spellings — an unsigned integer amount with no suffix or one of the
   * suffixes m, u, n, k, M, G, T, Ki, Mi, Gi, Ti — computed directly; null for anything else
   * (signs, fractions, exponents, larger suffixes, or values that would not fit a long), which goes
   * through the general parser. Every pod the cache takes in has its requests parsed, and the
   * general parser's powers of BigDecimal made that a visible share of an update.
   */
  static BigDecimal plainDecimal(String amount, String format) {
    if (amount == null || amount.isEmpty() || amount.length() > 15) {
      return null;
    }
    long v = 0;
    for (int i = 0; i < amount.length(); i++) {
      char c = amount.charAt(i);
      if (c < '0' || c > '9') {
        return null;
      }
      v = v * 10 + (c - '0');
    }
    if (format == null || format.isEmpty()) {
      return BigDecimal.valueOf(v);
    }
    return switch (format) {
      case "m" -> BigDecimal.valueOf(v, 3);
      case "u" -> BigDecimal.valueOf(v, 6);
      case "n" -> BigDecimal.valueOf(v, 9);
      case "k" -> times(v, 1_000L);
      case "M" -> times(v, 1_000_000L);
      case "G" -> times(v, 1_000_000_000L);
      case "T" -> times(v, 1_000_000_000_000L);
      case "Ki" -> times(v, 1L << 10);
      case "Mi" -> times(v, 1L << 20);
      case "Gi" -> times(v, 1L << 30);
      case "Ti" -> times(v, 1L << 40);
      default -> null;
    };
  }

  private static BigDecimal times(long v, long unit) {
    long hi = Math.multiplyHigh(v, unit);
    long lo = v * unit;
    return hi != 0 || lo < 0 ? null : BigDecimal.valueOf(lo);
  }

  /**
   * Returns the quantity rounded up to an integer, as apimachinery's {@code Quantity.Value()}: away
   * from zero, so 1.5 is 2 and -1.5 is -2.
   */
  public static long value(Quantity q) {
    return roundUpToLong(decimal(q));
  }

  /**
   * Returns the quantity in thousandths rounded up (away from zero), as apimachinery's {@code
   * MilliValue()}.
   */
  public static long milliValue(Quantity q) {
    return roundUpToLong(decimal(q).multiply(THOUSAND));
  }

  /**
   * Rounds {@code d} to a long away from zero, as apimachinery rounds a quantity's {@code Value()},
   * saturating at the long range instead of overflowing.
   */
  public static long roundUpToLong(BigDecimal d) {
    return saturate(d.setScale(0, RoundingMode.UP));
  }

  /** Rounds {@code d} up to a long, saturating at the long range instead of overflowing. */
  public static long ceilToLong(BigDecimal d) {
    return saturate(d.setScale(0, RoundingMode.CEILING));
  }

  private static long saturate(BigDecimal c) {
    if (c.compareTo(BigDecimal.valueOf(Long.MAX_VALUE)) > 0) {
      return Long.MAX_VALUE;
    }
    if (c.compareTo(BigDecimal.valueOf(Long.MIN_VALUE)) < 0) {
      return Long.MIN_VALUE;
    }
    return c.longValueExact();
  }
}
