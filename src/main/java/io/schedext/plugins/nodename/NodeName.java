package io.schedext.plugins.nodename;

import io.schedext.framework.CycleState;
import io.schedext.framework.FilterPlugin;
import io.schedext.framework.Handle;
import io.schedext.framework.NodeInfo;
import io.schedext.framework.PluginArgs;
import io.schedext.framework.PodInfo;
import io.schedext.framework.Status;
import io.schedext.plugins.Names;

/**
 * Checks that a pod with {@code spec.nodeName} set lands on that node only. A Filter plugin only,
 * as upstream's: a pod without a node name passes every node's Filter.
 */
public final class NodeName implements FilterPlugin {

  /** The reason when the pod names another node. */
  public static final String ERR_REASON = "node(s) didn't match the requested node name";

  private static final Status MISMATCH =
      Status.unresolvable(ERR_REASON).withPlugin(Names.NODE_NAME);

  @Override
  public String name() {
    return Names.NODE_NAME;
  }

  @Override
  public Status filter(CycleState state, PodInfo pod, NodeInfo node) {
    if (pod.nodeName().isEmpty() || pod.nodeName().equals(node.name())) {
      return Status.success();
    }
    return MISMATCH;
  }

  /** The factory registered under {@link Names#NODE_NAME}. */
  public static NodeName create(PluginArgs args, Handle handle) {
    return new NodeName();
  }
}
