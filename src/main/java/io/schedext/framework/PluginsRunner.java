package io.schedext.framework;

import java.util.Set;

/**
 * The part of a profile's framework that plugins may run themselves, as upstream's {@code
 * PluginsRunner}: plugins that simulate (preemption) run PreFilter, its AddPod/RemovePod extensions
 * and Filter on copies of state and node. The runtime's framework implements it; plugins see it
 * through {@link Handle#framework()}. Thread-safe.
 */
public interface PluginsRunner {

  /** The name of the profile whose plugins this runs. */
  String profileName();

  /** The handle the profile's plugins were given. */
  Handle handle();

  /** A fresh cycle state over {@code snapshot}, for one scheduling cycle or simulation. */
  CycleState newCycleState(NodeInfoLister snapshot);

  /**
   * Runs the PreFilter plugins in order and merges their node narrowings, as upstream: a rejection
   * keeps its code, any other failure is an Error, and plugins answering Skip have their Filter
   * skipped in this cycle. The result names the plugins that narrowed the nodes ({@link
   * PreFilterResult#narrowedBy()}).
   */
  PreFilterResult runPreFilterPlugins(CycleState state, PodInfo pod);

  /** Calls every AddPod extension (of plugins not skipped); the first failure becomes an Error. */
  Status runPreFilterExtensionAddPod(
      CycleState state, PodInfo pod, PodInfo podToAdd, NodeInfo node);

  /**
   * Calls every RemovePod extension (of plugins not skipped); the first failure becomes an Error.
   */
  Status runPreFilterExtensionRemovePod(
      CycleState state, PodInfo pod, PodInfo podToRemove, NodeInfo node);

  /**
   * Removes from {@code node} the pods of {@code uids} still on it, with the RemovePod extensions
   * of {@code pod}'s cycle on {@code state}; both are the caller's copies. For pods kube-scheduler
   * has already deleted while this cache may still hold them. A pod terminating gracefully stays:
   * it holds its resources in kube-scheduler's view as well until it is gone; one deleted with no
   * grace period is gone, whose deletion the API server writes as an update and then a delete. The
   * first extension that fails stops it, with its status.
   */
  default Status removeGonePods(CycleState state, PodInfo pod, NodeInfo node, Set<String> uids) {
    for (String uid : uids) {
      PodInfo gone = null;
      for (PodInfo p : node.pods()) {
        if (p.uid().equals(uid)) {
          gone = p;
          break;
        }
      }
      if (gone == null || (gone.terminating() && !deletedAtOnce(gone))) {
        continue;
      }
      node.removePod(gone);
      Status s = runPreFilterExtensionRemovePod(state, pod, gone, node);
      if (!s.isSuccess()) {
        return s;
      }
    }
    return Status.success();
  }

  /**
   * Filters one node taking nominated pods into account, as upstream: when pods of equal or higher
   * priority are nominated to the node, the filters must pass both with them added (on copies of
   * state and node) and without.
   */
  Status runFilterPluginsWithNominatedPods(CycleState state, PodInfo pod, NodeInfo node);

  /** Whether {@code p} is being deleted with no grace period (gone at once). */
  private static boolean deletedAtOnce(PodInfo p) {
    Long grace = p.pod().getMetadata().getDeletionGracePeriodSeconds();
    return grace != null && grace == 0;
  }
}
