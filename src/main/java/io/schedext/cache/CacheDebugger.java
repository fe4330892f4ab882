package io.schedext.cache;

import io.schedext.cache.NodeEntries.Item;
import io.schedext.cache.SchedulerCache.PodState;
import io.schedext.framework.NodeInfo;
import io.schedext.framework.PodInfo;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What the cache holds, for people and checks rather than for scheduling, as upstream's {@code
 * internal/cache/debugger}: the cache checked against itself, and its pods, assumed pods, ghost
 * entries and orders listed. Every method takes the cache's lock for O(pods) or O(nodes) time, so
 * none belongs on a request path. Thread-safe.
 */
public final class CacheDebugger {

  private final SchedulerCache cache;

  /** The debugger of {@code cache}. */
  public CacheDebugger(SchedulerCache cache) {
    this.cache = cache;
  }

  /**
   * Checks the cache against itself: every node's aggregate equals the sum over its pods, every pod
   * state points at a node entry holding that pod and vice versa, assumed pods have states, and the
   * node tree counts the nodes that have a Node object. Returns the inconsistencies found (empty
   * when none).
   */
  public List<String> checkConsistency() {
    return cache.withLock(this::checkLocked);
  }

  private List<String> checkLocked() {
    List<String> problems = new ArrayList<>();
    int podsOnNodes = 0;
    int withNode = 0;
    int[] counts = new int[2];
    cache.nodes.forEach(
        (name, item) -> {
          if (item.info.node() != null) {
            counts[0]++;
          }
          counts[1] += item.info.pods().size();
          checkNode(name, item.info, problems);
        });
    withNode = counts[0];
    podsOnNodes = counts[1];
    if (podsOnNodes != cache.podStates.size()) {
      problems.add(cache.podStates.size() + " pod states but " + podsOnNodes + " pods on nodes");
    }
    for (String uid : cache.assumedPods) {
      if (!cache.podStates.containsKey(uid)) {
        problems.add("assumed pod " + uid + " has no pod state");
      }
    }
    if (withNode != cache.nodeTree.numNodes()) {
      problems.add(
          "the node tree counts "
              + cache.nodeTree.numNodes()
              + " nodes but "
              + withNode
              + " have a Node object");
    }
    return problems;
  }

  /** Checks one node entry's aggregates and its pods' states. */
  private void checkNode(String name, NodeInfo info, List<String> problems) {
    NodeInfo recomputed = new NodeInfo();
    for (PodInfo p : info.pods()) {
      recomputed.addPod(p);
      PodState ps = cache.podStates.get(p.uid());
      if (ps == null) {
        problems.add("pod " + p.key() + " is on node " + name + " but has no pod state");
      } else if (!ps.pod.nodeName().equals(name)) {
        problems.add(
            "pod " + p.key() + " is on node " + name + " but its state says " + ps.pod.nodeName());
      }
    }
    if (!recomputed.requested().equals(info.requested())) {
      problems.add(
          "node "
              + name
              + " requested "
              + info.requested()
              + " but its pods sum to "
              + recomputed.requested());
    }
    if (!recomputed.nonZeroRequested().equals(info.nonZeroRequested())) {
      problems.add(
          "node "
              + name
              + " non-zero requested "
              + info.nonZeroRequested()
              + " but its pods sum to "
              + recomputed.nonZeroRequested());
    }
    if (!recomputed.pvcRefCounts().equals(info.pvcRefCounts())) {
      problems.add(
          "node "
              + name
              + " PVC reference counts "
              + info.pvcRefCounts()
              + " but its pods give "
              + recomputed.pvcRefCounts());
    }
    if (recomputed.usedPorts().size() != info.usedPorts().size()) {
      problems.add(
          "node "
              + name
              + " has "
              + info.usedPorts().size()
              + " used host ports but its pods use "
              + recomputed.usedPorts().size());
    }
    if (recomputed.podsWithAffinity().size() != info.podsWithAffinity().size()
        || recomputed.podsWithRequiredAntiAffinity().size()
            != info.podsWithRequiredAntiAffinity().size()) {
      problems.add("node " + name + " affinity pod lists do not match its pods");
    }
    if (info.node() == null && info.pods().isEmpty()) {
      problems.add("node entry " + name + " has neither a Node nor pods");
    }
  }

  /**
   * The assumed pods with when their binding-finished deadline will pass (null = no deadline yet).
   */
  public Map<PodInfo, Instant> assumedPods() {
    return cache.withLock(
        () -> {
          Map<PodInfo, Instant> out = new LinkedHashMap<>();
          for (String key : cache.assumedPods) {
            PodState ps = cache.podStates.get(key);
            if (ps != null) {
              out.put(ps.pod, ps.deadline);
            }
          }
          return out;
        });
  }

  /** Names of node entries that have no Node object but still hold pods. */
  public List<String> ghostNodes() {
    return cache.withLock(
        () -> {
          List<String> out = new ArrayList<>();
          cache.nodes.forEach(
              (name, item) -> {
                if (item.info.node() == null) {
                  out.add(name);
                }
              });
          return out;
        });
  }

  /** A copy of the cached entry for {@code name} (ghost entries included), or null. */
  NodeInfo nodeInfo(String name) {
    return cache.withLock(
        () -> {
          Item n = cache.nodes.get(name);
          return n == null ? null : n.info.snapshotCopy();
        });
  }

  /** Names of every node entry, most recently changed first (ghosts included). */
  List<String> recencyOrder() {
    return cache.withLock(
        () -> {
          List<String> out = new ArrayList<>();
          for (Item n = cache.nodes.head(); n != null; n = n.next) {
            out.add(n.info.node() == null ? ghostName(n) : n.info.name());
          }
          return out;
        });
  }

  private String ghostName(Item item) {
    String[] name = {"?"};
    cache.nodes.forEach(
        (n, it) -> {
          if (it == item) {
            name[0] = n;
          }
        });
    return name[0];
  }

  /** The node names in NodeTree order. */
  List<String> nodeTreeOrder() {
    return cache.withLock(cache.nodeTree::list);
  }

  /**
   * The live (mutable) node info of {@code name}, for tests that need to corrupt it; null when
   * absent.
   */
  NodeInfo liveNodeInfo(String name) {
    Item it = cache.nodes.get(name);
    return it == null ? null : it.info;
  }
}
