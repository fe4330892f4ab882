package io.schedext.cache;

import static org.assertj.core.api.Assertions.assertThat;

import io.schedext.cluster.ObjectStore;
import io.schedext.framework.Code;
import io.schedext.framework.CycleState;
import io.schedext.framework.NodeInfo;
import io.schedext.framework.PodInfo;
import io.schedext.framework.PodNominator;
import io.schedext.framework.PreFilterResult;
import io.schedext.framework.runtime.Framework;
import io.schedext.framework.runtime.FrameworkServices;
import io.schedext.plugins.Names;
import io.schedext.plugins.defaultpreemption.ProposalReview;
import io.schedext.profiles.InTreeRegistry;
import io.schedext.testing.MakeNode;
import io.schedext.testing.MakePod;
import io.schedext.testing.MutableClock;
import io.schedext.testing.TestFrameworks;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The victims the preempt verb agreed to count as gone when their preemptor is filtered on the node
 * it is nominated to, and only then: as kube-scheduler's cache, which has lost them by the time it
 * retries the preemptor there.
 */
class VictimsInFlightTest {

  private final MutableClock clock = new MutableClock(Instant.parse("2026-01-01T00:00:00Z"));
  private final VictimsInFlight victims = new VictimsInFlight(clock, Duration.ofSeconds(30));

  /** A 4-CPU node full with four 1-CPU pods of low priority, {@code name}-0 .. {@code name}-3. */
  private static NodeInfo fullNode(String name) {
    PodInfo[] pods =
        IntStream.range(0, 4)
            .mapToObj(
                i ->
                    MakePod.pod()
                        .name(name + "-" + i)
                        .uid(name + "-" + i)
                        .node(name)
                        .priority(10)
                        .req(Map.of("cpu", "1"))
                        .info())
            .toArray(PodInfo[]::new);
    return MakeNode.node().name(name).capacity(Map.of("cpu", "4", "pods", "110")).info(pods);
  }

  private static PodInfo preemptor(String nominatedTo) {
    var p = MakePod.pod().name("vip").uid("vip").priority(1000).req(Map.of("cpu", "2"));
    return (nominatedTo == null ? p : p.nominatedNodeName(nominatedTo)).info();
  }

  /**
   * The Filter verdict of a scheduling cycle of NodeResourcesFit for {@code pod} on the first of
   * {@code candidates} (the nodes of the call), nominations on.
   */
  private Code filter(PodInfo pod, NodeInfo... candidates) {
    return verdicts(pod, candidates).get(0);
  }

  /** The verdicts of a scheduling cycle's Filter for {@code pod} over {@code candidates}. */
  private List<Code> verdicts(PodInfo pod, NodeInfo... candidates) {
    Framework fw = framework();
    List<NodeInfo> all = List.of(candidates);
    CycleState state = TestFrameworks.cycleState(all);
    PreFilterResult pre = fw.runPreFilterPlugins(state, pod);
    assertThat(pre.status().isSuccess()).isTrue();
    return java.util.Arrays.stream(fw.runFilterPluginsOnNodes(state, pod, all))
        .map(st -> st.code())
        .toList();
  }

  /** NodeResourcesFit's framework, its nominator knowing the victims agreed. */
  private Framework framework() {
    FrameworkServices base = TestFrameworks.services(new ObjectStore());
    FrameworkServices services =
        new FrameworkServices(
            base.clusterObjects(),
            base.binder(),
            base.parallelizer(),
            victims.over(PodNominator.NONE),
            clock,
            base.timers(),
            base.waitingPods(),
            base.metrics());
    return TestFrameworks.framework(
        InTreeRegistry.create(), services, List.of(Names.NODE_RESOURCES_FIT), Map.of());
  }

  @Test
  void theNominatedNodeFitsWithoutTheVictimsAgreedForIt() {
    victims.agreed("vip", Map.of("n0", List.of("n0-0", "n0-1"), "n1", List.of("n1-0", "n1-1")));

    assertThat(filter(preemptor("n0"), fullNode("n0"), fullNode("n1"))).isEqualTo(Code.SUCCESS);
    assertThat(filter(preemptor("n0"), fullNode("n1"), fullNode("n0")))
        .as("another node answered in the same preempt call: its victims stay")
        .isEqualTo(Code.UNSCHEDULABLE);
  }

  @Test
  void withoutANominationTheOneCandidateWithAgreedVictimsIsTakenAsKubeSchedulersPick() {
    // kube-scheduler's own filters passed only the node whose victims it deleted: the others still
    // hold theirs in its cache.
    victims.agreed("vip", Map.of("n0", List.of("n0-0", "n0-1"), "n1", List.of("n1-0", "n1-1")));

    assertThat(verdicts(preemptor(null), fullNode("n0"), fullNode("n2")))
        .containsExactly(Code.SUCCESS, Code.UNSCHEDULABLE);
  }

  @Test
  void withoutANominationTwoCandidatesWithAgreedVictimsLeaveNothingOut() {
    victims.agreed("vip", Map.of("n0", List.of("n0-0", "n0-1"), "n1", List.of("n1-0", "n1-1")));

    assertThat(verdicts(preemptor(null), fullNode("n0"), fullNode("n1")))
        .containsExactly(Code.UNSCHEDULABLE, Code.UNSCHEDULABLE);
  }

  @Test
  void anotherPodNominatedThereGetsNothingLeftOut() {
    victims.agreed("other", Map.of("n0", List.of("n0-0", "n0-1")));

    assertThat(filter(preemptor("n0"), fullNode("n0"))).isEqualTo(Code.UNSCHEDULABLE);
  }

  @Test
  void tooFewVictimsLeavingStillDoNotMakeRoom() {
    victims.agreed("vip", Map.of("n0", List.of("n0-0")));

    assertThat(filter(preemptor("n0"), fullNode("n0"))).isEqualTo(Code.UNSCHEDULABLE);
  }

  @ParameterizedTest(name = "grace period {0}: {1}")
  @CsvSource({"30, UNSCHEDULABLE", "0, SUCCESS"})
  void aVictimTerminatingGracefullyHoldsItsPlaceOneDeletedAtOnceDoesNot(long grace, Code want) {
    victims.agreed("vip", Map.of("n0", List.of("n0-0", "n0-1")));
    NodeInfo n0 = fullNode("n0");
    NodeInfo withTerminating =
        MakeNode.node()
            .name("n0")
            .capacity(Map.of("cpu", "4", "pods", "110"))
            .info(
                n0.pods().get(0),
                MakePod.pod()
                    .name("n0-1")
                    .uid("n0-1")
                    .node("n0")
                    .priority(10)
                    .req(Map.of("cpu", "1"))
                    .terminating(grace)
                    .info(),
                n0.pods().get(2),
                n0.pods().get(3));

    assertThat(filter(preemptor("n0"), withTerminating)).isEqualTo(want);
  }

  @Test
  void aSecondPreemptionOnTheSameNodeAddsToTheFirst() {
    // kube-scheduler preempts again before the last victim is gone from its own cache, proposing
    // only that one: the first victim, gone from kube-scheduler's cache but not from this one's,
    // still leaves.
    victims.agreed("vip", Map.of("n0", List.of("n0-0", "n0-1")));
    victims.agreed("vip", Map.of("n0", List.of("n0-1"), "n1", List.of("n1-0", "n1-1")));

    assertThat(victims.on("vip", "n0")).containsExactlyInAnyOrder("n0-0", "n0-1");
    assertThat(filter(preemptor("n0"), fullNode("n0"))).isEqualTo(Code.SUCCESS);
  }

  @Test
  void anAgreementLastsItsTtlFromTheLastPreemptCall() {
    victims.agreed("vip", Map.of("n0", List.of("n0-0", "n0-1")));
    clock.advance(Duration.ofSeconds(20));
    victims.agreed("vip", Map.of("n1", List.of("n1-0", "n1-1")));
    clock.advance(Duration.ofSeconds(29));

    assertThat(victims.on("vip", "n0")).hasSize(2);

    clock.advance(Duration.ofSeconds(1));

    assertThat(victims.on("vip", "n0")).isEmpty();
    assertThat(filter(preemptor("n0"), fullNode("n0"))).isEqualTo(Code.UNSCHEDULABLE);
    assertThat(victims.size()).isZero();
  }

  @Test
  void aZeroTtlRemembersNothing() {
    VictimsInFlight off = new VictimsInFlight(clock, Duration.ZERO);
    off.agreed("vip", Map.of("n0", List.of("n0-0")));

    assertThat(off.on("vip", "n0")).isEmpty();
    assertThat(off.size()).isZero();
  }

  @Test
  void pastItsLimitTheOldestAgreementsGoFirst() {
    for (int i = 0; i <= VictimsInFlight.MAX_PREEMPTORS; i++) {
      victims.agreed("p" + i, Map.of("n0", List.of("v" + i)));
      clock.advance(Duration.ofMillis(1));
    }

    assertThat(victims.size()).isEqualTo(VictimsInFlight.MAX_PREEMPTORS);
    assertThat(victims.on("p0", "n0")).isEmpty();
    assertThat(victims.on("p" + VictimsInFlight.MAX_PREEMPTORS, "n0"))
        .isEqualTo(Set.of("v" + VictimsInFlight.MAX_PREEMPTORS));
  }

  @Test
  void aProposedVictimThisCacheHasLostButAgreedEarlierIsNamedAgain() {
    // kube-scheduler preempts again before its cache has lost n0-1, which this one already has:
    // the node needs nothing more, and naming n0-1 again costs nothing.
    victims.agreed("vip", Map.of("n0", List.of("n0-0", "n0-1")));
    NodeInfo n0 = fullNode("n0");
    NodeInfo emptied =
        MakeNode.node()
            .name("n0")
            .capacity(Map.of("cpu", "4", "pods", "110"))
            .info(n0.pods().get(2), n0.pods().get(3));

    Map<String, ProposalReview.Needed> answer =
        ProposalReview.review(
            framework(),
            Snapshot.of(List.of(emptied, fullNode("n1"))),
            preemptor(null),
            Map.of("n0", Set.of("n0-1"), "n1", Set.of("n1-0", "n1-1")));

    assertThat(answer).containsOnlyKeys("n0");
    assertThat(answer.get("n0").uids()).containsExactly("n0-1");
  }
}
