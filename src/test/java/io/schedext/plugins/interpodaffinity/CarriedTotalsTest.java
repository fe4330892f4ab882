package io.schedext.plugins.interpodaffinity;

import static io.schedext.plugins.interpodaffinity.Fixtures.both;
import static io.schedext.plugins.interpodaffinity.Fixtures.namespace;
import static io.schedext.plugins.interpodaffinity.Fixtures.preferredAffinity;
import static io.schedext.plugins.interpodaffinity.Fixtures.preferredAntiAffinity;
import static io.schedext.plugins.interpodaffinity.Fixtures.req;
import static io.schedext.plugins.interpodaffinity.Fixtures.requiredAffinity;
import static io.schedext.plugins.interpodaffinity.Fixtures.requiredAntiAffinity;
import static io.schedext.plugins.interpodaffinity.Fixtures.selector;
import static io.schedext.plugins.interpodaffinity.Fixtures.term;
import static io.schedext.plugins.interpodaffinity.Fixtures.weighted;
import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Affinity;
import io.fabric8.kubernetes.api.model.LabelSelector;
import io.fabric8.kubernetes.api.model.Pod;
import io.schedext.cluster.ObjectStore;
import io.schedext.framework.CycleState;
import io.schedext.framework.NodeInfo;
import io.schedext.framework.PodInfo;
import io.schedext.framework.PreFilterResult;
import io.schedext.framework.Status;
import io.schedext.testing.MakeNode;
import io.schedext.testing.MakePod;
import io.schedext.testing.TestFrameworks;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * PreFilter (existing pods' anti-affinity, the pod's own required terms) and PreScore (topology
 * scores) sum over the cluster from totals carried from pod to pod and from per-node shares
 * remembered on the node infos: after any change (pods with and without terms added, removed and
 * relabelled, node labels changed, nodes added and removed, namespace labels changed) their states
 * and Skip decisions must equal those of a plugin that has never seen the cluster, over node infos
 * that have never been counted; a cycle that changes its own PreFilter counts (AddPod, as
 * preemption and nominated pods do) must leave the totals alone; and a topology pair whose weights
 * cancel out stays (at 0) while some node contributes it, as upstream's merged map keeps it. The
 * pods scheduled in turn, by two plugins with different hard pod affinity weights over the same
 * node infos, differ in one input of the keys each, and a change to each input of a key gives
 * another key: shares and totals kept under a key that misses an input are handed to the wrong pod.
 */
class CarriedTotalsTest {

  private static final String ZONE = "zone";
  private static final String HOST = "host";
  private static final String OTHER = "other";
  private static final LabelSelector TEAM1 = selector(req("team", "In", "t1"));
  private static final ObjectStore STORE = Fixtures.teamNamespaces();

  private static Map<String, String> nodeLabels(String name, Random rnd) {
    return rnd.nextInt(6) == 0
        ? Map.of(HOST, name)
        : Map.of(ZONE, "z" + rnd.nextInt(3), HOST, name);
  }

  /**
   * Existing pods of app a or b, in namespace default or other, with every kind of term on app a or
   * b, or none.
   */
  private static PodInfo existing(String node, Random rnd) {
    Affinity affinity =
        switch (rnd.nextInt(10)) {
          case 0 -> requiredAntiAffinity(term(HOST, selector(req("app", "In", "a"))));
          case 1 -> requiredAntiAffinity(term(ZONE, selector(req("app", "In", "a"))));
          case 2 -> requiredAffinity(term(ZONE, selector(req("app", "In", "b"))));
          case 3 -> preferredAffinity(weighted(5, term(ZONE, selector(req("app", "In", "a")))));
          case 4 -> preferredAntiAffinity(weighted(5, term(HOST, selector(req("app", "In", "a")))));
          case 5 ->
              both(
                  preferredAffinity(weighted(3, term(ZONE, selector(req("app", "In", "a"))))),
                  preferredAntiAffinity(weighted(3, term(ZONE, selector(req("app", "In", "a"))))));
          // Terms over the namespaces labelled team=t1: they see the incoming pod's namespace
          // labels.
          case 6 -> requiredAntiAffinity(term(ZONE, selector(req("app", "In", "a")), null, TEAM1));
          case 7 -> preferredAffinity(weighted(4, term(ZONE, selector(), null, TEAM1)));
          default -> null;
        };
    String namespace = rnd.nextInt(3) == 0 ? OTHER : "default";
    return Fixtures.pod(namespace, node, Map.of("app", rnd.nextBoolean() ? "a" : "b"), affinity);
  }

  /**
   * The pods scheduled in turn: a base pod (app a in default, no terms) and pods that differ from
   * it, or from one another, in one input of a key.
   */
  private static List<PodInfo> incoming() {
    return List.of(
        Fixtures.pod("", Map.of("app", "a"), null),
        Fixtures.pod("", Map.of("app", "b"), null),
        Fixtures.pod(OTHER, "", Map.of("app", "a"), null),
        Fixtures.pod(
            "", Map.of("app", "b"), requiredAffinity(term(ZONE, selector(req("app", "In", "a"))))),
        Fixtures.pod(
            "",
            Map.of("app", "b"),
            requiredAntiAffinity(term(ZONE, selector(req("app", "In", "a"))))),
        Fixtures.pod(
            "",
            Map.of("app", "b"),
            both(
                requiredAffinity(term(ZONE, selector(req("app", "In", "a")))),
                requiredAntiAffinity(term(HOST, selector(req("app", "In", "b")))))),
        Fixtures.pod(
            "",
            Map.of("app", "b"),
            requiredAntiAffinity(term(HOST, selector(req("app", "In", "a")), null, TEAM1))),
        Fixtures.pod(
            "",
            Map.of("app", "a"),
            preferredAffinity(weighted(7, term(ZONE, selector(req("app", "In", "b")))))),
        Fixtures.pod(
            "",
            Map.of("app", "a"),
            preferredAffinity(weighted(2, term(ZONE, selector(req("app", "In", "b")))))),
        Fixtures.pod(
            "",
            Map.of("app", "a"),
            preferredAntiAffinity(weighted(7, term(ZONE, selector(req("app", "In", "b")))))),
        Fixtures.pod(
            "",
            Map.of("app", "a"),
            preferredAffinity(
                weighted(7, term(ZONE, selector(req("app", "In", "b")), null, TEAM1)))));
  }

  /**
   * The node infos as a cluster that was never counted holds them: the same content, nothing
   * remembered.
   */
  private static List<NodeInfo> uncounted(List<NodeInfo> nodes) {
    return nodes.stream().map(NodeInfo::snapshotCopy).toList();
  }

  /**
   * What one plugin answers for one pod on one cluster: PreFilter's counts (or status), PreScore's
   * (or status).
   */
  private static List<Object> answers(
      InterPodAffinity plugin, List<NodeInfo> nodes, PodInfo pod, PodInfo addAfter) {
    CycleState state = TestFrameworks.cycleState(nodes);
    PreFilterResult r = plugin.preFilter(state, pod);
    Object preFilter = r.status();
    if (r.status().isSuccess()) {
      PreFilterState s = PreFilterState.read(state, InterPodAffinity.PRE_FILTER_STATE_KEY);
      preFilter =
          List.of(
              s.existingAntiAffinityCounts().asMap(),
              s.affinityCounts().asMap(),
              s.antiAffinityCounts().asMap());
      if (addAfter != null) {
        plugin.addPod(state, pod, addAfter, nodes.get(0));
      }
    }
    return List.of(preFilter, preScore(plugin, nodes, pod));
  }

  /** PreScore's scores per topology key and value, or its status when it did not succeed. */
  private static Object preScore(InterPodAffinity plugin, List<NodeInfo> nodes, PodInfo pod) {
    CycleState state = TestFrameworks.cycleState(nodes);
    Status s = plugin.preScore(state, pod, nodes);
    if (!s.isSuccess()) {
      return s;
    }
    return PreScoreState.read(state, InterPodAffinity.PRE_SCORE_STATE_KEY).asMap();
  }

  /**
   * A copy of {@code info} with one change (or null when the node goes), as the cache makes them.
   */
  private static NodeInfo change(NodeInfo info, int kind, Random rnd) {
    NodeInfo copy = info.snapshotCopy();
    switch (kind) {
      case 0 -> copy.addPod(existing(copy.name(), rnd));
      case 1 ->
          copy.setNode(
              MakeNode.node().name(copy.name()).labels(nodeLabels(copy.name(), rnd)).obj());
      case 2 -> {
        if (!copy.pods().isEmpty()) {
          copy.removePod(copy.pods().get(rnd.nextInt(copy.pods().size())).uid());
        }
      }
      case 3 -> {
        // A pod relabelled: the same pod (name, uid and terms) with the other app label.
        if (!copy.pods().isEmpty()) {
          PodInfo old = copy.pods().get(rnd.nextInt(copy.pods().size()));
          copy.removePod(old.uid());
          String app = "a".equals(old.labels().get("app")) ? "b" : "a";
          Pod relabelled =
              MakePod.pod()
                  .name(old.name())
                  .namespace(old.namespace())
                  .node(copy.name())
                  .labels(Map.of("app", app))
                  .obj();
          relabelled.getSpec().setAffinity(old.pod().getSpec().getAffinity());
          copy.addPod(PodInfo.of(relabelled));
        }
      }
      default -> copy = null;
    }
    return copy;
  }

  private static ObjectStore namespaces(Random rnd) {
    return Fixtures.store(
        namespace("default", Map.of("team", "t" + (1 + rnd.nextInt(2)))),
        namespace(OTHER, Map.of("team", "t" + (1 + rnd.nextInt(2)))));
  }

  @Test
  void carriedTotalsEqualTotalsFromScratchAfterEveryChange() {
    for (long seed = 1; seed <= 3; seed++) {
      Random rnd = new Random(seed);
      ObjectStore store = namespaces(rnd);
      // Two profiles' plugins over the same node infos: they must not read each other's shares.
      List<String> args = List.of("{}", "{\"hardPodAffinityWeight\": 5}");
      List<InterPodAffinity> carried = args.stream().map(a -> Fixtures.plugin(a, store)).toList();
      List<NodeInfo> nodes = new ArrayList<>();
      for (int i = 0; i < 30; i++) {
        String name = "n" + i;
        NodeInfo info = NodeInfo.of(MakeNode.node().name(name).labels(nodeLabels(name, rnd)).obj());
        for (int k = rnd.nextInt(4); k > 0; k--) {
          info.addPod(existing(name, rnd));
        }
        nodes.add(info);
      }
      int next = nodes.size();
      for (int step = 0; step < 40; step++) {
        int i = rnd.nextInt(nodes.size());
        int kind = rnd.nextInt(7);
        if (kind == 5) {
          String name = "n" + next++;
          nodes.add(i, NodeInfo.of(MakeNode.node().name(name).labels(nodeLabels(name, rnd)).obj()));
        } else if (kind == 6) {
          String ns = rnd.nextBoolean() ? "default" : OTHER;
          store.put(namespace(ns, Map.of("team", "t" + (1 + rnd.nextInt(2)))));
        } else {
          NodeInfo changed = change(nodes.get(i), kind, rnd);
          if (changed == null) {
            nodes.remove(i);
          } else {
            nodes.set(i, changed);
          }
        }
        List<PodInfo> pods = incoming();
        for (int p = 0; p < pods.size(); p++) {
          for (int a = 0; a < args.size(); a++) {
            List<Object> fresh =
                answers(Fixtures.plugin(args.get(a), store), uncounted(nodes), pods.get(p), null);
            PodInfo nominated = existing(nodes.get(0).name(), rnd);
            assertThat(answers(carried.get(a), nodes, pods.get(p), nominated))
                .as("seed %d step %d pod %d args %s", seed, step, p, args.get(a))
                .isEqualTo(fresh);
          }
        }
      }
    }
  }

  /**
   * One input of a key changed: the key built from the base inputs and the one built from the
   * changed inputs.
   */
  record KeyCase(String name, Object base, Object changed) {
    @Override
    public String toString() {
      return name;
    }
  }

  private static final ObjectStore T1 =
      Fixtures.store(
          namespace("default", Map.of("team", "t1")), namespace(OTHER, Map.of("team", "t2")));
  private static final ObjectStore T2 =
      Fixtures.store(
          namespace("default", Map.of("team", "t2")), namespace(OTHER, Map.of("team", "t1")));

  private static PodInfo pod(String namespace, String app, Affinity affinity) {
    return Fixtures.pod(namespace, "", Map.of("app", app), affinity);
  }

  /** PreFilter's key of existing pods' anti-affinity counts, as it builds it. */
  private static Object existingKey(PodInfo pod, ObjectStore store) {
    return PreFilterState.ExistingAntiAffinityKey.of(
        pod, TermNamespaces.labelsOf(pod.namespace(), store));
  }

  /** PreFilter's key of the counts of the pod's own required terms, as it builds it. */
  private static Object termsKey(PodInfo pod, ObjectStore store) {
    return PreFilterState.IncomingTerms.of(
        TermNamespaces.merge(pod.requiredAffinityTerms(), store),
        TermNamespaces.merge(pod.requiredAntiAffinityTerms(), store));
  }

  /** PreScore's key, as it builds it. */
  private static Object scoreKey(
      PodInfo pod, ObjectStore store, int hardPodAffinityWeight, boolean allPods) {
    return TopologyScores.Key.of(
        pod,
        TermNamespaces.labelsOf(pod.namespace(), store),
        TermNamespaces.mergeWeighted(pod.preferredAffinityTerms(), store),
        TermNamespaces.mergeWeighted(pod.preferredAntiAffinityTerms(), store),
        hardPodAffinityWeight,
        allPods);
  }

  private static Affinity requiredAnti(
      String key, LabelSelector s, List<String> namespaces, LabelSelector nsSel) {
    return requiredAntiAffinity(term(key, s, namespaces, nsSel));
  }

  private static Affinity preferred(int weight, String key, LabelSelector s, LabelSelector nsSel) {
    return preferredAffinity(weighted(weight, term(key, s, null, nsSel)));
  }

  static Stream<KeyCase> keyCases() {
    LabelSelector appA = selector(req("app", "In", "a"));
    LabelSelector appB = selector(req("app", "In", "b"));
    PodInfo base = pod("default", "a", null);
    PodInfo anti = pod("default", "a", requiredAnti(ZONE, appA, null, null));
    PodInfo antiTeam1 = pod("default", "a", requiredAnti(ZONE, appA, null, TEAM1));
    PodInfo prefers = pod("default", "a", preferred(7, ZONE, appB, null));
    PodInfo prefersTeam1 = pod("default", "a", preferred(7, ZONE, appB, TEAM1));
    return Stream.of(
        new KeyCase(
            "existing anti-affinity: another namespace",
            existingKey(base, T1),
            existingKey(pod(OTHER, "a", null), T1)),
        new KeyCase(
            "existing anti-affinity: other labels",
            existingKey(base, T1),
            existingKey(pod("default", "b", null), T1)),
        new KeyCase(
            "existing anti-affinity: other namespace labels",
            existingKey(base, T1),
            existingKey(base, T2)),
        new KeyCase(
            "own terms: another selector",
            termsKey(anti, T1),
            termsKey(pod("default", "a", requiredAnti(ZONE, appB, null, null)), T1)),
        new KeyCase(
            "own terms: another topology key",
            termsKey(anti, T1),
            termsKey(pod("default", "a", requiredAnti(HOST, appA, null, null)), T1)),
        new KeyCase(
            "own terms: other namespaces listed",
            termsKey(anti, T1),
            termsKey(pod("default", "a", requiredAnti(ZONE, appA, List.of(OTHER), null)), T1)),
        new KeyCase(
            "own terms: the owner's namespace",
            termsKey(anti, T1),
            termsKey(pod(OTHER, "a", requiredAnti(ZONE, appA, null, null)), T1)),
        new KeyCase(
            "own terms: a namespace selector matching other namespaces",
            termsKey(antiTeam1, T1),
            termsKey(antiTeam1, T2)),
        new KeyCase(
            "own terms: affinity instead of anti-affinity",
            termsKey(anti, T1),
            termsKey(pod("default", "a", requiredAffinity(term(ZONE, appA))), T1)),
        new KeyCase(
            "scores: another namespace",
            scoreKey(prefers, T1, 1, true),
            scoreKey(pod(OTHER, "a", preferred(7, ZONE, appB, null)), T1, 1, true)),
        new KeyCase(
            "scores: other labels",
            scoreKey(prefers, T1, 1, true),
            scoreKey(pod("default", "b", preferred(7, ZONE, appB, null)), T1, 1, true)),
        new KeyCase(
            "scores: other namespace labels",
            scoreKey(prefers, T1, 1, true),
            scoreKey(prefers, T2, 1, true)),
        new KeyCase(
            "scores: another preferred term's weight",
            scoreKey(prefers, T1, 1, true),
            scoreKey(pod("default", "a", preferred(2, ZONE, appB, null)), T1, 1, true)),
        new KeyCase(
            "scores: another preferred term's selector",
            scoreKey(prefers, T1, 1, true),
            scoreKey(pod("default", "a", preferred(7, ZONE, appA, null)), T1, 1, true)),
        new KeyCase(
            "scores: a namespace selector matching other namespaces",
            scoreKey(prefersTeam1, T1, 1, true),
            scoreKey(prefersTeam1, T2, 1, true)),
        new KeyCase(
            "scores: anti-affinity instead of affinity",
            scoreKey(prefers, T1, 1, true),
            scoreKey(
                pod("default", "a", preferredAntiAffinity(weighted(7, term(ZONE, appB)))),
                T1,
                1,
                true)),
        new KeyCase(
            "scores: another hard pod affinity weight",
            scoreKey(base, T1, 1, false),
            scoreKey(base, T1, 5, false)),
        new KeyCase(
            "scores: every pod counts, not only those with terms",
            scoreKey(base, T1, 1, false),
            scoreKey(base, T1, 1, true)));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("keyCases")
  void aChangeToEachInputGivesAnotherKey(KeyCase c) {
    assertThat(c.changed()).isNotEqualTo(c.base());
  }

  @Test
  void theSameInputsGiveTheSameInternedKey() {
    PodInfo pod =
        pod(
            "default",
            "a",
            both(
                requiredAffinity(term(ZONE, selector(req("app", "In", "b")))),
                preferredAntiAffinity(
                    weighted(3, term(HOST, selector(req("app", "In", "a")), null, TEAM1)))));
    PodInfo again =
        pod(
            "default",
            "a",
            both(
                requiredAffinity(term(ZONE, selector(req("app", "In", "b")))),
                preferredAntiAffinity(
                    weighted(3, term(HOST, selector(req("app", "In", "a")), null, TEAM1)))));
    assertThat(existingKey(again, T1)).isSameAs(existingKey(pod, T1));
    assertThat(termsKey(again, T1)).isSameAs(termsKey(pod, T1));
    assertThat(scoreKey(again, T1, 1, true)).isSameAs(scoreKey(pod, T1, 1, true));
  }

  @Test
  void aPairWhoseWeightsCancelStaysUntilItsLastContributorGoes() {
    InterPodAffinity plugin = Fixtures.plugin("{}", STORE);
    // Existing pods in zone z1 that prefer app a (+3, twice) and avoid it (-3), each on its own
    // node.
    PodInfo likes1 =
        Fixtures.pod(
            "n1",
            Map.of("app", "b"),
            preferredAffinity(weighted(3, term(ZONE, selector(req("app", "In", "a"))))));
    PodInfo avoids =
        Fixtures.pod(
            "n2",
            Map.of("app", "b"),
            preferredAntiAffinity(weighted(3, term(ZONE, selector(req("app", "In", "a"))))));
    PodInfo likes3 =
        Fixtures.pod(
            "n3",
            Map.of("app", "b"),
            preferredAffinity(weighted(3, term(ZONE, selector(req("app", "In", "a"))))));
    NodeInfo n1 = NodeInfo.of(MakeNode.node().name("n1").labels(Map.of(ZONE, "z1")).obj(), likes1);
    NodeInfo n2 = NodeInfo.of(MakeNode.node().name("n2").labels(Map.of(ZONE, "z1")).obj(), avoids);
    NodeInfo n3 = NodeInfo.of(MakeNode.node().name("n3").labels(Map.of(ZONE, "z1")).obj(), likes3);
    PodInfo pod = incoming().get(0);
    assertThat(preScore(plugin, List.of(n1, n2, n3), pod))
        .isEqualTo(Map.of(ZONE, Map.of("z1", 3L)));

    // n3's pod goes: the sum is 0 but n1 and n2 still contribute the pair, so it stays (and
    // PreScore succeeds).
    NodeInfo n3Empty = n3.snapshotCopy();
    n3Empty.removePod(likes3.uid());
    assertThat(preScore(plugin, List.of(n1, n2, n3Empty), pod))
        .isEqualTo(Map.of(ZONE, Map.of("z1", 0L)));
    assertThat(preScore(Fixtures.plugin("{}", STORE), uncounted(List.of(n1, n2, n3Empty)), pod))
        .as("from scratch")
        .isEqualTo(Map.of(ZONE, Map.of("z1", 0L)));

    // Then the other two go: nothing is left, PreScore skips.
    NodeInfo n1Empty = n1.snapshotCopy();
    n1Empty.removePod(likes1.uid());
    NodeInfo n2Empty = n2.snapshotCopy();
    n2Empty.removePod(avoids.uid());
    assertThat(preScore(plugin, List.of(n1Empty, n2Empty, n3Empty), pod)).isEqualTo(Status.skip());
  }
}
