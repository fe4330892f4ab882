package io.schedext.scheduler;

import static org.assertj.core.api.Assertions.assertThat;

import io.schedext.cache.SchedulerCache;
import io.schedext.cache.Snapshot;
import io.schedext.cluster.ObjectStore;
import io.schedext.framework.Code;
import io.schedext.framework.NodeInfo;
import io.schedext.framework.PodInfo;
import io.schedext.framework.ScoreResult;
import io.schedext.framework.runtime.Framework;
import io.schedext.plugins.Names;
import io.schedext.profiles.InTreeRegistry;
import io.schedext.testing.MakeNode;
import io.schedext.testing.MakePod;
import io.schedext.testing.TestFrameworks;
import java.time.Clock;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The scheduling cycle's two phases over the nodes kube-scheduler hands over: what Filter decides
 * per node, and the Score phase on the Filter phase's PreFilter state or, without one, on PreFilter
 * run again, whose rejection leaves nothing to score.
 */
class SchedulingCycleTest {

  private final Framework fw =
      TestFrameworks.framework(
          InTreeRegistry.create(),
          new ObjectStore(),
          List.of(
              Names.NODE_RESOURCES_FIT,
              Names.VOLUME_BINDING,
              Names.NODE_RESOURCES_BALANCED_ALLOCATION),
          Map.of());
  // 2 CPUs, one of them taken.
  private final NodeInfo small =
      MakeNode.node()
          .name("small")
          .capacity(Map.of("cpu", "2", "pods", "10"))
          .info(MakePod.pod().name("q").uid("q").node("small").req(Map.of("cpu", "1")).info());
  private final NodeInfo big =
      MakeNode.node().name("big").capacity(Map.of("cpu", "4", "pods", "10")).info();
  private final Snapshot snapshot = Snapshot.of(List.of(small, big));
  private final SchedulingCycle cycle = new SchedulingCycle();

  @Test
  void filterSortsTheNodesByVerdictAndKeepsTheCallersOwnRejections() {
    PodInfo pod = MakePod.pod().name("p").uid("p").req(Map.of("cpu", "2")).info();
    LinkedHashMap<String, String> rejected = new LinkedHashMap<>();
    rejected.put("gone", "node \"gone\" is not in the extender's cache");

    SchedulingCycle.Feasibility f =
        cycle.findNodesThatFit(fw, snapshot, pod, List.of(small, big), rejected);

    assertThat(f.nodes()).containsExactly(big);
    assertThat(f.at()[0]).as("big's place among the candidates").isEqualTo(1);
    assertThat(f.failed()).isEqualTo(Map.of("small", "Insufficient cpu"));
    assertThat(f.unresolvable()).containsOnlyKeys("gone");
    assertThat(f.error()).isEmpty();
  }

  @Test
  void aPreFilterRejectionRejectsEveryCandidateWithItsCode() {
    PodInfo pod = MakePod.pod().name("p").uid("p").pvc("missing").info();

    SchedulingCycle.Feasibility f =
        cycle.findNodesThatFit(fw, snapshot, pod, List.of(small, big), new LinkedHashMap<>());

    assertThat(f.nodes()).isEmpty();
    assertThat(f.failed()).isEmpty();
    assertThat(f.unresolvable())
        .containsOnlyKeys("small", "big")
        .containsValue("persistentvolumeclaim \"missing\" not found");
  }

  @Test
  void scoringWithoutAFilterCallRunsPreFilterAndAnswersItsRejectionWithNoScores() {
    PodInfo pod = MakePod.pod().name("p").uid("p").pvc("missing").info();

    ScoreResult r = cycle.prioritizeNodes(fw, snapshot, pod, List.of(small, big));

    assertThat(r.status().code()).isEqualTo(Code.UNSCHEDULABLE_AND_UNRESOLVABLE);
    assertThat(r.nodes()).isEmpty();
  }

  @Test
  void scoringAfterTheFilterCallOfTheSameCycleScoresTheFilteredNodes() {
    PodInfo pod = MakePod.pod().name("p").uid("p").req(Map.of("cpu", "500m")).info();
    cycle.findNodesThatFit(fw, snapshot, pod, List.of(small, big), new LinkedHashMap<>());

    ScoreResult r = cycle.prioritizeNodes(fw, snapshot, pod, List.of(small, big));

    assertThat(r.status().isSuccess()).isTrue();
    assertThat(r.nodes()).containsExactly(small, big);
    assertThat(r.totals()[1]).as("the emptier node scores higher").isGreaterThan(r.totals()[0]);
  }

  /**
   * A cache holding {@code small} (its pod q included) and {@code big}, and pod p assumed on small.
   */
  private static SchedulerCache cacheWithPAssumedOnSmall(PodInfo p) {
    SchedulerCache cache = new SchedulerCache(Clock.systemUTC(), Duration.ZERO);
    cache.addNode(MakeNode.node().name("small").capacity(Map.of("cpu", "2", "pods", "10")).obj());
    cache.addNode(MakeNode.node().name("big").capacity(Map.of("cpu", "4", "pods", "10")).obj());
    cache.addPod(MakePod.pod().name("q").uid("q").node("small").req(Map.of("cpu", "1")).info());
    cache.assumePod(p.assignedTo("small"));
    return cache;
  }

  @Test
  void aPodInDoubtIsOfferedTheNodeItMayBeOnAloneWithItsOwnRoom() {
    PodInfo p = MakePod.pod().name("p").uid("p").req(Map.of("cpu", "1")).info();
    SchedulerCache cache = cacheWithPAssumedOnSmall(p);
    PodsInDoubt inDoubt = new PodsInDoubt(cache);
    inDoubt.remember("p", "small");
    Snapshot now = cache.snapshot();

    SchedulingCycle.Feasibility f =
        new SchedulingCycle(inDoubt)
            .findNodesThatFit(
                fw, now, p, List.of(now.get("big"), now.get("small")), new LinkedHashMap<>());

    assertThat(f.nodes()).extracting(NodeInfo::name).containsExactly("small");
    assertThat(f.nodes().get(0).requested().milliCpu())
        .as("small without p's own assumed copy")
        .isEqualTo(1000);
    assertThat(f.at()[0]).as("small's place among the candidates").isEqualTo(1);
    assertThat(f.unresolvable())
        .isEqualTo(Map.of("big", PodsInDoubt.elsewhere("default/p", "small")));
    assertThat(f.failed()).isEmpty();
    assertThat(now.get("small").requested().milliCpu())
        .as("the snapshot itself is untouched")
        .isEqualTo(2000);
  }

  @Test
  void aPodInDoubtWhoseNodeIsNoCandidateGetsTheUsualCycle() {
    PodInfo p = MakePod.pod().name("p").uid("p").req(Map.of("cpu", "1")).info();
    SchedulerCache cache = cacheWithPAssumedOnSmall(p);
    PodsInDoubt inDoubt = new PodsInDoubt(cache);
    inDoubt.remember("p", "small");
    Snapshot now = cache.snapshot();

    SchedulingCycle.Feasibility f =
        new SchedulingCycle(inDoubt)
            .findNodesThatFit(fw, now, p, List.of(now.get("big")), new LinkedHashMap<>());

    assertThat(f.nodes()).extracting(NodeInfo::name).containsExactly("big");
    assertThat(f.unresolvable()).isEmpty();
  }

  @Test
  void aPodNoLongerAssumedIsNoLongerInDoubt() {
    PodInfo p = MakePod.pod().name("p").uid("p").req(Map.of("cpu", "1")).info();
    SchedulerCache cache = cacheWithPAssumedOnSmall(p);
    PodsInDoubt inDoubt = new PodsInDoubt(cache);
    inDoubt.remember("p", "small");
    cache.forgetPod(p.assignedTo("small"));

    assertThat(inDoubt.nodeOf("p")).isNull();
  }
}
