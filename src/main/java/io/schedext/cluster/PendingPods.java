package io.schedext.cluster;

import io.fabric8.kubernetes.api.model.Pod;
import io.schedext.framework.PodInfo;
import io.schedext.framework.PodNominator;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The pods not assigned to a node yet, as the pod events last showed them (by UID), and among them
 * those nominated to a node (by node): kube-scheduler's queue keeps the pending pods and their
 * nominations, the extender only sees them through the watch. Read by bind and explain (pod
 * lookups), the volume writer (is a pod still pending) and Filter (the nominated pods of a node).
 * Thread-safe: concurrent maps, written by the pod event handler only.
 */
final class PendingPods {

  private final Map<String, Pod> byUid = new ConcurrentHashMap<>();
  private final Map<String, Map<String, PodInfo>> nominated = new ConcurrentHashMap<>();

  /**
   * Keeps {@code pod} as pending, replacing the version with its UID and that version's nomination,
   * and as nominated to the node its status names, if any.
   *
   * @throws IllegalArgumentException when {@code pod} names a nominated node but cannot be read as
   *     a {@link PodInfo}; it is then kept as pending but not nominated
   */
  void add(Pod pod) {
    String uid = pod.getMetadata().getUid();
    Pod previous = byUid.put(uid, pod);
    if (previous != null) {
      unnominate(previous);
    }
    String node = pod.getStatus() == null ? null : pod.getStatus().getNominatedNodeName();
    if (node != null && !node.isEmpty()) {
      PodInfo info = PodInfo.of(pod);
      nominated.compute(
          node,
          (k, m) -> {
            Map<String, PodInfo> pods = m == null ? new ConcurrentHashMap<>() : m;
            pods.put(uid, info);
            return pods;
          });
    }
  }

  /** Forgets the pending pod with {@code pod}'s UID and its nomination; nothing if none. */
  void remove(Pod pod) {
    Pod previous = byUid.remove(pod.getMetadata().getUid());
    if (previous != null) {
      unnominate(previous);
    }
  }

  private void unnominate(Pod pod) {
    String node = pod.getStatus() == null ? null : pod.getStatus().getNominatedNodeName();
    if (node != null) {
      // Drop a node's entry with its last pod, so "nothing nominated" stays a cheap check for
      // filters.
      nominated.computeIfPresent(
          node,
          (k, m) -> {
            m.remove(pod.getMetadata().getUid());
            return m.isEmpty() ? null : m;
          });
    }
  }

  /** The pending pod with this UID, or null. */
  Pod get(String uid) {
    return byUid.get(uid);
  }

  /** True when a pod with this namespace and name is pending; O(pending pods). */
  boolean contains(String namespace, String name) {
    for (Pod p : byUid.values()) {
      if (namespace.equals(p.getMetadata().getNamespace())
          && name.equals(p.getMetadata().getName())) {
        return true;
      }
    }
    return false;
  }

  /** The pending pods (a copy). */
  List<Pod> list() {
    return new ArrayList<>(byUid.values());
  }

  /**
   * The nominated pods of each node, as a {@link PodNominator}: a node's list is a copy; "nothing
   * nominated anywhere" is one map's {@code isEmpty}.
   */
  PodNominator nominator() {
    return PodNominator.of(
        node -> {
          Map<String, PodInfo> m = nominated.get(node);
          return m == null ? List.of() : List.copyOf(m.values());
        },
        nominated::isEmpty);
  }
}
