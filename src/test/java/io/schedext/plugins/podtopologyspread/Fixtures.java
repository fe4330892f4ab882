package io.schedext.plugins.podtopologyspread;

import io.fabric8.kubernetes.api.model.LabelSelector;
import io.fabric8.kubernetes.api.model.LabelSelectorBuilder;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.TopologySpreadConstraint;
import io.fabric8.kubernetes.api.model.TopologySpreadConstraintBuilder;
import io.schedext.cluster.ObjectStore;
import io.schedext.framework.CycleState;
import io.schedext.framework.NodeInfo;
import io.schedext.framework.PluginArgs;
import io.schedext.framework.PodInfo;
import io.schedext.framework.Status;
import io.schedext.kube.Requirement;
import io.schedext.kube.Selector;
import io.schedext.plugins.Names;
import io.schedext.testing.MakeNode;
import io.schedext.testing.MakePod;
import io.schedext.testing.NodeWrapper;
import io.schedext.testing.PodWrapper;
import io.schedext.testing.TestFrameworks;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One-line nodes, pods, constraints and snapshots for the PodTopologySpread tests, in upstream's
 * vocabulary.
 */
final class Fixtures {

  static final String DNS = SpreadConstraint.DO_NOT_SCHEDULE;
  static final String SA = SpreadConstraint.SCHEDULE_ANYWAY;
  static final String HOSTNAME = SpreadConstraint.LABEL_HOSTNAME;
  static final String ZONE = SpreadConstraint.LABEL_TOPOLOGY_ZONE;
  static final String HONOR = "Honor";
  static final String IGNORE = "Ignore";
  static final LabelSelector FOO = PodWrapper.existsSelector("foo");
  static final LabelSelector BAR = PodWrapper.existsSelector("bar");
  static final LabelSelector EMPTY = new LabelSelector();

  static final Status OK = Status.success();
  static final Status SKEWED =
      Status.unschedulable(PodTopologySpread.ERR_REASON_CONSTRAINTS_NOT_MATCH)
          .withPlugin(Names.POD_TOPOLOGY_SPREAD);
  static final Status NO_KEY =
      Status.unresolvable(PodTopologySpread.ERR_REASON_NODE_LABEL_NOT_MATCH)
          .withPlugin(Names.POD_TOPOLOGY_SPREAD);

  private Fixtures() {}

  /** A node with labels given as key, value, key, value... */
  static NodeWrapper node(String name, String... kv) {
    NodeWrapper n = MakeNode.node().name(name);
    for (int i = 0; i < kv.length; i += 2) {
      n.label(kv[i], kv[i + 1]);
    }
    return n;
  }

  /** A node carrying the unschedulable NoSchedule taint, as upstream's test {@code taints}. */
  static NodeWrapper tainted(NodeWrapper n) {
    return n.taint("node.kubernetes.io/unschedulable", "", "NoSchedule");
  }

  /** A pod (namespace "default") with labels given as key, value, ... */
  static PodWrapper pod(String name, String... kv) {
    PodWrapper p = MakePod.pod().name(name);
    for (int i = 0; i < kv.length; i += 2) {
      p.label(kv[i], kv[i + 1]);
    }
    return p;
  }

  /** An existing pod on {@code node} with labels given as key, value, ... */
  static Pod on(String node, String name, String... kv) {
    return pod(name, kv).node(node).obj();
  }

  /**
   * A spread constraint as upstream's {@code SpreadConstraint(maxSkew, key, when, selector, nil,
   * nil, nil, nil)}.
   */
  static TopologySpreadConstraint spread(
      int maxSkew, String key, String when, LabelSelector selector) {
    return spread(maxSkew, key, when, selector, null, null, null, null);
  }

  /** A spread constraint with every field upstream's test builder takes. */
  static TopologySpreadConstraint spread(
      int maxSkew,
      String key,
      String when,
      LabelSelector selector,
      Integer minDomains,
      String affinityPolicy,
      String taintsPolicy,
      List<String> matchLabelKeys) {
    return new TopologySpreadConstraintBuilder()
        .withMaxSkew(maxSkew)
        .withTopologyKey(key)
        .withWhenUnsatisfiable(when)
        .withLabelSelector(selector)
        .withMinDomains(minDomains)
        .withNodeAffinityPolicy(affinityPolicy)
        .withNodeTaintsPolicy(taintsPolicy)
        .withMatchLabelKeys(matchLabelKeys)
        .build();
  }

  /** A selector with these matchLabels (key, value, ...). */
  static LabelSelector labels(String... kv) {
    Map<String, String> m = new LinkedHashMap<>();
    for (int i = 0; i < kv.length; i += 2) {
      m.put(kv[i], kv[i + 1]);
    }
    return new LabelSelectorBuilder().withMatchLabels(m).build();
  }

  /** Node infos for {@code nodes} (in order) holding the {@code pods} whose nodeName names them. */
  static List<NodeInfo> snapshot(List<Node> nodes, List<Pod> pods) {
    List<NodeInfo> out = new ArrayList<>();
    for (Node n : nodes) {
      NodeInfo info = NodeInfo.of(n);
      for (Pod p : pods) {
        if (n.getMetadata().getName().equals(p.getSpec().getNodeName())) {
          info.addPod(PodInfo.of(p));
        }
      }
      out.add(info);
    }
    return out;
  }

  /** The node info named {@code name}. */
  static NodeInfo find(List<NodeInfo> infos, String name) {
    return infos.stream().filter(n -> n.name().equals(name)).findFirst().orElseThrow();
  }

  /** A cycle state over exactly {@code infos}. */
  static CycleState state(List<NodeInfo> infos) {
    return TestFrameworks.cycleState(infos);
  }

  /** The plugin with List defaulting and these default constraints, over {@code store}. */
  static PodTopologySpread listPlugin(ObjectStore store, List<TopologySpreadConstraint> defaults) {
    return plugin(store, PodTopologySpreadArgs.LIST_DEFAULTING, defaults);
  }

  /** The plugin with System defaulting, over {@code store}. */
  static PodTopologySpread systemPlugin(ObjectStore store) {
    return plugin(store, PodTopologySpreadArgs.SYSTEM_DEFAULTING, List.of());
  }

  private static PodTopologySpread plugin(
      ObjectStore store, String type, List<TopologySpreadConstraint> defaults) {
    var json =
        new com.fasterxml.jackson.databind.ObjectMapper()
            .valueToTree(Map.of("defaultingType", type, "defaultConstraints", defaults));
    return PodTopologySpread.create(
        PluginArgs.of(Names.POD_TOPOLOGY_SPREAD, json), TestFrameworks.handle(store));
  }

  /**
   * A selector written as its sorted requirements, to compare selectors regardless of requirement
   * order.
   */
  static String describe(Selector s) {
    if (s.isNothing()) {
      return "<nothing>";
    }
    return s.requirements().stream().map(Requirement::toString).sorted().toList().toString();
  }
}
