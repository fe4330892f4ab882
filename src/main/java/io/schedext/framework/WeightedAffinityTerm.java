package io.schedext.framework;

import java.util.Objects;

/**
 * A preferred pod (anti-)affinity term and its weight.
 *
 * @param term the compiled term
 * @param weight the weight, 1–100
 */
public record WeightedAffinityTerm(AffinityTerm term, int weight) {

  // Written out rather than left to the record: the generated methods go through a method handle
  // chain that the compiler, with the image's inlining limits, does not fold, and interned keys
  // holding terms compare them on every call.
  @Override
  public boolean equals(Object o) {
    return o == this
        || (o instanceof WeightedAffinityTerm t
            && weight == t.weight
            && Objects.equals(term, t.term));
  }

  @Override
  public int hashCode() {
    return 31 * Objects.hashCode(term) + weight;
  }
}
