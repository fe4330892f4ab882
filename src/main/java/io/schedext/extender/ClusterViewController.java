package io.schedext.extender;

import io.fabric8.kubernetes.api.model.Pod;
import io.schedext.cache.SchedulerCache;
import io.schedext.cache.Snapshot;
import io.schedext.cluster.ClusterSource;
import io.schedext.framework.NodeInfo;
import io.schedext.framework.PodInfo;
import io.schedext.framework.Resource;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/**
 * The read-only views the web page at {@code /} reads: {@code GET /debug/overview} (cluster totals
 * and one page of nodes with their requests and pods) and {@code GET /debug/pending-pods} (the pods
 * waiting for a node). Pages keep the answers small at thousands of nodes. Nothing here changes the
 * cache.
 */
@RestController
class ClusterViewController {

  /** Nodes per page when the request does not say. */
  static final int DEFAULT_NODES = 50;

  /** The most nodes or pending pods one answer lists. */
  static final int MAX_LIMIT = 500;

  private static final String ZONE = "topology.kubernetes.io/zone";

  private final SchedulerCache cache;
  private final ClusterSource source;
  private final WireCodec codec;

  ClusterViewController(SchedulerCache cache, ClusterSource source, WireCodec codec) {
    this.cache = cache;
    this.source = source;
    this.codec = codec;
  }

  /**
   * Cluster totals and the nodes {@code offset} to {@code offset + limit} in name order, optionally
   * only those whose name contains {@code name}: each with its zone, taints, allocatable and
   * requested resources and its pods.
   */
  @GetMapping("/debug/overview")
  ResponseEntity<byte[]> overview(
      @RequestParam(required = false) String offset,
      @RequestParam(required = false) String limit,
      @RequestParam(required = false) String name) {
    int from = parameter("offset", offset, 0, Integer.MAX_VALUE, 0);
    int count = parameter("limit", limit, 1, MAX_LIMIT, DEFAULT_NODES);
    Snapshot s = cache.snapshot();
    List<NodeInfo> nodes = new ArrayList<>();
    Resource allocatable = new Resource();
    Resource requested = new Resource();
    int pods = 0;
    for (NodeInfo n : s.list()) {
      allocatable.add(n.allocatable());
      requested.add(n.requested());
      pods += n.pods().size();
      if (name == null || name.isEmpty() || n.name().contains(name)) {
        nodes.add(n);
      }
    }
    nodes.sort(Comparator.comparing(NodeInfo::name));
    Map<String, Object> out = new LinkedHashMap<>();
    out.put("source", source.describe());
    out.put("ready", source.isReady());
    out.put("nodes", s.size());
    out.put("pods", pods);
    out.put("pendingPods", source.pendingPods().size());
    out.put("allocatable", resources(allocatable, -1));
    out.put("requested", resources(requested, pods));
    out.put("matchingNodes", nodes.size());
    out.put("offset", from);
    out.put("limit", count);
    List<Map<String, Object>> page = new ArrayList<>();
    for (NodeInfo n :
        nodes.subList(
            Math.min(from, nodes.size()), (int) Math.min(from + (long) count, nodes.size()))) {
      page.add(node(n));
    }
    out.put("nodeList", page);
    return codec.response(200, out);
  }

  /**
   * The pods waiting for a node (at most {@code limit}, by namespace and name) with their nominated
   * node.
   */
  @GetMapping("/debug/pending-pods")
  ResponseEntity<byte[]> pending(@RequestParam(required = false) String limit) {
    int count = parameter("limit", limit, 1, MAX_LIMIT, MAX_LIMIT);
    List<PodInfo> pods = new ArrayList<>();
    for (Pod p : source.pendingPods()) {
      try {
        pods.add(PodInfo.of(p));
      } catch (IllegalArgumentException e) {
        // A pod whose spec cannot be read is listed by the cluster source's own logs; the page
        // skips it.
      }
    }
    pods.sort(Comparator.comparing(PodInfo::key));
    List<Map<String, Object>> list = new ArrayList<>();
    for (PodInfo p : pods.subList(0, Math.min(count, pods.size()))) {
      Map<String, Object> m = new LinkedHashMap<>();
      m.put("pod", p.key());
      m.put("namespace", p.namespace());
      m.put("name", p.name());
      m.put("uid", p.uid());
      m.put("priority", p.priority());
      var status = p.pod().getStatus();
      String nominated = status == null ? null : status.getNominatedNodeName();
      m.put("nominatedNode", nominated == null || nominated.isEmpty() ? null : nominated);
      m.put("milliCpu", p.request().milliCpu());
      m.put("memory", p.request().memory());
      list.add(m);
    }
    Map<String, Object> out = new LinkedHashMap<>();
    out.put("total", pods.size());
    out.put("pods", list);
    return codec.response(200, out);
  }

  private static Map<String, Object> node(NodeInfo n) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("node", n.name());
    m.put("zone", n.labels().getOrDefault(ZONE, ""));
    m.put("unschedulable", n.unschedulable());
    m.put(
        "taints",
        n.taints().stream()
            .map(
                t ->
                    t.getKey()
                        + (t.getValue() == null || t.getValue().isEmpty() ? "" : "=" + t.getValue())
                        + ":"
                        + t.getEffect())
            .toList());
    m.put("allocatable", resources(n.allocatable(), (int) n.allocatable().allowedPodNumber()));
    m.put("requested", resources(n.requested(), n.pods().size()));
    m.put("pods", n.pods().stream().map(PodInfo::key).sorted().toList());
    return m;
  }

  private static Map<String, Object> resources(Resource r, int pods) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("milliCpu", r.milliCpu());
    m.put("memory", r.memory());
    if (pods >= 0) {
      m.put("pods", pods);
    }
    return m;
  }

  /**
   * A whole-number query parameter in [min, max], or {@code fallback} when absent; anything else is
   * a 400.
   */
  private static int parameter(String name, String value, int min, int max, int fallback) {
    if (value == null || value.isEmpty()) {
      return fallback;
    }
    try {
      int v = Integer.parseInt(value);
      if (v >= min && v <= max) {
        return v;
      }
    } catch (NumberFormatException e) {
      // answered below
    }
    throw new BadRequestException(
        "query parameter \""
            + name
            + "\": must be a whole number from "
            + min
            + " to "
            + max
            + ", not \""
            + value
            + "\"");
  }
}
