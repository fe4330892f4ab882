package io.schedext.plugins.helper;

import io.schedext.framework.NodeScores;
import io.schedext.framework.Status;

/** Score normalisation shared by plugins, as upstream's {@code helper.DefaultNormalizeScore}. */
public final class Normalize {

  private Normalize() {}

  /**
   * Scales scores so the highest becomes {@code maxPriority} (integer arithmetic); with {@code
   * reverse} each score s becomes {@code maxPriority - s}. When every score is 0, reverse sets all
   * to {@code maxPriority} and otherwise leaves them.
   */
  public static Status defaultNormalizeScore(long maxPriority, boolean reverse, NodeScores scores) {
    long max = 0;
    for (int i = 0; i < scores.size(); i++) {
      max = Math.max(max, scores.get(i));
    }
    if (max == 0) {
      if (reverse) {
        for (int i = 0; i < scores.size(); i++) {
          scores.set(i, maxPriority);
        }
      }
      return Status.success();
    }
    Divider d = new Divider(max);
    for (int i = 0; i < scores.size(); i++) {
      long s = d.quotient(maxPriority * scores.get(i));
      scores.set(i, reverse ? maxPriority - s : s);
    }
    return Status.success();
  }

  /**
   * Integer division by one divisor, as Java's (and Go's) {@code /}: truncated toward zero,
   * exactly. Normalising divides every node's score by the same maximum, and a 64-bit hardware
   * division costs tens of cycles; this multiplies by the divisor's reciprocal instead and corrects
   * the one-off error of the floating-point estimate, which is exact while numerator and divisor
   * stay below 2^52 (scores are at most a few thousand). Other values take the plain division.
   */
  public static final class Divider {
    private static final long EXACT = 1L << 52;
    private final long divisor;
    private final double reciprocal;
    private final boolean fast;

    /** A divider by {@code divisor}, which must not be 0. */
    public Divider(long divisor) {
      if (divisor == 0) {
        throw new ArithmeticException("/ by zero");
      }
      this.divisor = divisor;
      this.reciprocal = 1.0 / divisor;
      this.fast = divisor > 0 && divisor < EXACT;
    }

    /** {@code n / divisor}. */
    public long quotient(long n) {
      if (!fast || n < 0 || n >= EXACT) {
        return n / divisor;
      }
      long q = (long) (n * reciprocal);
      long r = n - q * divisor;
      if (r < 0) {
        q--;
      } else if (r >= divisor) {
        q++;
      }
      return q;
    }
  }
}
