package io.schedext.plugins.selectorspread;

import static io.schedext.plugins.selectorspread.Fixtures.nodes;
import static io.schedext.plugins.selectorspread.Fixtures.ownedBy;
import static io.schedext.plugins.selectorspread.Fixtures.pod;
import static io.schedext.plugins.selectorspread.Fixtures.rc;
import static io.schedext.plugins.selectorspread.Fixtures.service;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.schedext.framework.CycleState;
import io.schedext.framework.FrameworkException;
import io.schedext.framework.NodeInfo;
import io.schedext.framework.PodInfo;
import io.schedext.framework.Registry;
import io.schedext.framework.ScoreResult;
import io.schedext.framework.Status;
import io.schedext.framework.runtime.Framework;
import io.schedext.plugins.Names;
import io.schedext.testing.MakePod;
import io.schedext.testing.TestFrameworks;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** v1.22's zone spreading table and the zone key, in our words. */
class SelectorSpreadZoneTest {

  static final Map<String, String> LABELS1 = Map.of("label1", "l1", "baz", "blah");
  static final Map<String, String> LABELS2 = Map.of("label2", "l2", "baz", "blah");
  static final String NS = "default";
  static final String ZONE = "topology.kubernetes.io/zone";
  static final String BETA_ZONE = "failure-domain.beta.kubernetes.io/zone";
  static final String REGION = "topology.kubernetes.io/region";
  static final String BETA_REGION = "failure-domain.beta.kubernetes.io/region";

  static final String M1Z1 = "node1.zone1";
  static final String M1Z2 = "node1.zone2";
  static final String M2Z2 = "node2.zone2";
  static final String M1Z3 = "node1.zone3";
  static final String M2Z3 = "node2.zone3";
  static final String M3Z3 = "node3.zone3";

  static Map<String, Map<String, String>> zonedNodes() {
    Map<String, Map<String, String>> m = new LinkedHashMap<>();
    m.put(M1Z1, Map.of(ZONE, "zone1"));
    m.put(M1Z2, Map.of(ZONE, "zone2"));
    m.put(M2Z2, Map.of(ZONE, "zone2"));
    m.put(M1Z3, Map.of(ZONE, "zone3"));
    m.put(M2Z3, Map.of(ZONE, "zone3"));
    m.put(M3Z3, Map.of(ZONE, "zone3"));
    return m;
  }

  record Case(
      String name,
      PodInfo pod,
      List<PodInfo> pods,
      List<HasMetadata> objects,
      Map<String, Map<String, String>> nodes,
      Map<String, Long> want) {
    @Override
    public String toString() {
      return name;
    }
  }

  static Map<String, Long> want(long m1z1, long m1z2, long m2z2, long m1z3, long m2z3, long m3z3) {
    return Map.of(M1Z1, m1z1, M1Z2, m1z2, M2Z2, m2z2, M1Z3, m1z3, M2Z3, m2z3, M3Z3, m3z3);
  }

  static PodInfo on(String node, Map<String, String> labels) {
    return pod(NS, node, labels).info();
  }

  static Stream<Case> cases() {
    PodInfo pending = pod(NS, "", LABELS1).info();
    List<HasMetadata> svc = List.of(service(NS, "s1", LABELS1));
    Map<String, Map<String, String>> zoned = zonedNodes();
    Map<String, Map<String, String>> mixed = new LinkedHashMap<>();
    mixed.put("a", Map.of(ZONE, "z1"));
    mixed.put("b", Map.of(ZONE, "z2"));
    mixed.put("c", Map.of());
    Map<String, Map<String, String>> regions = new LinkedHashMap<>();
    regions.put("x", Map.of(REGION, "r1"));
    regions.put("y", Map.of(REGION, "r1"));
    regions.put("z", Map.of());
    Map<String, Map<String, String>> betaFirst = new LinkedHashMap<>();
    betaFirst.put("p", Map.of(BETA_ZONE, "a", ZONE, "b"));
    betaFirst.put("q", Map.of(ZONE, "a"));
    betaFirst.put("r", Map.of(BETA_ZONE, "b"));
    return Stream.of(
        new Case(
            "with nothing scheduled every node scores 100",
            MakePod.pod().name("pending").info(),
            List.of(),
            List.of(),
            zoned,
            want(100, 100, 100, 100, 100, 100)),
        new Case(
            "without services nothing is spread",
            pending,
            List.of(on(M1Z1, Map.of())),
            List.of(),
            zoned,
            want(100, 100, 100, 100, 100, 100)),
        new Case(
            "a service of other pods spreads nothing",
            pending,
            List.of(on(M1Z1, LABELS2)),
            List.of(service(NS, "s1", Map.of("key", "value"))),
            zoned,
            want(100, 100, 100, 100, 100, 100)),
        new Case(
            "two pods, none matching, spread nothing",
            pending,
            List.of(on(M1Z1, LABELS2), on(M1Z2, LABELS2)),
            svc,
            zoned,
            want(100, 100, 100, 100, 100, 100)),
        new Case(
            "one matching pod in zone2 lowers its node most and its zone partly",
            pending,
            List.of(on(M1Z1, LABELS2), on(M1Z2, LABELS1)),
            svc,
            zoned,
            want(100, 0, 33, 100, 100, 100)),
        new Case(
            "three matching pods (two in zone2, one in zone3)",
            pending,
            List.of(
                on(M1Z1, LABELS2),
                on(M1Z2, LABELS1),
                on(M2Z2, LABELS1),
                on(M1Z3, LABELS2),
                on(M2Z3, LABELS1)),
            svc,
            zoned,
            want(100, 0, 0, 66, 33, 66)),
        new Case(
            "one matching pod in each zone",
            pending,
            List.of(on(M1Z1, LABELS1), on(M1Z2, LABELS1), on(M2Z2, LABELS2), on(M1Z3, LABELS1)),
            svc,
            zoned,
            want(0, 0, 33, 0, 33, 33)),
        new Case(
            "four matching pods (one, two and one per zone)",
            pending,
            List.of(
                on(M1Z1, LABELS1),
                on(M1Z2, LABELS1),
                on(M2Z2, LABELS1),
                on(M2Z2, LABELS2),
                on(M1Z3, LABELS1)),
            svc,
            zoned,
            want(33, 0, 0, 33, 66, 66)),
        new Case(
            "a replication controller's pods are spread over zones (two on one node in zone3)",
            ownedBy(pod(NS, "", LABELS1), "ReplicationController", "rc1"),
            List.of(on(M1Z3, LABELS1), on(M1Z2, LABELS1), on(M1Z3, LABELS1)),
            List.of(rc(NS, "rc1", LABELS1)),
            zoned,
            want(100, 50, 66, 0, 33, 33)),
        new Case(
            "a node without a zone gets the node score only, zoned nodes the blend",
            pending,
            List.of(on("a", LABELS1), on("c", LABELS1), on("c", LABELS1)),
            svc,
            mixed,
            Map.of("a", 16L, "b", 100L, "c", 0L)),
        new Case(
            "a region without a zone is a zone of its own",
            pending,
            List.of(on("x", LABELS1)),
            svc,
            regions,
            Map.of("x", 0L, "y", 33L, "z", 100L)),
        new Case(
            "the beta zone label wins over the GA one",
            pending,
            List.of(on("q", LABELS1)),
            svc,
            betaFirst,
            Map.of("p", 33L, "q", 0L, "r", 100L)));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void score(Case c) {
    assertThat(SelectorSpreadTest.run(c.pod(), nodes(c.nodes(), c.pods()), c.objects()))
        .isEqualTo(c.want());
  }

  record ZoneKeyCase(String name, Map<String, String> labels, String want) {
    @Override
    public String toString() {
      return name;
    }
  }

  static Stream<ZoneKeyCase> zoneKeyCases() {
    return Stream.of(
        new ZoneKeyCase("no labels give no zone", Map.of(), ""),
        new ZoneKeyCase("the GA zone alone", Map.of(ZONE, "z"), ":\0:z"),
        new ZoneKeyCase("the beta zone alone", Map.of(BETA_ZONE, "z"), ":\0:z"),
        new ZoneKeyCase(
            "the beta zone wins over the GA zone",
            Map.of(BETA_ZONE, "beta", ZONE, "ga"),
            ":\0:beta"),
        new ZoneKeyCase(
            "an empty beta zone still hides the GA zone", Map.of(BETA_ZONE, "", ZONE, "ga"), ""),
        new ZoneKeyCase("region and zone are joined", Map.of(REGION, "r", ZONE, "z"), "r:\0:z"),
        new ZoneKeyCase(
            "the beta region wins over the GA region",
            Map.of(BETA_REGION, "rb", REGION, "r"),
            "rb:\0:"),
        new ZoneKeyCase("other labels are ignored", Map.of("zone", "z"), ""));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("zoneKeyCases")
  void zoneKey(ZoneKeyCase c) {
    assertThat(SelectorSpread.zoneKey(c.labels())).isEqualTo(c.want());
  }

  @Test
  void scoreWithoutPreScoreIsAnError() {
    List<NodeInfo> nodes = nodes(zonedNodes(), List.of());
    SelectorSpread p =
        SelectorSpread.create(null, TestFrameworks.handle(Fixtures.store(List.of())));
    CycleState state = TestFrameworks.cycleState(nodes);
    assertThatThrownBy(() -> p.score(state, pod(NS, "", LABELS1).info(), nodes.get(0)))
        .isInstanceOf(FrameworkException.class)
        .hasMessage("reading \"PreScoreSelectorSpread\" from cycleState: not found");
  }

  @Test
  void throughTheFrameworkAPodWithSpreadConstraintsScoresZeroAndOthersAreSpread() {
    Registry registry = new Registry().register(Names.SELECTOR_SPREAD, SelectorSpread::create);
    Framework fw =
        TestFrameworks.framework(
            registry,
            Fixtures.store(List.of(service(NS, "s1", LABELS1))),
            List.of(Names.SELECTOR_SPREAD),
            Map.of());
    List<NodeInfo> nodes = nodes(zonedNodes(), List.of(on(M1Z2, LABELS1)));

    PodInfo constrained =
        pod(NS, "", LABELS1).spreadConstraint(SelectorSpreadTest.constraint()).info();
    CycleState zeroed = TestFrameworks.cycleState(nodes);
    assertThat(fw.runPreScorePlugins(zeroed, constrained, nodes)).isEqualTo(Status.success());
    ScoreResult zeros = fw.runScorePlugins(zeroed, constrained, nodes);
    // v1.22 does not skip the plugin: it runs and gives every node 0.
    assertThat(zeros.plugins()).containsExactly(Names.SELECTOR_SPREAD);
    assertThat(zeros.totals()).containsExactly(0, 0, 0, 0, 0, 0);

    PodInfo plain = pod(NS, "", LABELS1).info();
    CycleState state = TestFrameworks.cycleState(nodes);
    assertThat(fw.runPreScorePlugins(state, plain, nodes)).isEqualTo(Status.success());
    ScoreResult scored = fw.runScorePlugins(state, plain, nodes);
    assertThat(scored.plugins()).containsExactly(Names.SELECTOR_SPREAD);
    assertThat(scored.totals()).containsExactly(100, 0, 33, 100, 100, 100);
  }
}
