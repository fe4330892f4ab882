package io.schedext.plugins.defaultpreemption;

import static io.schedext.plugins.defaultpreemption.Fixtures.HIGH;
import static io.schedext.plugins.defaultpreemption.Fixtures.LOW;
import static io.schedext.plugins.defaultpreemption.Fixtures.node;
import static io.schedext.plugins.defaultpreemption.Fixtures.pod;
import static io.schedext.plugins.defaultpreemption.Fixtures.preemptedByScheduler;
import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Pod;
import io.schedext.cache.Snapshot;
import io.schedext.cluster.ObjectStore;
import io.schedext.framework.PodNominator;
import io.schedext.framework.Status;
import io.schedext.framework.runtime.Framework;
import io.schedext.testing.PodWrapper;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Whether a pod may preempt at all (upstream's TestPodEligibleToPreemptOthers); null means it may.
 */
class EligibilityTest {

  record Case(
      String name, PodWrapper pod, List<Pod> pods, Map<String, Status> statuses, String want) {
    @Override
    public String toString() {
      return name;
    }
  }

  static Stream<Case> cases() {
    PodWrapper nominated = pod("p", HIGH).nominatedNodeName("node1");
    return Stream.of(
        new Case(
            "a nominated node its filters found unresolvable is no reason to wait for its terminating pods",
            nominated,
            List.of(preemptedByScheduler(pod("p1", LOW).node("node1")).obj()),
            Map.of("node1", Status.unresolvable("node(s) had untolerated taint {k: v}")),
            null),
        new Case(
            "a pod without a nominated node may preempt",
            pod("p", HIGH),
            List.of(),
            Map.of(),
            null),
        new Case(
            "preemptionPolicy Never forbids preemption",
            pod("p", HIGH).preemptionPolicy("Never"),
            List.of(),
            Map.of(),
            DefaultPreemption.NEVER),
        new Case(
            "a lower-priority pod still being evicted by preemption on the nominated node makes the pod wait",
            pod("p", HIGH).nominatedNodeName("node1"),
            List.of(preemptedByScheduler(pod("p1", LOW).node("node1")).obj()),
            Map.of("node1", Status.unschedulable()),
            DefaultPreemption.TERMINATING),
        new Case(
            "a terminating pod without the scheduler's DisruptionTarget condition is not a preemption victim",
            pod("p", HIGH).nominatedNodeName("node1"),
            List.of(pod("p1", LOW).node("node1").terminating().obj()),
            Map.of("node1", Status.unschedulable()),
            null),
        new Case(
            "a terminating victim of equal priority does not count",
            pod("p", HIGH).nominatedNodeName("node1"),
            List.of(preemptedByScheduler(pod("p1", HIGH).node("node1")).obj()),
            Map.of("node1", Status.unschedulable()),
            null),
        new Case(
            "a nominated node missing from the statuses counts as unresolvable, so the pod may preempt again",
            pod("p", HIGH).nominatedNodeName("node1"),
            List.of(preemptedByScheduler(pod("p1", LOW).node("node1")).obj()),
            Map.of(),
            null));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void eligibility(Case c) {
    Framework fw =
        Fixtures.framework(
            new ObjectStore(),
            PodNominator.NONE,
            n -> 0,
            null,
            List.of(DefaultPreemption.NAME),
            null);
    DefaultPreemption plugin = (DefaultPreemption) fw.plugins().get(DefaultPreemption.NAME);
    var state =
        fw.newCycleState(
            Snapshot.of(Fixtures.nodeInfos(List.of(node("node1", Map.of()).obj()), c.pods())));

    assertThat(plugin.podEligibleToPreemptOthers(state, c.pod().info(), c.statuses()))
        .isEqualTo(c.want());
  }
}
