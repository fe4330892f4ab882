package io.schedext.plugins.nodeaffinity;

import static org.assertj.core.api.Assertions.assertThat;

import io.schedext.cluster.ObjectStore;
import io.schedext.framework.CycleState;
import io.schedext.framework.NodeInfo;
import io.schedext.framework.PodInfo;
import io.schedext.framework.PreFilterResult;
import io.schedext.framework.Registry;
import io.schedext.framework.ScoreResult;
import io.schedext.framework.Status;
import io.schedext.framework.runtime.Framework;
import io.schedext.plugins.Names;
import io.schedext.testing.MakeNode;
import io.schedext.testing.MakePod;
import io.schedext.testing.TestFrameworks;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** NodeAffinity run by the framework: narrowing, Skip and added-affinity args from the profile. */
class NodeAffinityFrameworkTest {

  private static final String ADDED_ZONE_A =
      "{\"addedAffinity\":{\"preferredDuringSchedulingIgnoredDuringExecution\":"
          + "[{\"weight\":5,\"preference\":{\"matchExpressions\":[{\"key\":\"zone\",\"operator\":\"In\",\"values\":"
          + "[\"a\"]}]}}]}}";

  private final List<NodeInfo> nodes =
      List.of(
          MakeNode.node().name("n1").label("zone", "a").info(),
          MakeNode.node().name("n2").label("zone", "b").info(),
          MakeNode.node().name("n3").label("zone", "a").info());

  private Framework framework(Map<String, String> args) {
    Registry registry = new Registry().register(Names.NODE_AFFINITY, NodeAffinity::create);
    return TestFrameworks.framework(
        registry, new ObjectStore(), List.of(Names.NODE_AFFINITY), args);
  }

  @Test
  void requiredNodeNamesNarrowTheNodesToFilter() {
    Framework fw = framework(Map.of());
    PodInfo pod = MakePod.pod().name("p").nodeFieldTerm("metadata.name", "In", "n2").info();
    CycleState state = TestFrameworks.cycleState(nodes);
    PreFilterResult r = fw.runPreFilterPlugins(state, pod);
    assertThat(r)
        .isEqualTo(
            new PreFilterResult(Status.success(), Set.of("n2"), List.of(Names.NODE_AFFINITY)));
    assertThat(r.excludedReason()).isEqualTo("node(s) didn't satisfy plugin(s) [NodeAffinity]");
    assertThat(fw.runFilterPlugins(state, pod, nodes.get(1))).isEqualTo(Status.success());
  }

  @Test
  void aPodWithoutConstraintsSkipsFilterAndScore() {
    Framework fw = framework(Map.of());
    PodInfo pod = MakePod.pod().name("p").info();
    CycleState state = TestFrameworks.cycleState(nodes);
    assertThat(fw.runPreFilterPlugins(state, pod).status()).isEqualTo(Status.success());
    assertThat(state.skipFilterPlugins()).containsExactly(Names.NODE_AFFINITY);
    assertThat(fw.runPreScorePlugins(state, pod, nodes)).isEqualTo(Status.success());
    assertThat(state.skipScorePlugins()).containsExactly(Names.NODE_AFFINITY);
  }

  @Test
  void addedPreferredTermsFromTheProfileScoreEveryPod() {
    Framework fw = framework(Map.of(Names.NODE_AFFINITY, ADDED_ZONE_A));
    PodInfo pod = MakePod.pod().name("p").info();
    CycleState state = TestFrameworks.cycleState(nodes);
    assertThat(fw.runPreScorePlugins(state, pod, nodes)).isEqualTo(Status.success());
    ScoreResult r = fw.runScorePlugins(state, pod, nodes);
    assertThat(r.status()).isEqualTo(Status.success());
    assertThat(r.totals()).containsExactly(100, 0, 100);
  }
}
