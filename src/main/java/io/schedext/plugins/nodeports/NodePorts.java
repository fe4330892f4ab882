package io.schedext.plugins.nodeports;

import io.schedext.framework.CycleState;
import io.schedext.framework.FilterPlugin;
import io.schedext.framework.Handle;
import io.schedext.framework.HostPortInfo;
import io.schedext.framework.NodeInfo;
import io.schedext.framework.PluginArgs;
import io.schedext.framework.PodInfo;
import io.schedext.framework.PreFilterPlugin;
import io.schedext.framework.PreFilterResult;
import io.schedext.framework.StateData;
import io.schedext.framework.Status;
import io.schedext.plugins.Names;
import java.util.List;

/**
 * Checks that the host ports the pod asks for (regular containers and restartable init containers)
 * are free on the node. Stateless and thread-safe.
 */
public final class NodePorts implements PreFilterPlugin, FilterPlugin {

  /** The CycleState key of the pod's wanted host ports, written in PreFilter. */
  static final String PRE_FILTER_STATE_KEY = "PreFilter" + Names.NODE_PORTS;

  /** The reason when a wanted host port is taken on the node. */
  public static final String ERR_REASON =
      "node(s) didn't have free ports for the requested pod ports";

  private static final Status CONFLICT =
      Status.unschedulable(ERR_REASON).withPlugin(Names.NODE_PORTS);

  /** The pod's wanted host ports; unaffected by AddPod/RemovePod, so copies share it. */
  record PreFilterState(List<PodInfo.HostPort> wantPorts) implements StateData {
    @Override
    public StateData copy() {
      return this;
    }
  }

  @Override
  public String name() {
    return Names.NODE_PORTS;
  }

  /** Skips the Filter for a pod that wants no host port; otherwise records the wanted ports. */
  @Override
  public PreFilterResult preFilter(CycleState state, PodInfo pod) {
    List<PodInfo.HostPort> ports = pod.hostPorts();
    if (ports.isEmpty()) {
      return PreFilterResult.of(Status.skip());
    }
    state.write(PRE_FILTER_STATE_KEY, new PreFilterState(ports));
    return PreFilterResult.success();
  }

  /**
   * Rejects the node (preemption may help) when any wanted port conflicts with one in use there.
   */
  @Override
  public Status filter(CycleState state, PodInfo pod, NodeInfo node) {
    List<PodInfo.HostPort> wanted =
        state.read(PRE_FILTER_STATE_KEY, PreFilterState.class).wantPorts();
    return fitsPorts(wanted, node.usedPorts()) ? Status.success() : CONFLICT;
  }

  /** True when none of the pod's host ports conflicts with the ports in use on the node. */
  public static boolean fits(PodInfo pod, NodeInfo node) {
    return fitsPorts(pod.hostPorts(), node.usedPorts());
  }

  private static boolean fitsPorts(List<PodInfo.HostPort> wanted, HostPortInfo inUse) {
    for (PodInfo.HostPort p : wanted) {
      if (inUse.checkConflict(p.hostIp(), p.protocol(), p.port())) {
        return false;
      }
    }
    return true;
  }

  /** The factory registered under {@link Names#NODE_PORTS}. */
  public static NodePorts create(PluginArgs args, Handle handle) {
    return new NodePorts();
  }
}
