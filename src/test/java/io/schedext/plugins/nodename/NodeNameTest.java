package io.schedext.plugins.nodename;

import static org.assertj.core.api.Assertions.assertThat;

import io.schedext.framework.CycleState;
import io.schedext.framework.NodeInfo;
import io.schedext.framework.PodInfo;
import io.schedext.framework.PreFilterPlugin;
import io.schedext.framework.Status;
import io.schedext.plugins.Names;
import io.schedext.testing.MakeNode;
import io.schedext.testing.MakePod;
import io.schedext.testing.TestFrameworks;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

class NodeNameTest {

  record Case(String name, PodInfo pod, NodeInfo node, Status want) {
    @Override
    public String toString() {
      return name;
    }
  }

  static Stream<Case> cases() {
    NodeInfo foo = MakeNode.node().name("foo").info();
    return Stream.of(
        new Case(
            "a pod without a node name fits any node",
            MakePod.pod().name("p").info(),
            foo,
            Status.success()),
        new Case(
            "a pod naming this node fits",
            MakePod.pod().name("p").node("foo").info(),
            foo,
            Status.success()),
        new Case(
            "a pod naming another node is rejected as unresolvable",
            MakePod.pod().name("p").node("bar").info(),
            foo,
            Status.unresolvable(NodeName.ERR_REASON).withPlugin(Names.NODE_NAME)));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void filter(Case c) {
    NodeName plugin = NodeName.create(null, null);
    CycleState state = TestFrameworks.cycleState(List.of(c.node()));
    assertThat(plugin.filter(state, c.pod(), c.node())).isEqualTo(c.want());
  }

  @Test
  void isAFilterPluginOnly() {
    assertThat(NodeName.create(null, null)).isNotInstanceOf(PreFilterPlugin.class);
  }
}
