package io.schedext.plugins.nodeports;

import static org.assertj.core.api.Assertions.assertThat;

import io.schedext.cluster.ObjectStore;
import io.schedext.framework.CycleState;
import io.schedext.framework.NodeInfo;
import io.schedext.framework.PodInfo;
import io.schedext.framework.Registry;
import io.schedext.framework.Status;
import io.schedext.framework.runtime.Framework;
import io.schedext.plugins.Names;
import io.schedext.testing.MakeNode;
import io.schedext.testing.MakePod;
import io.schedext.testing.TestFrameworks;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * NodePorts run by the framework: its Skip keeps the Filter from looking for state that was never
 * written.
 */
class NodePortsFrameworkTest {

  private final NodeInfo node =
      MakeNode.node()
          .name("n")
          .info(MakePod.pod().name("web").node("n").hostPort("TCP", "", 80).info());

  private Framework framework() {
    Registry registry = new Registry().register(Names.NODE_PORTS, NodePorts::create);
    return TestFrameworks.framework(
        registry, new ObjectStore(), List.of(Names.NODE_PORTS), Map.of());
  }

  @Test
  void aPodWithoutHostPortsPassesWithoutFiltering() {
    Framework fw = framework();
    PodInfo pod = MakePod.pod().name("p").info();
    CycleState state = TestFrameworks.cycleState(List.of(node));
    assertThat(fw.runPreFilterPlugins(state, pod).status()).isEqualTo(Status.success());
    assertThat(fw.runFilterPlugins(state, pod, node)).isEqualTo(Status.success());
  }

  @Test
  void aPodWantingATakenPortIsRejectedAsUnschedulable() {
    Framework fw = framework();
    PodInfo pod = MakePod.pod().name("p").hostPort("TCP", "10.0.0.1", 80).info();
    CycleState state = TestFrameworks.cycleState(List.of(node));
    assertThat(fw.runPreFilterPlugins(state, pod).status()).isEqualTo(Status.success());
    assertThat(fw.runFilterPlugins(state, pod, node))
        .isEqualTo(Status.unschedulable(NodePorts.ERR_REASON).withPlugin(Names.NODE_PORTS));
  }
}
