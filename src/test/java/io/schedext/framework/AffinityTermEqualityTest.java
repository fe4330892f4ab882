package io.schedext.framework;

import io.schedext.kube.Selector;
import io.schedext.testing.ValueEquality;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * Compiled affinity terms are parts of interned memo keys: terms compiled again from the same pod
 * are equal, and terms that can match differently are not.
 */
class AffinityTermEqualityTest {

  private static AffinityTerm term(
      Set<String> namespaces, Map<String, String> selector, String key, Selector nsSelector) {
    return new AffinityTerm(namespaces, Selector.fromSet(selector), key, nsSelector);
  }

  private static final AffinityTerm BASE =
      term(Set.of("shop"), Map.of("app", "web"), "zone", Selector.nothing());

  @Test
  void aTermEqualsItsRecompilationAndNoTermWithAnotherPart() {
    ValueEquality.check(
        BASE,
        term(Set.of("shop"), Map.of("app", "web"), "zone", Selector.nothing()),
        List.of(
            term(Set.of("shop", "dev"), Map.of("app", "web"), "zone", Selector.nothing()),
            term(Set.of("shop"), Map.of("app", "db"), "zone", Selector.nothing()),
            term(Set.of("shop"), Map.of("app", "web"), "hostname", Selector.nothing()),
            term(Set.of("shop"), Map.of("app", "web"), "zone", Selector.everything())));
  }

  @Test
  void aWeightedTermEqualsOneOfTheSameTermAndWeightOnly() {
    ValueEquality.check(
        new WeightedAffinityTerm(BASE, 10),
        new WeightedAffinityTerm(
            term(Set.of("shop"), Map.of("app", "web"), "zone", Selector.nothing()), 10),
        List.of(
            new WeightedAffinityTerm(BASE, 11),
            new WeightedAffinityTerm(
                term(Set.of("shop"), Map.of("app", "web"), "hostname", Selector.nothing()), 10)));
  }
}
