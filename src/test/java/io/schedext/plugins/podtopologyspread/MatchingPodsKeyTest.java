package io.schedext.plugins.podtopologyspread;

import io.schedext.kube.Selector;
import io.schedext.testing.ValueEquality;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The key PodTopologySpread interns for its per-node counts: the same namespace and a selector
 * compiled again are equal, and another namespace or selector is not.
 */
class MatchingPodsKeyTest {

  @Test
  void equalForTheSameNamespaceAndSelectorOnly() {
    ValueEquality.check(
        new SpreadConstraint.MatchingPods("shop", Selector.fromSet(Map.of("app", "web"))),
        new SpreadConstraint.MatchingPods("shop", Selector.fromSet(Map.of("app", "web"))),
        List.of(
            new SpreadConstraint.MatchingPods("dev", Selector.fromSet(Map.of("app", "web"))),
            new SpreadConstraint.MatchingPods("shop", Selector.fromSet(Map.of("app", "db"))),
            new SpreadConstraint.MatchingPods("shop", Selector.nothing())));
  }
}
