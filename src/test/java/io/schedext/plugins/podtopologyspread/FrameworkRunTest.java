package io.schedext.plugins.podtopologyspread;

import static io.schedext.plugins.podtopologyspread.Fixtures.DNS;
import static io.schedext.plugins.podtopologyspread.Fixtures.FOO;
import static io.schedext.plugins.podtopologyspread.Fixtures.HOSTNAME;
import static io.schedext.plugins.podtopologyspread.Fixtures.SA;
import static io.schedext.plugins.podtopologyspread.Fixtures.node;
import static io.schedext.plugins.podtopologyspread.Fixtures.on;
import static io.schedext.plugins.podtopologyspread.Fixtures.pod;
import static io.schedext.plugins.podtopologyspread.Fixtures.spread;
import static org.assertj.core.api.Assertions.assertThat;

import io.schedext.cache.Snapshot;
import io.schedext.cluster.ObjectStore;
import io.schedext.framework.CycleState;
import io.schedext.framework.NodeInfo;
import io.schedext.framework.PodInfo;
import io.schedext.framework.Registry;
import io.schedext.framework.ScoreResult;
import io.schedext.framework.Status;
import io.schedext.framework.runtime.Framework;
import io.schedext.plugins.Names;
import io.schedext.testing.TestFrameworks;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The plugin run through the framework runtime, as the registry will wire it. */
class FrameworkRunTest {

  private final Framework framework =
      TestFrameworks.framework(
          new Registry().register(Names.POD_TOPOLOGY_SPREAD, PodTopologySpread::create),
          new ObjectStore(),
          List.of(Names.POD_TOPOLOGY_SPREAD),
          Map.of(Names.POD_TOPOLOGY_SPREAD, "{\"defaultingType\":\"List\"}"));

  private final List<NodeInfo> nodes =
      Fixtures.snapshot(
          List.of(
              node("node-a", HOSTNAME, "node-a", "zone", "zone1").obj(),
              node("node-b", HOSTNAME, "node-b", "zone", "zone1").obj(),
              node("node-x", HOSTNAME, "node-x", "zone", "zone2").obj()),
          List.of(
              on("node-a", "p-a1", "foo", ""),
              on("node-a", "p-a2", "foo", ""),
              on("node-x", "p-x1", "foo", "")));

  @Test
  void filtersWithTheHardConstraintAndAttributesRejections() {
    PodInfo pod =
        PodInfo.of(pod("p", "foo", "").spreadConstraint(spread(1, HOSTNAME, DNS, FOO)).obj());
    CycleState state = framework.newCycleState(Snapshot.of(nodes));

    assertThat(framework.runPreFilterPlugins(state, pod).status()).isEqualTo(Status.success());
    assertThat(nodes.stream().map(n -> framework.runFilterPlugins(state, pod, n)).toList())
        .isEqualTo(List.of(Fixtures.SKEWED, Status.success(), Fixtures.SKEWED));
  }

  @Test
  void aPodWithoutHardConstraintsSkipsTheFilter() {
    PodInfo pod =
        PodInfo.of(pod("p", "foo", "").spreadConstraint(spread(1, HOSTNAME, SA, FOO)).obj());
    CycleState state = framework.newCycleState(Snapshot.of(nodes));

    assertThat(framework.runPreFilterPlugins(state, pod).status()).isEqualTo(Status.success());
    assertThat(state.skipFilterPlugins()).containsExactly(Names.POD_TOPOLOGY_SPREAD);
    assertThat(nodes.stream().map(n -> framework.runFilterPlugins(state, pod, n)).toList())
        .containsOnly(Status.success());
  }

  @Test
  void scoresWithTheSoftConstraint() {
    PodInfo pod =
        PodInfo.of(pod("p", "foo", "").spreadConstraint(spread(1, "zone", SA, FOO)).obj());
    CycleState state = framework.newCycleState(Snapshot.of(nodes));

    assertThat(framework.runPreScorePlugins(state, pod, nodes)).isEqualTo(Status.success());
    ScoreResult r = framework.runScorePlugins(state, pod, nodes);
    // zone1 holds 2 matching pods, zone2 one; weight ln(4): raw 3 and 1, normalised 100 × (3 + 1 -
    // s) / 3.
    assertThat(r.status()).isEqualTo(Status.success());
    assertThat(r.raw()[0]).containsExactly(3, 3, 1);
    assertThat(r.normalized()[0]).containsExactly(33, 33, 100);
  }
}
