package io.schedext.kube;

import io.fabric8.kubernetes.api.model.Quantity;
import java.math.BigDecimal;
import java.math.RoundingMode;

/**
 * Exact conversions of Kubernetes quantities to integers, rounding up as apimachinery's {@code Value()} and
 * {@code MilliValue()} do. Stateless and thread-safe; meant to run when an object enters the cache, never in a
 * per-node loop.
 */
public final class Quantities {

  private static final BigDecimal THOUSAND = BigDecimal.valueOf(1000);

  private Quantities() {}

  /** Returns the exact decimal value of {@code q}; throws {@link IllegalArgumentException} when it is malformed. */
  public static BigDecimal decimal(Quantity q) {
    if (q == null) {
      return BigDecimal.ZERO;
    }
    try {
      return q.getNumericalAmount();
    } catch (RuntimeException e) {
      throw new IllegalArgumentException("invalid quantity \"" + q + "\"", e);
    }
  }

  /**
   * Returns the quantity rounded up to an integer, as apimachinery's {@code Quantity.Value()}: away from zero, so
   * 1.5 is 2 and -1.5 is -2.
   */
  public static long value(Quantity q) {
    return roundUpToLong(decimal(q));
  }

  /** Returns the quantity in thousandths rounded up (away from zero), as apimachinery's {@code MilliValue()}. */
  public static long milliValue(Quantity q) {
    return roundUpToLong(decimal(q).multiply(THOUSAND));
  }

  /**
   * Rounds {@code d} to a long away from zero, as apimachinery rounds a quantity's {@code Value()}, saturating at the
   * long range instead of overflowing.
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
