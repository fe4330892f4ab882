package io.schedext.plugins.nodeunschedulable;

import io.fabric8.kubernetes.api.model.Taint;
import io.fabric8.kubernetes.api.model.TaintBuilder;
import io.schedext.framework.CycleState;
import io.schedext.framework.FilterPlugin;
import io.schedext.framework.Handle;
import io.schedext.framework.NodeInfo;
import io.schedext.framework.PluginArgs;
import io.schedext.framework.PodInfo;
import io.schedext.framework.Status;
import io.schedext.kube.Taints;
import io.schedext.plugins.Names;

/**
 * Keeps pods off nodes with {@code spec.unschedulable=true} (cordoned nodes), unless the pod
 * tolerates the {@code node.kubernetes.io/unschedulable:NoSchedule} taint. Stateless and
 * thread-safe.
 */
public final class NodeUnschedulable implements FilterPlugin {

  /** The reason when the node object is missing. */
  public static final String ERR_REASON_UNKNOWN_CONDITION = "node(s) had unknown conditions";

  /** The reason when the node is cordoned and the pod does not tolerate it. */
  public static final String ERR_REASON_UNSCHEDULABLE = "node(s) were unschedulable";

  private static final Status UNKNOWN_CONDITION =
      Status.unresolvable(ERR_REASON_UNKNOWN_CONDITION).withPlugin(Names.NODE_UNSCHEDULABLE);
  private static final Status UNSCHEDULABLE =
      Status.unresolvable(ERR_REASON_UNSCHEDULABLE).withPlugin(Names.NODE_UNSCHEDULABLE);

  // A toleration of this taint also tolerates spec.unschedulable; never mutated.
  private static final Taint UNSCHEDULABLE_TAINT =
      new TaintBuilder()
          .withKey(Taints.UNSCHEDULABLE_TAINT_KEY)
          .withEffect(Taints.EFFECT_NO_SCHEDULE)
          .build();

  @Override
  public String name() {
    return Names.NODE_UNSCHEDULABLE;
  }

  /**
   * Rejects a cordoned node unless the pod tolerates the unschedulable taint. A node-less entry is
   * rejected with "unknown conditions" (the framework never filters one; upstream dropped that
   * guard after v1.26).
   */
  @Override
  public Status filter(CycleState state, PodInfo pod, NodeInfo node) {
    if (node == null || node.node() == null) {
      return UNKNOWN_CONDITION;
    }
    if (!node.unschedulable()) {
      return Status.success();
    }
    var spec = pod.pod().getSpec();
    if (spec != null && Taints.anyTolerates(spec.getTolerations(), UNSCHEDULABLE_TAINT)) {
      return Status.success();
    }
    return UNSCHEDULABLE;
  }

  /** The factory registered under {@link Names#NODE_UNSCHEDULABLE}. */
  public static NodeUnschedulable create(PluginArgs args, Handle handle) {
    return new NodeUnschedulable();
  }
}
