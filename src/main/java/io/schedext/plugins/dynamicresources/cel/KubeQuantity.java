package io.schedext.plugins.dynamicresources.cel;

import io.fabric8.kubernetes.api.model.Quantity;
import io.schedext.kube.Quantities;
import java.math.BigDecimal;
import java.util.regex.Pattern;

/**
 * A Kubernetes quantity as a CEL value ({@code kubernetes.Quantity}): its exact decimal value and
 * its text. Equal when the values are equal ({@code 1Gi == 1024Mi}), as apimachinery's {@code
 * Quantity.Equal}. Immutable.
 */
public final class KubeQuantity implements Comparable<KubeQuantity> {

  /** apimachinery's quantity syntax, and its error when a text does not follow it. */
  private static final Pattern SYNTAX =
      Pattern.compile("^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$");

  static final String FORMAT_ERROR =
      "quantities must match the regular expression"
          + " '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'";

  private final BigDecimal value;
  private final String text;

  private KubeQuantity(BigDecimal value, String text) {
    this.value = value;
    this.text = text;
  }

  /** The quantity {@code q}; throws {@link IllegalArgumentException} when it is malformed. */
  public static KubeQuantity of(Quantity q) {
    return new KubeQuantity(Quantities.decimal(q), q.toString());
  }

  /**
   * Parses {@code text} as apimachinery's {@code ParseQuantity}; throws {@link
   * IllegalArgumentException} with its message when the text is not a quantity.
   */
  public static KubeQuantity parse(String text) {
    if (text == null || text.isEmpty()) {
      throw new IllegalArgumentException("quantities must match the regular expression");
    }
    if (!SYNTAX.matcher(text).matches()) {
      throw new IllegalArgumentException(FORMAT_ERROR);
    }
    try {
      return new KubeQuantity(Quantities.decimal(new Quantity(text)), text);
    } catch (RuntimeException e) {
      throw new IllegalArgumentException("unable to parse quantity's suffix");
    }
  }

  /** Whether {@code text} parses as a quantity. */
  public static boolean isQuantity(String text) {
    try {
      parse(text);
      return true;
    } catch (IllegalArgumentException e) {
      return false;
    }
  }

  static KubeQuantity ofDecimal(BigDecimal v) {
    return new KubeQuantity(v, v.stripTrailingZeros().toPlainString());
  }

  /** The exact value. */
  public BigDecimal value() {
    return value;
  }

  /** -1, 0 or 1. */
  long sign() {
    return value.signum();
  }

  /** Whether the value is a whole number that fits a long. */
  boolean isInteger() {
    try {
      value.longValueExact();
      return true;
    } catch (ArithmeticException e) {
      return false;
    }
  }

  /** The value as a long; throws when it is not {@link #isInteger()}. */
  long asInteger() {
    try {
      return value.longValueExact();
    } catch (ArithmeticException e) {
      throw new IllegalArgumentException("cannot convert value to integer");
    }
  }

  double asApproximateFloat() {
    return value.doubleValue();
  }

  KubeQuantity add(KubeQuantity o) {
    return ofDecimal(value.add(o.value));
  }

  KubeQuantity sub(KubeQuantity o) {
    return ofDecimal(value.subtract(o.value));
  }

  @Override
  public int compareTo(KubeQuantity o) {
    return value.compareTo(o.value);
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof KubeQuantity q && value.compareTo(q.value) == 0;
  }

  @Override
  public int hashCode() {
    return value.stripTrailingZeros().hashCode();
  }

  @Override
  public String toString() {
    return text;
  }
}
