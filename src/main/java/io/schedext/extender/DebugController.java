package io.schedext.extender;

import io.schedext.cache.CacheDebugger;
import io.schedext.cache.SchedulerCache;
import io.schedext.cache.Snapshot;
import io.schedext.cluster.ClusterSource;
import io.schedext.framework.ExtensionPoint;
import io.schedext.framework.NodeInfo;
import io.schedext.framework.PodInfo;
import io.schedext.framework.Resource;
import io.schedext.framework.WaitingPods;
import io.schedext.framework.runtime.Framework;
import io.schedext.framework.runtime.Frameworks;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RestController;

/**
 * Read-only views of what the extender believes: {@code GET /debug/cache} (summary), {@code GET
 * /debug/cache/nodes/{name}} (one node's aggregation), {@code GET /debug/waiting-pods} (pods held
 * at Permit) and {@code GET /debug/config} (the effective profiles).
 */
@RestController
class DebugController {

  private final SchedulerCache cache;
  private final CacheDebugger debugger;
  private final ClusterSource source;
  private final WaitingPods waitingPods;
  private final WireCodec codec;
  private final Clock clock;
  private final Frameworks frameworks;

  DebugController(
      SchedulerCache cache,
      ClusterSource source,
      WaitingPods waitingPods,
      WireCodec codec,
      Clock clock,
      Frameworks frameworks) {
    this.cache = cache;
    this.debugger = new CacheDebugger(cache);
    this.source = source;
    this.waitingPods = waitingPods;
    this.codec = codec;
    this.clock = clock;
    this.frameworks = frameworks;
  }

  @GetMapping("/debug/cache")
  ResponseEntity<byte[]> summary() {
    Snapshot s = cache.snapshot();
    Map<String, Object> out = new LinkedHashMap<>();
    out.put("source", source.describe());
    out.put("ready", source.isReady());
    out.put("generation", s.generation());
    out.put("nodes", cache.nodeCount());
    out.put("pods", cache.podCount());
    out.put("ghostNodes", debugger.ghostNodes());
    out.put("assumedPodTtl", cache.ttl().toString());
    out.put("selfCheck", debugger.checkConsistency());
    Instant now = clock.instant();
    List<Map<String, Object>> assumed = new ArrayList<>();
    debugger
        .assumedPods()
        .forEach(
            (pod, deadline) -> {
              Map<String, Object> a = new LinkedHashMap<>();
              a.put("pod", pod.key());
              a.put("uid", pod.uid());
              a.put("node", pod.nodeName());
              a.put("bindingFinished", deadline != null);
              a.put(
                  "expiresIn",
                  deadline == null ? null : Duration.between(now, deadline).toString());
              assumed.add(a);
            });
    out.put("assumedPods", assumed);
    List<Map<String, Object>> nodes = new ArrayList<>();
    for (NodeInfo n : s.list()) {
      Map<String, Object> m = new LinkedHashMap<>();
      m.put("node", n.name());
      m.put("pods", n.pods().size());
      m.put("requestedMilliCpu", n.requested().milliCpu());
      m.put("allocatableMilliCpu", n.allocatable().milliCpu());
      m.put("requestedMemory", n.requested().memory());
      m.put("allocatableMemory", n.allocatable().memory());
      nodes.add(m);
    }
    out.put("nodeList", nodes);
    return codec.response(200, out);
  }

  @GetMapping("/debug/cache/nodes/{name}")
  ResponseEntity<byte[]> node(@PathVariable String name) {
    NodeInfo n = cache.snapshot().get(name);
    if (n == null) {
      return codec.response(
          404, Map.of("Error", "node \"" + name + "\" is not in the extender's cache"));
    }
    Map<String, Object> out = new LinkedHashMap<>();
    out.put("node", n.name());
    out.put("generation", n.generation());
    out.put("labels", new TreeMap<>(n.labels()));
    out.put(
        "taints",
        n.taints().stream()
            .map(
                t ->
                    t.getKey()
                        + "="
                        + (t.getValue() == null ? "" : t.getValue())
                        + ":"
                        + t.getEffect())
            .toList());
    out.put("unschedulable", n.unschedulable());
    out.put("allocatable", resource(n.allocatable()));
    out.put("requested", resource(n.requested()));
    out.put("nonZeroRequested", resource(n.nonZeroRequested()));
    List<Map<String, Object>> pods = new ArrayList<>();
    for (PodInfo p : n.pods()) {
      Map<String, Object> m = new LinkedHashMap<>();
      m.put("pod", p.key());
      m.put("uid", p.uid());
      m.put("assumed", cache.isAssumedPod(p.uid()));
      m.put("priority", p.priority());
      m.put("requests", resource(p.request()));
      pods.add(m);
    }
    out.put("pods", pods);
    out.put("podsWithAffinity", n.podsWithAffinity().stream().map(PodInfo::key).toList());
    out.put(
        "podsWithRequiredAntiAffinity",
        n.podsWithRequiredAntiAffinity().stream().map(PodInfo::key).toList());
    Map<String, List<String>> ports = new TreeMap<>();
    n.usedPorts()
        .entries()
        .forEach(
            (ip, set) ->
                ports.put(
                    ip, set.stream().map(pp -> pp.protocol() + "/" + pp.port()).sorted().toList()));
    out.put("usedPorts", ports);
    out.put("pvcRefCounts", new TreeMap<>(n.pvcRefCounts()));
    out.put("images", new TreeMap<>(n.imageStates()));
    return codec.response(200, out);
  }

  @GetMapping("/debug/cache/compare")
  ResponseEntity<byte[]> compare() {
    Map<String, Object> out = new LinkedHashMap<>();
    out.put("source", source.describe());
    try {
      List<String> diffs = source.compare();
      out.put("equal", diffs.isEmpty());
      out.put("differences", diffs);
      return codec.response(200, out);
    } catch (RuntimeException e) {
      out.put("Error", "cannot read the source: " + e.getMessage());
      return codec.response(503, out);
    }
  }

  @GetMapping("/debug/waiting-pods")
  ResponseEntity<byte[]> waiting() {
    List<Map<String, Object>> out = new ArrayList<>();
    waitingPods
        .list()
        .forEach(
            w -> {
              Map<String, Object> m = new LinkedHashMap<>();
              m.put("pod", w.pod().key());
              m.put("uid", w.pod().uid());
              m.put("node", w.nodeName());
              m.put("waitingFor", w.pendingPlugins());
              m.put("since", w.since().toString());
              out.add(m);
            });
    return codec.response(200, out);
  }

  /**
   * Every profile as its framework runs it: the plugins of each extension point in run order (keyed
   * as in a KubeSchedulerConfiguration), the score weights, and each plugin's effective args in
   * pluginConfig form.
   */
  @GetMapping("/debug/config")
  ResponseEntity<byte[]> config() {
    List<Map<String, Object>> profiles = new ArrayList<>();
    for (Framework fw : frameworks.all()) {
      Map<String, Object> p = new LinkedHashMap<>();
      p.put("schedulerName", fw.profileName());
      p.put("servesScheduler", fw.profileName().equals(frameworks.defaultName()));
      Map<String, List<String>> plugins = new LinkedHashMap<>();
      for (ExtensionPoint point : ExtensionPoint.values()) {
        String key =
            Character.toLowerCase(point.upstreamName().charAt(0))
                + point.upstreamName().substring(1);
        plugins.put(key, fw.pluginNames(point));
      }
      p.put("plugins", plugins);
      p.put("scoreWeights", fw.scoreWeights());
      List<Map<String, Object>> pluginConfig = new ArrayList<>();
      new TreeMap<>(fw.pluginArgs())
          .forEach(
              (name, args) -> {
                Map<String, Object> c = new LinkedHashMap<>();
                c.put("name", name);
                c.put("args", args);
                pluginConfig.add(c);
              });
      p.put("pluginConfig", pluginConfig);
      profiles.add(p);
    }
    Map<String, Object> out = new LinkedHashMap<>();
    out.put("defaultProfile", frameworks.defaultName());
    out.put("profiles", profiles);
    return codec.response(200, out);
  }

  private static Map<String, Object> resource(Resource r) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("milliCpu", r.milliCpu());
    m.put("memory", r.memory());
    m.put("ephemeralStorage", r.ephemeralStorage());
    m.put("pods", r.allowedPodNumber());
    if (r.hasScalars()) {
      m.put("scalar", new TreeMap<>(r.scalarResources()));
    }
    return m;
  }
}
