package io.schedext.kube;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

/**
 * A compiled label selector: a conjunction of requirements, as apimachinery's {@code
 * labels.Selector}. Instances are immutable and thread-safe; {@link #matches} allocates nothing.
 * Two selectors are equal when both match nothing or both list equal requirements in the same order
 * (so they can be parts of memo keys); the hash is computed once.
 */
public final class Selector {

  private static final Selector EVERYTHING = new Selector(List.of(), false);
  private static final Selector NOTHING = new Selector(List.of(), true);

  private final Requirement[] requirements;
  private final boolean nothing;
  private final int hash;

  Selector(List<Requirement> requirements, boolean nothing) {
    this.requirements = requirements.toArray(new Requirement[0]);
    this.nothing = nothing;
    this.hash = nothing ? -1 : Arrays.hashCode(this.requirements);
  }

  /** The selector that matches every label set (an empty selector). */
  public static Selector everything() {
    return EVERYTHING;
  }

  /** The selector that matches no label set (a null selector). */
  public static Selector nothing() {
    return NOTHING;
  }

  /**
   * Returns a selector requiring every key of {@code set} to carry the same value; an empty set
   * matches all.
   */
  public static Selector fromSet(Map<String, String> set) {
    if (set == null || set.isEmpty()) {
      return EVERYTHING;
    }
    List<Requirement> reqs =
        set.entrySet().stream().map(e -> Requirement.equalTo(e.getKey(), e.getValue())).toList();
    return new Selector(reqs, false);
  }

  /** This selector with {@code more} requirements ANDed; a nothing selector stays nothing. */
  public Selector and(List<Requirement> more) {
    if (nothing || more.isEmpty()) {
      return this;
    }
    List<Requirement> all = new ArrayList<>(List.of(requirements));
    all.addAll(more);
    return new Selector(all, false);
  }

  /** True when the labels (null = none) satisfy every requirement. */
  public boolean matches(Map<String, String> labels) {
    if (nothing) {
      return false;
    }
    Map<String, String> l = labels == null ? Map.of() : labels;
    for (Requirement r : requirements) {
      if (!r.matches(l)) {
        return false;
      }
    }
    return true;
  }

  /** True when this selector has no requirements and so matches everything. */
  public boolean isEverything() {
    return !nothing && requirements.length == 0;
  }

  /** True when this is the selector that matches nothing. */
  public boolean isNothing() {
    return nothing;
  }

  /** The requirements, in declaration order. */
  public List<Requirement> requirements() {
    return List.of(requirements);
  }

  /**
   * True for a selector that matches nothing as well, or one with equal requirements in the same
   * order.
   */
  @Override
  public boolean equals(Object o) {
    return o == this
        || (o instanceof Selector other
            && hash == other.hash
            && nothing == other.nothing
            && Arrays.equals(requirements, other.requirements));
  }

  @Override
  public int hashCode() {
    return hash;
  }

  @Override
  public String toString() {
    if (nothing) {
      return "<nothing>";
    }
    StringBuilder sb = new StringBuilder();
    for (Requirement r : requirements) {
      if (sb.length() > 0) {
        sb.append(',');
      }
      sb.append(r);
    }
    return sb.toString();
  }
}
