package io.schedext.cluster;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.schedext.cache.SchedulerCache;
import io.schedext.framework.PodInfo;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The scheduler cache against the API server, as upstream's {@code debugger/comparer.go}: nodes and
 * the pods the pod events cache (assigned, not Succeeded/Failed) listed now, and how the cache
 * differs from them. For the debug view ({@code /debug/cache/compare}): each call lists every node
 * and pod, O(cluster). Thread-safe.
 */
final class CacheComparer {

  /**
   * How long each list of {@link #compare()} may take; never retried, so a debug call cannot hang
   * for minutes.
   */
  static final Duration COMPARE_TIMEOUT = Duration.ofSeconds(30);

  /**
   * Whole lists take longer than a lookup, but an unreachable API server fails the comparison once.
   */
  private final KubernetesClient listings;

  private final SchedulerCache cache;

  /** A comparer of {@code cache} with what {@code client}'s API server lists. */
  CacheComparer(KubernetesClient client, SchedulerCache cache) {
    this.listings = KubernetesClients.bounded(client, COMPARE_TIMEOUT);
    this.cache = cache;
  }

  /**
   * Lists nodes and non-terminal pods from the API server now and returns how the cache differs:
   * missing or extra nodes and pods, and pods on another node. Empty when they agree.
   */
  List<String> compare() {
    List<String> diffs = new ArrayList<>();
    Set<String> apiNodes = new HashSet<>();
    for (Node n : listings.nodes().list().getItems()) {
      apiNodes.add(n.getMetadata().getName());
    }
    Set<String> cacheNodes = new HashSet<>();
    cache.snapshot().list().forEach(n -> cacheNodes.add(n.name()));
    for (String n : apiNodes) {
      if (!cacheNodes.contains(n)) {
        diffs.add("node " + n + " is in the API but not in the cache");
      }
    }
    for (String n : cacheNodes) {
      if (!apiNodes.contains(n)) {
        diffs.add("node " + n + " is in the cache but not in the API");
      }
    }
    Map<String, Pod> apiPods = new HashMap<>();
    for (Pod p : listings.pods().inAnyNamespace().list().getItems()) {
      if (!ClusterEventHandlers.terminal(p) && ClusterEventHandlers.assigned(p)) {
        apiPods.put(p.getMetadata().getUid(), p);
      }
    }
    Map<String, PodInfo> cachePods = new HashMap<>();
    cache.pods().forEach(p -> cachePods.put(p.uid(), p));
    for (Pod p : apiPods.values()) {
      PodInfo c = cachePods.get(p.getMetadata().getUid());
      String key = p.getMetadata().getNamespace() + "/" + p.getMetadata().getName();
      if (c == null) {
        diffs.add(
            "pod "
                + key
                + " on "
                + p.getSpec().getNodeName()
                + " is in the API but not in the cache");
      } else if (!c.nodeName().equals(p.getSpec().getNodeName())) {
        diffs.add(
            "pod "
                + key
                + " is on "
                + p.getSpec().getNodeName()
                + " in the API but on "
                + c.nodeName()
                + " in the cache");
      }
    }
    for (PodInfo c : cachePods.values()) {
      if (!apiPods.containsKey(c.uid()) && !cache.isAssumedPod(c.uid())) {
        diffs.add("pod " + c.key() + " on " + c.nodeName() + " is in the cache but not in the API");
      }
    }
    return diffs;
  }
}
