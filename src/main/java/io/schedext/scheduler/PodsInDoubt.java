package io.schedext.scheduler;

import io.schedext.cache.SchedulerCache;
import io.schedext.framework.PodInfo;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The pods whose last Binding has an unknown outcome (no answer in time, or the connection lost
 * after it was sent), with the node each stays assumed on until the watch shows where it went or
 * the assumed pod expires. The binding cycle records them; the scheduling cycle asks, so that such
 * a pod is offered only the node it may already be on, where its own assumed copy does not take the
 * room it needs. Without that, kube-scheduler's retry of the pod found every node full (its copy
 * holding its own room), left it waiting for a cluster event, and the assumed pod's expiry is none:
 * the pod stayed pending for minutes. Thread-safe.
 */
public final class PodsInDoubt {

  /** The size at which entries of pods no longer assumed are dropped. */
  private static final int PRUNE_AT = 1024;

  private final SchedulerCache cache;
  private final ConcurrentHashMap<String, String> nodes = new ConcurrentHashMap<>();

  /** Pods in doubt among those assumed in {@code cache}. */
  public PodsInDoubt(SchedulerCache cache) {
    this.cache = cache;
  }

  /** A record that never holds a pod, for scheduling cycles of calls that never bind. */
  public static PodsInDoubt none() {
    return new PodsInDoubt(null);
  }

  /**
   * The reason a pod in doubt on {@code node} is not bound, nor offered, anywhere else; {@code key}
   * is the pod's {@code namespace/name}.
   */
  public static String elsewhere(String key, String node) {
    return "pod "
        + key
        + " stays assumed on node "
        + node
        + ": the outcome of binding it there is unknown until the watch shows where it went or the"
        + " assumed pod expires";
  }

  /** Records that the pod with {@code uid} stays assumed on {@code node}, its Binding in doubt. */
  void remember(String uid, String node) {
    if (nodes.size() >= PRUNE_AT) {
      nodes.keySet().removeIf(u -> !cache.isAssumedPod(u));
    }
    nodes.put(uid, node);
  }

  /** Forgets the doubt about the pod with {@code uid} (bound again, or failed). */
  void forget(String uid) {
    nodes.remove(uid);
  }

  /**
   * The node the pod with {@code uid} stays assumed on while the outcome of binding it there is
   * unknown, or null: never recorded, or no longer assumed there (confirmed by the watch, moved,
   * expired, forgotten). Costs one map lookup when no pod is in doubt.
   */
  public String nodeOf(String uid) {
    String node = nodes.get(uid);
    if (node == null) {
      return null;
    }
    PodInfo cached = cache.getPod(uid);
    return cached != null && node.equals(cached.nodeName()) && cache.isAssumedPod(uid)
        ? node
        : null;
  }
}
