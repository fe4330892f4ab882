package io.schedext.plugins.interpodaffinity;

import io.fabric8.kubernetes.api.model.Affinity;
import io.fabric8.kubernetes.api.model.LabelSelector;
import io.fabric8.kubernetes.api.model.LabelSelectorRequirement;
import io.fabric8.kubernetes.api.model.Namespace;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodAffinity;
import io.fabric8.kubernetes.api.model.PodAffinityTerm;
import io.fabric8.kubernetes.api.model.PodAntiAffinity;
import io.fabric8.kubernetes.api.model.WeightedPodAffinityTerm;
import io.schedext.cluster.ObjectStore;
import io.schedext.framework.CycleState;
import io.schedext.framework.NodeInfo;
import io.schedext.framework.PluginArgs;
import io.schedext.framework.PodInfo;
import io.schedext.testing.MakeNode;
import io.schedext.testing.MakePod;
import io.schedext.testing.PodWrapper;
import io.schedext.testing.TestFrameworks;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * One-line builders for affinity terms, pods with whole Affinity objects, namespaces and snapshots.
 */
final class Fixtures {

  private static final AtomicInteger SEQ = new AtomicInteger();

  private Fixtures() {}

  /** A label selector requirement. */
  static LabelSelectorRequirement req(String key, String operator, String... values) {
    LabelSelectorRequirement r = new LabelSelectorRequirement();
    r.setKey(key);
    r.setOperator(operator);
    r.setValues(values.length == 0 ? null : new ArrayList<>(List.of(values)));
    return r;
  }

  /**
   * A label selector ANDing the requirements ({@code selector()} is the empty, match-all selector).
   */
  static LabelSelector selector(LabelSelectorRequirement... reqs) {
    LabelSelector s = new LabelSelector();
    s.setMatchExpressions(new ArrayList<>(List.of(reqs)));
    return s;
  }

  /** A term over {@code topologyKey} in the owner's namespace. */
  static PodAffinityTerm term(String topologyKey, LabelSelector selector) {
    return term(topologyKey, selector, null, null);
  }

  /** A term with explicit namespaces and/or a namespace selector (null = unset). */
  static PodAffinityTerm term(
      String topologyKey,
      LabelSelector selector,
      List<String> namespaces,
      LabelSelector namespaceSelector) {
    PodAffinityTerm t = new PodAffinityTerm();
    t.setTopologyKey(topologyKey);
    t.setLabelSelector(selector);
    t.setNamespaces(namespaces == null ? null : new ArrayList<>(namespaces));
    t.setNamespaceSelector(namespaceSelector);
    return t;
  }

  /** A weighted term. */
  static WeightedPodAffinityTerm weighted(int weight, PodAffinityTerm term) {
    return new WeightedPodAffinityTerm(term, weight);
  }

  /** Pod affinity with these required terms. */
  static Affinity requiredAffinity(PodAffinityTerm... terms) {
    Affinity a = new Affinity();
    a.setPodAffinity(new PodAffinity(null, new ArrayList<>(List.of(terms))));
    return a;
  }

  /** Pod anti-affinity with these required terms. */
  static Affinity requiredAntiAffinity(PodAffinityTerm... terms) {
    Affinity a = new Affinity();
    a.setPodAntiAffinity(new PodAntiAffinity(null, new ArrayList<>(List.of(terms))));
    return a;
  }

  /** Pod affinity with these preferred terms. */
  static Affinity preferredAffinity(WeightedPodAffinityTerm... terms) {
    Affinity a = new Affinity();
    a.setPodAffinity(new PodAffinity(new ArrayList<>(List.of(terms)), null));
    return a;
  }

  /** Pod anti-affinity with these preferred terms. */
  static Affinity preferredAntiAffinity(WeightedPodAffinityTerm... terms) {
    Affinity a = new Affinity();
    a.setPodAntiAffinity(new PodAntiAffinity(new ArrayList<>(List.of(terms)), null));
    return a;
  }

  /**
   * The pod-affinity part of {@code affinity} and the pod-anti-affinity part of {@code
   * antiAffinity}.
   */
  static Affinity both(Affinity affinity, Affinity antiAffinity) {
    Affinity a = new Affinity();
    a.setPodAffinity(affinity.getPodAffinity());
    a.setPodAntiAffinity(antiAffinity.getPodAntiAffinity());
    return a;
  }

  /**
   * A pod with a unique name in {@code namespace}, on {@code node} ("" = unassigned), with labels
   * and affinity.
   */
  static PodInfo pod(String namespace, String node, Map<String, String> labels, Affinity affinity) {
    PodWrapper w =
        MakePod.pod().name("p" + SEQ.incrementAndGet()).namespace(namespace).labels(labels);
    if (!node.isEmpty()) {
      w.node(node);
    }
    Pod p = w.obj();
    p.getSpec().setAffinity(affinity);
    return PodInfo.of(p);
  }

  /** A pod in "default" on {@code node} with labels and affinity. */
  static PodInfo pod(String node, Map<String, String> labels, Affinity affinity) {
    return pod("default", node, labels, affinity);
  }

  /** A node with labels. */
  static Node node(String name, Map<String, String> labels) {
    return MakeNode.node().name(name).labels(labels).obj();
  }

  /**
   * Node infos for {@code nodes}, in order, each holding the pods assigned to it (pods of other
   * nodes are dropped).
   */
  static List<NodeInfo> nodeInfos(List<PodInfo> pods, List<Node> nodes) {
    List<NodeInfo> out = new ArrayList<>();
    for (Node n : nodes) {
      String name = n.getMetadata().getName();
      out.add(
          NodeInfo.of(
              n, pods.stream().filter(p -> p.nodeName().equals(name)).toArray(PodInfo[]::new)));
    }
    return out;
  }

  /** A cycle state over a snapshot of {@code nodes} holding {@code pods}. */
  static CycleState cycleState(List<PodInfo> pods, List<Node> nodes) {
    return TestFrameworks.cycleState(nodeInfos(pods, nodes));
  }

  /** A namespace with labels. */
  static Namespace namespace(String name, Map<String, String> labels) {
    return new NamespaceBuilder()
        .withNewMetadata()
        .withName(name)
        .withLabels(labels)
        .endMetadata()
        .build();
  }

  /** A store holding these namespaces. */
  static ObjectStore store(Namespace... namespaces) {
    ObjectStore s = new ObjectStore();
    for (Namespace n : namespaces) {
      s.put(n);
    }
    return s;
  }

  /** Upstream's test namespaces: subteam{1,2}.team{1,2}, labelled team=team1 or team=team2. */
  static ObjectStore teamNamespaces() {
    return store(
        namespace("subteam1.team1", Map.of("team", "team1")),
        namespace("subteam2.team1", Map.of("team", "team1")),
        namespace("subteam1.team2", Map.of("team", "team2")),
        namespace("subteam2.team2", Map.of("team", "team2")));
  }

  /** The plugin with {@code argsJson} over {@code store}. */
  static InterPodAffinity plugin(String argsJson, ObjectStore store) {
    return InterPodAffinity.create(
        PluginArgs.of(InterPodAffinity.NAME, TestFrameworks.json(argsJson)),
        TestFrameworks.handle(store));
  }
}
