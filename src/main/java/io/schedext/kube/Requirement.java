package io.schedext.kube;

import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;

/**
 * One label requirement (key, operator, values), as apimachinery's {@code labels.Requirement}.
 * Immutable.
 *
 * @param key the label key
 * @param operator the operator
 * @param values the values (empty for Exists and DoesNotExist; one integer for Gt and Lt)
 * @param bound for Gt and Lt, the parsed integer bound
 */
public record Requirement(String key, Operator operator, Set<String> values, long bound) {

  /** Selection operators. */
  public enum Operator {
    EQUALS("="),
    NOT_EQUALS("!="),
    IN("in"),
    NOT_IN("notin"),
    EXISTS("exists"),
    DOES_NOT_EXIST("!"),
    GREATER_THAN("gt"),
    LESS_THAN("lt");

    private final String symbol;

    Operator(String symbol) {
      this.symbol = symbol;
    }

    /** The operator as written in a selector string. */
    public String symbol() {
      return symbol;
    }
  }

  /** A requirement that the label {@code key} equals {@code value}. */
  public static Requirement equalTo(String key, String value) {
    return new Requirement(key, Operator.EQUALS, Set.of(value == null ? "" : value), 0);
  }

  /**
   * Builds a validated requirement; throws {@link IllegalArgumentException} with apimachinery's
   * wording when the operator and values do not fit together or a value is malformed.
   */
  public static Requirement of(String key, Operator op, Collection<String> values) {
    if (!QualifiedNames.isQualifiedName(key)) {
      throw new IllegalArgumentException("invalid label key \"" + key + "\"");
    }
    List<String> vals = values == null ? List.of() : List.copyOf(values);
    long bound = 0;
    switch (op) {
      case IN, NOT_IN -> {
        if (vals.isEmpty()) {
          throw new IllegalArgumentException(
              "for 'in', 'notin' operators, values set can't be empty");
        }
      }
      case EQUALS, NOT_EQUALS -> {
        if (vals.size() != 1) {
          throw new IllegalArgumentException("exact-match compatibility requires one single value");
        }
      }
      case EXISTS, DOES_NOT_EXIST -> {
        if (!vals.isEmpty()) {
          throw new IllegalArgumentException(
              "values set must be empty for exists and does not exist");
        }
      }
      case GREATER_THAN, LESS_THAN -> {
        if (vals.size() != 1) {
          throw new IllegalArgumentException(
              "for 'Gt', 'Lt' operators, exactly one value is required");
        }
        try {
          bound = Long.parseLong(vals.get(0));
        } catch (NumberFormatException e) {
          throw new IllegalArgumentException(
              "for 'Gt', 'Lt' operators, the value must be an integer", e);
        }
      }
      default -> throw new IllegalArgumentException("operator '" + op + "' is not recognized");
    }
    // apimachinery validates every value as a label value, Gt/Lt bounds included (so "-1" is
    // rejected).
    for (String v : vals) {
      if (!QualifiedNames.isLabelValue(v)) {
        throw new IllegalArgumentException("invalid label value: \"" + v + "\"");
      }
    }
    return new Requirement(key, op, Set.copyOf(vals), bound);
  }

  /** True when {@code labels} satisfy this requirement. */
  public boolean matches(Map<String, String> labels) {
    String v = labels.get(key);
    return switch (operator) {
      case EQUALS, IN -> v != null && values.contains(v);
      case NOT_EQUALS, NOT_IN -> v == null || !values.contains(v);
      case EXISTS -> v != null;
      case DOES_NOT_EXIST -> v == null;
      case GREATER_THAN, LESS_THAN -> {
        if (v == null) {
          yield false;
        }
        long n;
        try {
          n = Long.parseLong(v);
        } catch (NumberFormatException e) {
          yield false;
        }
        yield operator == Operator.GREATER_THAN ? n > bound : n < bound;
      }
    };
  }

  @Override
  public String toString() {
    return switch (operator) {
      case EXISTS -> key;
      case DOES_NOT_EXIST -> "!" + key;
      case EQUALS, NOT_EQUALS -> key + operator.symbol() + values.iterator().next();
      default ->
          key + " " + operator.symbol() + " (" + String.join(",", new TreeSet<>(values)) + ")";
    };
  }

  // Written out rather than left to the record: the generated methods go through a method handle
  // chain that the compiler, with the image's inlining limits, does not fold, and selectors compare
  // their requirements whenever an interned key holding one is looked up.
  @Override
  public boolean equals(Object o) {
    return o == this
        || (o instanceof Requirement r
            && bound == r.bound
            && operator == r.operator
            && Objects.equals(key, r.key)
            && Objects.equals(values, r.values));
  }

  @Override
  public int hashCode() {
    int h = Objects.hashCode(key);
    h = 31 * h + Objects.hashCode(operator);
    h = 31 * h + Objects.hashCode(values);
    return 31 * h + Long.hashCode(bound);
  }
}
