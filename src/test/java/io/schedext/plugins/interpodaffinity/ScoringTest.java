package io.schedext.plugins.interpodaffinity;

import static io.schedext.plugins.interpodaffinity.Fixtures.both;
import static io.schedext.plugins.interpodaffinity.Fixtures.node;
import static io.schedext.plugins.interpodaffinity.Fixtures.pod;
import static io.schedext.plugins.interpodaffinity.Fixtures.preferredAffinity;
import static io.schedext.plugins.interpodaffinity.Fixtures.preferredAntiAffinity;
import static io.schedext.plugins.interpodaffinity.Fixtures.req;
import static io.schedext.plugins.interpodaffinity.Fixtures.requiredAffinity;
import static io.schedext.plugins.interpodaffinity.Fixtures.selector;
import static io.schedext.plugins.interpodaffinity.Fixtures.term;
import static io.schedext.plugins.interpodaffinity.Fixtures.weighted;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.api.model.Affinity;
import io.fabric8.kubernetes.api.model.Node;
import io.schedext.cluster.ObjectStore;
import io.schedext.framework.CycleState;
import io.schedext.framework.FrameworkException;
import io.schedext.framework.NodeInfo;
import io.schedext.framework.NodeScores;
import io.schedext.framework.PodInfo;
import io.schedext.framework.Status;
import io.schedext.testing.MakeNode;
import io.schedext.testing.MakePod;
import io.schedext.testing.TestFrameworks;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Ports upstream's scoring_test.go: PreScore status, then Score and NormalizeScore over every node.
 */
class ScoringTest {

  private static final String NAME = InterPodAffinity.NAME;
  private static final Map<String, String> CHINA = Map.of("region", "China");
  private static final Map<String, String> INDIA = Map.of("region", "India");
  private static final Map<String, String> AZ1 = Map.of("az", "az1");
  private static final Map<String, String> AZ2 = Map.of("az", "az2");
  private static final Map<String, String> CHINA_AZ1 = Map.of("region", "China", "az", "az1");
  private static final Map<String, String> S1 = Map.of("security", "S1");
  private static final Map<String, String> S2 = Map.of("security", "S2");

  private static final Affinity STAY_WITH_S1_IN_REGION =
      preferredAffinity(weighted(5, term("region", selector(req("security", "In", "S1")))));
  private static final Affinity STAY_WITH_S2_IN_REGION =
      preferredAffinity(weighted(6, term("region", selector(req("security", "In", "S2")))));
  private static final Affinity AFFINITY3 =
      preferredAffinity(
          weighted(
              8,
              term(
                  "region", selector(req("security", "NotIn", "S1"), req("security", "In", "S2")))),
          weighted(
              2,
              term(
                  "region", selector(req("security", "Exists"), req("wrongkey", "DoesNotExist")))));
  private static final Affinity HARD_AFFINITY =
      requiredAffinity(
          term("region", selector(req("security", "In", "S1", "value2"))),
          term("region", selector(req("security", "Exists"), req("wrongkey", "DoesNotExist"))));
  private static final Affinity AWAY_FROM_S1_IN_AZ =
      preferredAntiAffinity(weighted(5, term("az", selector(req("security", "In", "S1")))));
  private static final Affinity AWAY_FROM_S2_IN_AZ =
      preferredAntiAffinity(weighted(5, term("az", selector(req("security", "In", "S2")))));
  private static final Affinity STAY_WITH_S1_AWAY_FROM_S2 =
      both(
          preferredAffinity(weighted(8, term("region", selector(req("security", "In", "S1"))))),
          preferredAntiAffinity(weighted(5, term("az", selector(req("security", "In", "S2"))))));
  private static final Affinity AFFINITY_NAMESPACE_SELECTOR =
      preferredAffinity(
          weighted(
              5,
              term(
                  "region",
                  selector(req("security", "In", "S1")),
                  List.of("subteam2.team2"),
                  selector(req("team", "In", "team1")))));
  private static final Affinity ANTI_AFFINITY_NAMESPACE_SELECTOR =
      preferredAntiAffinity(
          weighted(
              5,
              term(
                  "region",
                  selector(req("security", "In", "S1")),
                  List.of("subteam2.team2"),
                  selector(req("team", "In", "team1")))));
  private static final Affinity INVALID_AFFINITY =
      preferredAffinity(
          weighted(8, term("region", selector(req("security", "In", "{{.bad-value.}}")))));
  private static final Affinity INVALID_ANTI_AFFINITY =
      preferredAntiAffinity(
          weighted(5, term("az", selector(req("security", "In", "{{.bad-value.}}")))));

  record Case(
      String name,
      PodInfo pod,
      List<PodInfo> pods,
      List<Node> nodes,
      String args,
      Status wantPreScore,
      List<Long> want) {
    @Override
    public String toString() {
      return name;
    }
  }

  private static final String DEFAULT_ARGS = "{\"hardPodAffinityWeight\": 1}";

  private static Case scored(
      String name, PodInfo pod, List<PodInfo> pods, List<Node> nodes, Long... want) {
    return new Case(name, pod, pods, nodes, DEFAULT_ARGS, Status.success(), List.of(want));
  }

  private static Case status(
      String name, PodInfo pod, List<PodInfo> pods, List<Node> nodes, String args, Status want) {
    return new Case(name, pod, pods, nodes, args, want, List.of());
  }

  @SafeVarargs
  private static List<Node> nodes(Map<String, String>... labels) {
    return IntStream.range(0, labels.length)
        .mapToObj(i -> node("node" + (i + 1), labels[i]))
        .toList();
  }

  static Stream<Case> preferredAffinityCases() {
    List<Node> chinaIndiaAz1 = nodes(CHINA, INDIA, AZ1);
    return Stream.of(
        status(
            "all nodes score the same when no pod has affinity, so PreScore skips",
            pod("", S1, null),
            List.of(),
            chinaIndiaAz1,
            DEFAULT_ARGS,
            Status.skip()),
        scored(
            "a node whose region holds a pod the incoming pod prefers scores highest",
            pod("", S1, STAY_WITH_S1_IN_REGION),
            List.of(pod("node1", S1, null), pod("node2", S2, null), pod("node3", S1, null)),
            chinaIndiaAz1,
            100L,
            0L,
            0L),
        scored(
            "every node sharing the region of a preferred pod scores the same",
            pod("", Map.of(), STAY_WITH_S1_IN_REGION),
            List.of(pod("node1", S1, null)),
            nodes(CHINA, CHINA_AZ1, INDIA),
            100L,
            100L,
            0L),
        scored(
            "the region with more preferred pods scores higher",
            pod("", S1, STAY_WITH_S2_IN_REGION),
            List.of(
                pod("node1", S2, null),
                pod("node1", S2, null),
                pod("node2", S2, null),
                pod("node3", S2, null),
                pod("node4", S2, null),
                pod("node5", S2, null)),
            nodes(CHINA, INDIA, CHINA, CHINA, INDIA),
            100L,
            0L,
            100L,
            100L,
            0L),
        scored(
            "preferred terms with different operators add their weights, including partial matches",
            pod("", S1, AFFINITY3),
            List.of(pod("node1", S1, null), pod("node2", S2, null), pod("node3", S1, null)),
            chinaIndiaAz1,
            20L,
            100L,
            0L),
        scored(
            "symmetry: an existing pod's preferred affinity matching the incoming pod scores its region",
            pod("", S2, null),
            List.of(
                pod("node1", S1, STAY_WITH_S1_IN_REGION), pod("node2", S2, STAY_WITH_S2_IN_REGION)),
            chinaIndiaAz1,
            0L,
            100L,
            0L),
        scored(
            "symmetry: an existing pod's preferred affinity selects the incoming pod's namespace by label",
            pod("subteam1.team1", "", S1, null),
            List.of(
                pod("node1", S1, AFFINITY_NAMESPACE_SELECTOR),
                pod("node2", S2, STAY_WITH_S2_IN_REGION)),
            chinaIndiaAz1,
            100L,
            0L,
            0L),
        scored(
            "symmetry: an existing pod's preferred anti-affinity selects the incoming pod's namespace by label",
            pod("subteam1.team1", "", S1, null),
            List.of(
                pod("node1", S1, ANTI_AFFINITY_NAMESPACE_SELECTOR),
                pod("node2", S2, STAY_WITH_S2_IN_REGION)),
            chinaIndiaAz1,
            0L,
            100L,
            100L),
        scored(
            "symmetry: existing pods' required affinity terms matching the incoming pod add the hard weight",
            pod("", S1, null),
            List.of(pod("node1", S1, HARD_AFFINITY), pod("node2", S2, HARD_AFFINITY)),
            chinaIndiaAz1,
            100L,
            100L,
            0L),
        scored(
            "anti-affinity: the node without matching pods in its az scores highest",
            pod("", S1, AWAY_FROM_S1_IN_AZ),
            List.of(pod("node1", S1, null), pod("node2", S2, null)),
            nodes(AZ1, CHINA),
            0L,
            100L),
        scored(
            "anti-affinity: a node lacking the topology key is not penalised for matching pods",
            pod("", S1, AWAY_FROM_S1_IN_AZ),
            List.of(pod("node1", S1, null), pod("node2", S1, null)),
            nodes(AZ1, CHINA),
            0L,
            100L),
        scored(
            "anti-affinity: the node with more matching pods scores lower",
            pod("", S1, AWAY_FROM_S1_IN_AZ),
            List.of(pod("node1", S1, null), pod("node1", S1, null), pod("node2", S2, null)),
            nodes(AZ1, INDIA),
            0L,
            100L),
        scored(
            "anti-affinity symmetry: an existing pod preferring to avoid the incoming pod lowers its az",
            pod("", S2, null),
            List.of(pod("node1", S1, AWAY_FROM_S2_IN_AZ), pod("node2", S2, AWAY_FROM_S1_IN_AZ)),
            nodes(AZ1, AZ2),
            0L,
            100L),
        scored(
            "preferred affinity and anti-affinity of the incoming pod combine",
            pod("", S1, STAY_WITH_S1_AWAY_FROM_S2),
            List.of(pod("node1", S1, null), pod("node2", S1, null)),
            nodes(CHINA, AZ1),
            100L,
            0L),
        scored(
            "pods of one group stay in a region while spreading over azs",
            pod("", S1, STAY_WITH_S1_AWAY_FROM_S2),
            List.of(
                pod("node1", S1, null),
                pod("node1", S1, null),
                pod("node2", S1, null),
                pod("node3", S1, null),
                pod("node3", S1, null),
                pod("node4", S1, null),
                pod("node5", S1, null)),
            nodes(CHINA_AZ1, INDIA, CHINA, CHINA, INDIA),
            100L,
            0L,
            100L,
            100L,
            0L),
        scored(
            "affinity, anti-affinity and both symmetries add up",
            pod("", S1, STAY_WITH_S1_AWAY_FROM_S2),
            List.of(
                pod("node1", S1, null),
                pod("node2", S2, null),
                pod("node3", Map.of(), STAY_WITH_S1_AWAY_FROM_S2),
                pod("node4", Map.of(), AWAY_FROM_S1_IN_AZ)),
            nodes(CHINA, AZ1, INDIA, AZ2),
            100L,
            0L,
            100L,
            0L),
        scored(
            "nodes of a topology without pods with affinity score like the rest of it",
            pod("", S1, null),
            List.of(pod("node1", S1, null), pod("node2", Map.of(), STAY_WITH_S1_AWAY_FROM_S2)),
            nodes(CHINA, CHINA),
            0L,
            0L),
        status(
            "an invalid preferred affinity label value fails PreScore",
            pod("", Map.of(), INVALID_AFFINITY),
            List.of(),
            nodes(CHINA, CHINA),
            DEFAULT_ARGS,
            Status.error(
                    "failed to parse pod: preferredAffinityTerms: invalid label value: \"{{.bad-value.}}\"")
                .withPlugin(NAME)),
        status(
            "an invalid preferred anti-affinity label value fails PreScore",
            pod("", Map.of(), INVALID_ANTI_AFFINITY),
            List.of(),
            nodes(CHINA, CHINA),
            DEFAULT_ARGS,
            Status.error(
                    "failed to parse pod: preferredAntiAffinityTerms: invalid label value: \"{{.bad-value.}}\"")
                .withPlugin(NAME)),
        scored(
            "preferred affinity counts pods of namespaces its namespace selector selects",
            pod("subteam1.team1", "", S1, AFFINITY_NAMESPACE_SELECTOR),
            List.of(
                pod("subteam1.team1", "node1", S1, null),
                pod("subteam1.team1", "node1", S1, null),
                pod("subteam1.team2", "node1", S1, null),
                pod("subteam2.team1", "node2", S1, null)),
            nodes(CHINA, INDIA),
            100L,
            0L),
        scored(
            "preferred affinity counts pods of both its namespace list and its namespace selector",
            pod("subteam1.team1", "", S1, AFFINITY_NAMESPACE_SELECTOR),
            List.of(
                pod("subteam1.team1", "node1", S1, null),
                pod("subteam1.team1", "node1", S1, null),
                pod("subteam2.team2", "node1", S1, null),
                pod("subteam2.team1", "node2", S1, null)),
            nodes(CHINA, INDIA),
            100L,
            0L),
        scored(
            "preferred anti-affinity counts pods of namespaces its namespace selector selects",
            pod("subteam1.team1", "", S1, ANTI_AFFINITY_NAMESPACE_SELECTOR),
            List.of(
                pod("subteam1.team1", "node1", S1, null),
                pod("subteam1.team1", "node1", S1, null),
                pod("subteam1.team2", "node1", S1, null),
                pod("subteam2.team1", "node2", S1, null)),
            nodes(CHINA, INDIA),
            0L,
            100L),
        scored(
            "preferred anti-affinity counts pods of both its namespace list and its namespace selector",
            pod("subteam1.team1", "", S1, ANTI_AFFINITY_NAMESPACE_SELECTOR),
            List.of(
                pod("subteam1.team1", "node1", S1, null),
                pod("subteam1.team1", "node1", S1, null),
                pod("subteam2.team2", "node1", S1, null),
                pod("subteam2.team1", "node2", S1, null)),
            nodes(CHINA, INDIA),
            0L,
            100L),
        status(
            "existing pods' preferred terms are ignored when asked and the pod has none, so PreScore skips",
            pod("", S2, null),
            List.of(
                pod("node1", S1, STAY_WITH_S1_AWAY_FROM_S2),
                pod("node2", S2, STAY_WITH_S2_IN_REGION)),
            nodes(CHINA, INDIA),
            "{\"hardPodAffinityWeight\": 1, \"ignorePreferredTermsOfExistingPods\": true}",
            Status.skip()),
        scored(
            "existing pods' preferred terms count by default",
            pod("", S2, null),
            List.of(
                pod("node1", S1, STAY_WITH_S1_AWAY_FROM_S2),
                pod("node2", S2, STAY_WITH_S2_IN_REGION)),
            nodes(CHINA, INDIA),
            0L,
            100L),
        new Case(
            "existing pods' preferred terms still count when asked to ignore them but the pod has its own",
            pod("", S2, STAY_WITH_S2_IN_REGION),
            List.of(
                pod("node1", S2, null),
                pod("node2", S1, STAY_WITH_S2_IN_REGION),
                pod("node2", S1, STAY_WITH_S2_IN_REGION)),
            chinaIndiaAz1,
            "{\"ignorePreferredTermsOfExistingPods\": true}",
            Status.success(),
            List.of(50L, 100L, 0L)),
        status(
            "no nodes, nothing to score, so PreScore skips",
            pod("", S2, null),
            List.of(),
            List.of(),
            DEFAULT_ARGS,
            Status.skip()));
  }

  static Stream<Case> hardPodAffinityWeightCases() {
    Affinity hard =
        requiredAffinity(
            term(
                "region",
                selector(req("service", "In", "S1")),
                List.of("default", "subteam2.team2"),
                selector(req("team", "In", "team1"))));
    Map<String, String> serviceS1 = Map.of("service", "S1");
    List<PodInfo> pods = List.of(pod("node1", Map.of(), hard), pod("node2", Map.of(), hard));
    List<Node> nodes = nodes(CHINA, INDIA, AZ1);
    return Stream.of(
        new Case(
            "the default hard weight credits existing pods' required affinity",
            pod("", serviceS1, null),
            pods,
            nodes,
            "{}",
            Status.success(),
            List.of(100L, 100L, 0L)),
        status(
            "a zero hard weight ignores existing pods' required affinity, so PreScore skips",
            pod("", serviceS1, null),
            pods,
            nodes,
            "{\"hardPodAffinityWeight\": 0}",
            Status.skip()),
        status(
            "a pod outside the required term's namespaces is not credited",
            pod("subteam1.team2", "", serviceS1, null),
            pods,
            nodes,
            "{}",
            Status.skip()),
        new Case(
            "a pod in a namespace the required term selects by label is credited",
            pod("subteam1.team1", "", serviceS1, null),
            pods,
            nodes,
            "{}",
            Status.success(),
            List.of(100L, 100L, 0L)),
        new Case(
            "a pod in a namespace the required term lists is credited",
            pod("subteam2.team2", "", serviceS1, null),
            pods,
            nodes,
            "{}",
            Status.success(),
            List.of(100L, 100L, 0L)));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource({"preferredAffinityCases", "hardPodAffinityWeightCases"})
  void preScoreScoreNormalize(Case c) {
    ObjectStore store = Fixtures.teamNamespaces();
    InterPodAffinity plugin = Fixtures.plugin(c.args(), store);
    CycleState state = Fixtures.cycleState(c.pods(), c.nodes());
    List<NodeInfo> nodes = state.snapshot().list();

    Status preScore = plugin.preScore(state, c.pod(), nodes);

    assertThat(preScore).isEqualTo(c.wantPreScore());
    if (!preScore.isSuccess()) {
      return;
    }
    NodeScores scores = new NodeScores(nodes.toArray(new NodeInfo[0]));
    for (int i = 0; i < nodes.size(); i++) {
      scores.set(i, plugin.score(state, c.pod(), nodes.get(i)));
    }
    assertThat(plugin.normalizeScore(state, c.pod(), scores)).isEqualTo(Status.success());
    assertThat(Arrays.stream(scores.toArray()).boxed().toList()).isEqualTo(c.want());
  }

  record NormalizeCase(String name, long[] raw, long[] want) {
    @Override
    public String toString() {
      return name;
    }
  }

  static Stream<NormalizeCase> normalizeCases() {
    return Stream.of(
        new NormalizeCase(
            "scores map linearly from the lowest to the highest, truncating",
            new long[] {-5, 0, 3, 10},
            new long[] {0, 33, 53, 100}),
        new NormalizeCase(
            "double arithmetic is kept: 100 × (29 / 100) truncates to 28, not 29",
            new long[] {0, 29, 100},
            new long[] {0, 28, 100}),
        new NormalizeCase(
            "all scores equal give 0 everywhere", new long[] {7, 7, 7}, new long[] {0, 0, 0}),
        new NormalizeCase(
            "negative-only scores still span 0 to 100",
            new long[] {-10, -4, -1},
            new long[] {0, 66, 100}));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("normalizeCases")
  void normalizeScore(NormalizeCase c) {
    InterPodAffinity plugin = Fixtures.plugin("{}", new ObjectStore());
    CycleState state = TestFrameworks.cycleState(List.of());
    state.write(InterPodAffinity.PRE_SCORE_STATE_KEY, someScores());
    NodeInfo[] nodes = new NodeInfo[c.raw().length];
    Arrays.fill(nodes, MakeNode.node().name("n").info());
    NodeScores scores = new NodeScores(nodes, c.raw());

    assertThat(plugin.normalizeScore(state, MakePod.pod().name("p").info(), scores))
        .isEqualTo(Status.success());

    assertThat(scores.toArray()).containsExactly(c.want());
  }

  @SuppressWarnings("unchecked")
  private static PreScoreState someScores() {
    return new PreScoreState(new String[] {"zone"}, new Map[] {Map.of("z", 1L)});
  }

  @Test
  void normalizeLeavesScoresAloneWhenNothingWasScored() {
    InterPodAffinity plugin = Fixtures.plugin("{}", new ObjectStore());
    CycleState state = TestFrameworks.cycleState(List.of());
    state.write(InterPodAffinity.PRE_SCORE_STATE_KEY, new PreScoreState(new String[0], new Map[0]));
    NodeInfo n = MakeNode.node().name("n").info();
    NodeScores scores = new NodeScores(new NodeInfo[] {n, n}, new long[] {3, 9});

    plugin.normalizeScore(state, MakePod.pod().name("p").info(), scores);

    assertThat(scores.toArray()).containsExactly(3, 9);
  }

  @Test
  void scoreWithoutPreScoreFailsWithUpstreamsMessage() {
    InterPodAffinity plugin = Fixtures.plugin("{}", new ObjectStore());
    NodeInfo node = MakeNode.node().name("n").info();
    CycleState state = TestFrameworks.cycleState(List.of(node));

    assertThatThrownBy(() -> plugin.score(state, MakePod.pod().name("p").info(), node))
        .isInstanceOf(FrameworkException.class)
        .hasMessage("failed to read \"PreScoreInterPodAffinity\" from cycleState: not found");
  }
}
