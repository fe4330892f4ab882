package io.schedext.plugins.interpodaffinity;

import static io.schedext.plugins.interpodaffinity.Fixtures.node;
import static io.schedext.plugins.interpodaffinity.Fixtures.pod;
import static io.schedext.plugins.interpodaffinity.Fixtures.req;
import static io.schedext.plugins.interpodaffinity.Fixtures.requiredAffinity;
import static io.schedext.plugins.interpodaffinity.Fixtures.requiredAntiAffinity;
import static io.schedext.plugins.interpodaffinity.Fixtures.selector;
import static io.schedext.plugins.interpodaffinity.Fixtures.term;
import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Affinity;
import io.fabric8.kubernetes.api.model.Node;
import io.schedext.cluster.ObjectStore;
import io.schedext.framework.CycleState;
import io.schedext.framework.NodeInfo;
import io.schedext.framework.PodInfo;
import io.schedext.framework.Status;
import io.schedext.testing.MakePod;
import io.schedext.testing.TestFrameworks;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Ports upstream's PreFilter state tests (AddPod/RemovePod, Clone, incoming counts) and checks that
 * the incremental extensions give the same Filter answers as a PreFilter recomputed over a snapshot
 * that really holds or lacks the pod.
 */
class PreFilterStateTest {

  private static final String KEY = InterPodAffinity.PRE_FILTER_STATE_KEY;
  private static final Map<String, String> FOO_BAR = Map.of("foo", "bar");
  private static final List<Node> NODES =
      List.of(
          node("nodeA", Map.of("region", "r1", "zone", "z11")),
          node("nodeB", Map.of("region", "r1", "zone", "z12")),
          node("nodeC", Map.of("region", "r2", "zone", "z21")));

  private static final Affinity ANTI_FOO_BAR =
      requiredAntiAffinity(term("region", selector(req("foo", "In", "bar"))));
  private static final Affinity ANTI_COMPLEX =
      requiredAntiAffinity(
          term("region", selector(req("foo", "In", "bar", "buzz"))),
          term("zone", selector(req("service", "NotIn", "bar", "security", "test"))));
  private static final Affinity AFFINITY_COMPLEX =
      requiredAffinity(
          term("region", selector(req("foo", "In", "bar", "buzz"))),
          term("zone", selector(req("service", "NotIn", "bar", "security", "test"))));

  record AddRemoveCase(
      String name,
      PodInfo pending,
      List<PodInfo> existing,
      PodInfo added,
      Map<String, Map<String, Long>> wantAntiAffinity,
      Map<String, Map<String, Long>> wantAffinity) {
    @Override
    public String toString() {
      return name;
    }
  }

  static Stream<AddRemoveCase> upstreamAddRemoveCases() {
    return Stream.of(
        new AddRemoveCase(
            "anti-affinity counts follow an added pod matching the pending pod's anti-affinity",
            pod("", FOO_BAR, ANTI_FOO_BAR),
            List.of(pod("nodeA", FOO_BAR, null), pod("nodeC", Map.of(), ANTI_FOO_BAR)),
            pod("nodeB", FOO_BAR, ANTI_FOO_BAR),
            Map.of("region", Map.of("r1", 2L)),
            Map.of()),
        new AddRemoveCase(
            "anti-affinity counts of several terms follow an added pod",
            pod("", FOO_BAR, ANTI_COMPLEX),
            List.of(pod("nodeA", FOO_BAR, null), pod("nodeC", Map.of(), ANTI_FOO_BAR)),
            pod("nodeA", FOO_BAR, ANTI_COMPLEX),
            Map.of("region", Map.of("r1", 2L), "zone", Map.of("z11", 2L, "z21", 1L)),
            Map.of()),
        new AddRemoveCase(
            "affinity counts follow an added pod matching all the pending pod's affinity terms",
            pod("", FOO_BAR, AFFINITY_COMPLEX),
            List.of(
                pod("nodeA", FOO_BAR, null),
                pod("nodeC", Map.of(), Fixtures.both(AFFINITY_COMPLEX, ANTI_FOO_BAR))),
            pod("nodeA", FOO_BAR, ANTI_COMPLEX),
            Map.of(),
            Map.of("region", Map.of("r1", 2L), "zone", Map.of("z11", 2L))));
  }

  private static ObjectStore store() {
    ObjectStore store = Fixtures.teamNamespaces();
    store.put(Fixtures.namespace("default", Map.of("team", "team1")));
    return store;
  }

  private static CycleState preFiltered(
      InterPodAffinity plugin, PodInfo pending, List<PodInfo> pods) {
    CycleState state = Fixtures.cycleState(pods, NODES);
    assertThat(plugin.preFilter(state, pending).status()).isEqualTo(Status.success());
    return state;
  }

  private static List<PodInfo> with(List<PodInfo> pods, PodInfo added) {
    List<PodInfo> all = new ArrayList<>(pods);
    all.add(added);
    return all;
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("upstreamAddRemoveCases")
  void addPodThenRemovePodUpdatesTheCounts(AddRemoveCase c) {
    InterPodAffinity plugin = Fixtures.plugin("{}", store());
    PreFilterState allPods =
        PreFilterState.read(preFiltered(plugin, c.pending(), with(c.existing(), c.added())), KEY);
    CycleState state = preFiltered(plugin, c.pending(), c.existing());
    PreFilterState s = PreFilterState.read(state, KEY);
    PreFilterState original = s.copy();
    NodeInfo node = state.snapshot().get(c.added().nodeName());

    assertThat(plugin.addPod(state, c.pending(), c.added(), node)).isEqualTo(Status.success());

    assertThat(s.antiAffinityCounts().asMap()).isEqualTo(c.wantAntiAffinity());
    assertThat(s.affinityCounts().asMap()).isEqualTo(c.wantAffinity());
    assertThat(counts(s)).isEqualTo(counts(allPods));

    assertThat(plugin.removePod(state, c.pending(), c.added(), node)).isEqualTo(Status.success());

    assertThat(counts(s)).isEqualTo(counts(original));
  }

  private static List<TopologyPairCounts> counts(PreFilterState s) {
    return List.of(s.existingAntiAffinityCounts(), s.affinityCounts(), s.antiAffinityCounts());
  }

  static Stream<AddRemoveCase> equivalenceCases() {
    Affinity antiAnyFoo = requiredAntiAffinity(term("region", selector(req("foo", "Exists"))));
    Affinity antiNone = requiredAntiAffinity(term("zone", selector(req("never", "Exists"))));
    Affinity zoneAffinity = requiredAffinity(term("zone", selector(req("app", "In", "web"))));
    Affinity antiTeam1 =
        requiredAntiAffinity(
            term(
                "zone",
                selector(req("app", "In", "db")),
                null,
                selector(req("team", "In", "team1"))));
    return Stream.concat(
        upstreamAddRemoveCases(),
        Stream.of(
            new AddRemoveCase(
                "an added pod whose anti-affinity matches the pending pod closes its region",
                pod("", FOO_BAR, antiNone),
                List.of(pod("nodeC", Map.of(), null)),
                pod("nodeB", Map.of(), antiAnyFoo),
                null,
                null),
            new AddRemoveCase(
                "an added pod matching the pending pod's affinity ends the first-of-a-group exception",
                pod("", Map.of("app", "web"), zoneAffinity),
                List.of(pod("nodeC", Map.of(), null)),
                pod("nodeA", Map.of("app", "web"), null),
                null,
                null),
            new AddRemoveCase(
                "an added pod matching the pending pod's affinity joins earlier matches",
                pod("", Map.of(), zoneAffinity),
                List.of(pod("nodeC", Map.of("app", "web"), null)),
                pod("nodeA", Map.of("app", "web"), null),
                null,
                null),
            new AddRemoveCase(
                "an added pod matching the pending pod's anti-affinity closes its region",
                pod("", Map.of(), antiAnyFoo),
                List.of(pod("nodeC", Map.of("foo", "x"), null)),
                pod("nodeA", Map.of("foo", "y"), null),
                null,
                null),
            new AddRemoveCase(
                "an added pod in a namespace selected by the pending pod's anti-affinity closes its zone",
                pod("", Map.of(), antiTeam1),
                List.of(pod("nodeC", Map.of("app", "db"), null)),
                pod("subteam2.team1", "nodeA", Map.of("app", "db"), null),
                null,
                null),
            new AddRemoveCase(
                "an added pod whose anti-affinity selects the pending pod's namespace by label closes its zone",
                pod("", Map.of("app", "db"), antiNone),
                List.of(pod("nodeC", Map.of(), null)),
                pod("subteam1.team2", "nodeB", Map.of(), antiTeam1),
                null,
                null)));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("equivalenceCases")
  void addPodAndRemovePodFilterLikeARecomputedPreFilter(AddRemoveCase c) {
    InterPodAffinity plugin = Fixtures.plugin("{}", store());
    CycleState without = preFiltered(plugin, c.pending(), c.existing());
    CycleState withPod = preFiltered(plugin, c.pending(), with(c.existing(), c.added()));
    List<Status> filterWithout = filterAll(plugin, without, c.pending());
    List<Status> filterWith = filterAll(plugin, withPod, c.pending());

    CycleState added = without.copy();
    plugin.addPod(added, c.pending(), c.added(), without.snapshot().get(c.added().nodeName()));
    CycleState removed = withPod.copy();
    plugin.removePod(removed, c.pending(), c.added(), withPod.snapshot().get(c.added().nodeName()));

    assertThat(filterAll(plugin, added, c.pending())).isEqualTo(filterWith);
    assertThat(filterAll(plugin, removed, c.pending())).isEqualTo(filterWithout);
    assertThat(counts(PreFilterState.read(added, KEY)))
        .isEqualTo(counts(PreFilterState.read(withPod, KEY)));
    assertThat(counts(PreFilterState.read(removed, KEY)))
        .isEqualTo(counts(PreFilterState.read(without, KEY)));
    // The simulations worked on copies: the originals still answer as before.
    assertThat(filterAll(plugin, without, c.pending())).isEqualTo(filterWithout);
    assertThat(filterAll(plugin, withPod, c.pending())).isEqualTo(filterWith);
  }

  @Test
  void theEquivalenceCasesReallyChangeTheFilterAnswer() {
    InterPodAffinity plugin = Fixtures.plugin("{}", store());
    equivalenceCases()
        .skip(3)
        .forEach(
            c -> {
              List<Status> without =
                  filterAll(plugin, preFiltered(plugin, c.pending(), c.existing()), c.pending());
              List<Status> withPod =
                  filterAll(
                      plugin,
                      preFiltered(plugin, c.pending(), with(c.existing(), c.added())),
                      c.pending());
              assertThat(withPod).as(c.name()).isNotEqualTo(without);
            });
  }

  private static List<Status> filterAll(InterPodAffinity plugin, CycleState state, PodInfo pod) {
    return state.snapshot().list().stream().map(n -> plugin.filter(state, pod, n)).toList();
  }

  @Test
  void copyIsADeepCopyOfTheCounts() {
    TopologyPairCounts existing = new TopologyPairCounts();
    existing.add("name", "node1", 1);
    existing.add("name", "node2", 1);
    TopologyPairCounts affinity = new TopologyPairCounts();
    affinity.add("name", "nodeA", 1);
    affinity.add("name", "nodeC", 2);
    TopologyPairCounts anti = new TopologyPairCounts();
    anti.add("name", "nodeN", 3);
    anti.add("name", "nodeM", 1);
    PreFilterState source =
        new PreFilterState(
            existing,
            affinity,
            anti,
            MakePod.pod().name("p").info(),
            List.of(),
            List.of(),
            Map.of());

    PreFilterState copy = source.copy();

    assertThat(copy).isNotSameAs(source);
    assertThat(counts(copy)).isEqualTo(counts(source));
    copy.existingAntiAffinityCounts().add("name", "node1", -1);
    copy.affinityCounts().add("name", "nodeZ", 1);
    copy.antiAffinityCounts().add("name", "nodeN", 1);
    assertThat(source.existingAntiAffinityCounts().asMap())
        .isEqualTo(Map.of("name", Map.of("node1", 1L, "node2", 1L)));
    assertThat(source.affinityCounts().asMap())
        .isEqualTo(Map.of("name", Map.of("nodeA", 1L, "nodeC", 2L)));
    assertThat(source.antiAffinityCounts().asMap())
        .isEqualTo(Map.of("name", Map.of("nodeN", 3L, "nodeM", 1L)));
  }

  @Test
  void aCountDroppingToZeroDisappears() {
    TopologyPairCounts c = new TopologyPairCounts();
    c.add("zone", "z1", 1);
    c.add("zone", "z1", -1);

    assertThat(c.isEmpty()).isTrue();
    assertThat(c.get("zone", "z1")).isZero();
  }

  record IncomingCase(
      String name,
      List<PodInfo> existing,
      PodInfo pod,
      Map<String, Map<String, Long>> wantAffinity,
      Map<String, Map<String, Long>> wantAntiAffinity) {
    @Override
    public String toString() {
      return name;
    }
  }

  static Stream<IncomingCase> incomingCases() {
    PodInfo a = MakePod.pod().name("a").node("nodeA").label("aaa", "").info();
    PodInfo b = MakePod.pod().name("b").node("nodeA").label("bbb", "").info();
    PodInfo ab = MakePod.pod().name("ab").node("nodeA").label("aaa", "").label("bbb", "").info();
    Map<String, Map<String, Long>> one = Map.of("hostname", Map.of("nodeA", 1L));
    return Stream.of(
        new IncomingCase(
            "no existing pods count nothing",
            List.of(),
            MakePod.pod().name("x").info(),
            Map.of(),
            Map.of()),
        new IncomingCase(
            "an incoming pod without affinity counts nothing",
            List.of(a),
            MakePod.pod().name("x").info(),
            Map.of(),
            Map.of()),
        new IncomingCase(
            "no existing pod has the label of the incoming pod's terms",
            List.of(b),
            MakePod.pod()
                .name("x")
                .podAffinityExists("hostname", "aaa")
                .podAntiAffinityExists("hostname", "aaa")
                .info(),
            Map.of(),
            Map.of()),
        new IncomingCase(
            "an existing pod matching one affinity and one anti-affinity term counts once each",
            List.of(a),
            MakePod.pod()
                .name("x")
                .podAffinityExists("hostname", "aaa")
                .podAntiAffinityExists("hostname", "aaa")
                .info(),
            one,
            one),
        new IncomingCase(
            "an existing pod matching all affinity terms counts once per term",
            List.of(ab),
            MakePod.pod()
                .name("x")
                .podAffinityExists("hostname", "aaa")
                .podAffinityExists("hostname", "bbb")
                .podAntiAffinityExists("hostname", "aaa")
                .info(),
            Map.of("hostname", Map.of("nodeA", 2L)),
            one),
        new IncomingCase(
            "an existing pod matching only some affinity terms counts only for anti-affinity",
            List.of(a),
            MakePod.pod()
                .name("x")
                .podAffinityExists("hostname", "aaa")
                .podAffinityExists("hostname", "bbb")
                .podAntiAffinityExists("hostname", "aaa")
                .podAntiAffinityExists("hostname", "bbb")
                .info(),
            Map.of(),
            one),
        new IncomingCase(
            "an existing pod violating one of two anti-affinity terms counts once (case 1)",
            List.of(ab),
            MakePod.pod()
                .name("x")
                .podAffinityExists("hostname", "aaa")
                .podAffinityExists("hostname", "ccc")
                .podAntiAffinityExists("hostname", "aaa")
                .podAntiAffinityExists("hostname", "ccc")
                .info(),
            Map.of(),
            one),
        new IncomingCase(
            "an existing pod violating one of two anti-affinity terms counts once (case 2)",
            List.of(b),
            MakePod.pod()
                .name("x")
                .podAffinityExists("hostname", "aaa")
                .podAffinityExists("hostname", "bbb")
                .podAntiAffinityExists("hostname", "aaa")
                .podAntiAffinityExists("hostname", "bbb")
                .info(),
            Map.of(),
            one));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("incomingCases")
  void incomingCounts(IncomingCase c) {
    List<NodeInfo> nodes =
        Fixtures.nodeInfos(c.existing(), List.of(node("nodeA", Map.of("hostname", "nodeA"))));

    TopologyPairCounts[] got =
        PreFilterState.incomingCounts(
            c.pod().requiredAffinityTerms(),
            c.pod().requiredAntiAffinityTerms(),
            nodes,
            TestFrameworks.handle(new ObjectStore()).parallelizer(),
            new io.schedext.framework.RunningTotals<>(1));

    assertThat(List.of(got[0].asMap(), got[1].asMap()))
        .isEqualTo(List.of(c.wantAffinity(), c.wantAntiAffinity()));
  }
}
