package io.schedext.plugins.volumebinding;

import io.schedext.cache.Snapshot;
import io.schedext.framework.CycleState;
import io.schedext.framework.NodeInfo;
import io.schedext.framework.PodInfo;
import io.schedext.framework.PreFilterResult;
import io.schedext.framework.Status;
import io.schedext.framework.runtime.Framework;
import java.util.List;

/**
 * One scheduling attempt of a pod on a chosen node through a framework, as the extender's bind verb
 * runs it: PreFilter and Filter on that node, then Reserve and PreBind on the pod assigned to it,
 * and Unreserve when either fails.
 */
final class BindCycle {

  private BindCycle() {}

  /** The first non-success status of the attempt, or success. */
  static Status run(Framework fw, PodInfo pod, NodeInfo node, List<NodeInfo> nodes) {
    CycleState state = fw.newCycleState(Snapshot.of(nodes));
    PreFilterResult pre = fw.runPreFilterPlugins(state, pod);
    if (!pre.status().isSuccess()) {
      return pre.status();
    }
    Status fit = fw.runFilterPlugins(state, pod, node);
    if (!fit.isSuccess()) {
      return fit;
    }
    PodInfo assumed = pod.assignedTo(node.name());
    Status s = fw.runReservePluginsReserve(state, assumed, node.name());
    if (s.isSuccess()) {
      s = fw.runPreBindPlugins(state, assumed, node.name());
    }
    if (!s.isSuccess()) {
      fw.runReservePluginsUnreserve(state, assumed, node.name());
    }
    return s;
  }
}
