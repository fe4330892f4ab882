package io.schedext.plugins.noderesources;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Pod;
import io.schedext.framework.CycleState;
import io.schedext.framework.NodeInfo;
import io.schedext.framework.PluginArgs;
import io.schedext.framework.PodInfo;
import io.schedext.framework.PreScorePlugin;
import io.schedext.framework.ScorePlugin;
import io.schedext.framework.Status;
import io.schedext.testing.MakeNode;
import io.schedext.testing.MakePod;
import io.schedext.testing.PodWrapper;
import io.schedext.testing.TestFrameworks;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Test objects shaped like upstream's noderesources test helpers (makeNode, newResourcePod,
 * NewSnapshot).
 */
final class Fixtures {

  private Fixtures() {}

  /**
   * Requests of one container: cpu in millicores, memory and ephemeral storage in bytes, and scalar
   * resources.
   */
  record Res(long milliCpu, long memory, long ephemeralStorage, Map<String, Long> scalars) {

    static Res of(long milliCpu, long memory) {
      return new Res(milliCpu, memory, 0, Map.of());
    }

    static Res of(long milliCpu, long memory, String scalar, long quantity) {
      return new Res(milliCpu, memory, 0, Map.of(scalar, quantity));
    }

    static Res storage(long ephemeralStorage) {
      return new Res(0, 0, ephemeralStorage, Map.of());
    }

    /** The container request map, stating zero amounts explicitly as upstream's helper does. */
    Map<String, String> requests() {
      Map<String, String> m = new LinkedHashMap<>();
      m.put("cpu", milliCpu + "m");
      m.put("memory", Long.toString(memory));
      m.put("ephemeral-storage", Long.toString(ephemeralStorage));
      scalars.forEach((k, v) -> m.put(k, Long.toString(v)));
      return m;
    }
  }

  /** A pod with one container per {@code containers} entry (upstream's newResourcePod). */
  static PodWrapper resourcePod(Res... containers) {
    PodWrapper p = MakePod.pod().name("p");
    for (Res r : containers) {
      p.req(r.requests());
    }
    return p;
  }

  /** Adds one init container per {@code inits} entry (upstream's newResourceInitPod). */
  static PodWrapper withInit(PodWrapper pod, Res... inits) {
    for (Res r : inits) {
      pod.initReq(r.requests());
    }
    return pod;
  }

  /**
   * A node with this capacity (= allocatable), as upstream's {@code st.MakeNode().Capacity(...)}.
   */
  static Node node(String name, Map<String, String> capacity) {
    Map<String, String> c = new LinkedHashMap<>();
    c.put("pods", "32");
    c.putAll(capacity);
    return MakeNode.node().name(name).capacity(c).obj();
  }

  /** Upstream's {@code makeNode(name, milliCPU, memory, extendedResources)}. */
  static Node node(String name, long milliCpu, long memory, Map<String, Long> extended) {
    Map<String, String> c = new LinkedHashMap<>();
    c.put("cpu", milliCpu + "m");
    c.put("memory", Long.toString(memory));
    extended.forEach((k, v) -> c.put(k, Long.toString(v)));
    return MakeNode.node().name(name).capacity(c).obj();
  }

  /**
   * Node infos for {@code nodes}, each holding the {@code pods} assigned to it (upstream's
   * NewSnapshot).
   */
  static List<NodeInfo> infos(List<Node> nodes, List<Pod> pods) {
    List<NodeInfo> out = new ArrayList<>();
    int uid = 0;
    for (Node n : nodes) {
      NodeInfo info = NodeInfo.of(n);
      for (Pod p : pods) {
        if (n.getMetadata().getName().equals(p.getSpec().getNodeName())) {
          p.getMetadata().setUid("existing-" + uid++);
          info.addPod(PodInfo.of(p));
        }
      }
      out.add(info);
    }
    return out;
  }

  /** Arguments parsed from JSON, as they arrive from pluginConfig. */
  static PluginArgs args(String plugin, String json) {
    return PluginArgs.of(plugin, TestFrameworks.json(json));
  }

  /** Runs PreScore (when asked) and Score for every node; the scores in node order. */
  static <P extends PreScorePlugin & ScorePlugin> List<Long> scores(
      P plugin, PodInfo pod, List<NodeInfo> nodes, boolean runPreScore) {
    CycleState state = TestFrameworks.cycleState(nodes);
    if (runPreScore) {
      Status s = plugin.preScore(state, pod, nodes);
      if (!s.isSuccess()) {
        throw new AssertionError("PreScore returned " + s);
      }
    }
    List<Long> out = new ArrayList<>();
    for (NodeInfo n : nodes) {
      out.add(plugin.score(state, pod, n));
    }
    return out;
  }
}
