package io.schedext.plugins.nodeunschedulable;

import static org.assertj.core.api.Assertions.assertThat;

import io.schedext.framework.CycleState;
import io.schedext.framework.NodeInfo;
import io.schedext.framework.PodInfo;
import io.schedext.framework.Status;
import io.schedext.plugins.Names;
import io.schedext.testing.MakeNode;
import io.schedext.testing.MakePod;
import io.schedext.testing.TestFrameworks;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

class NodeUnschedulableTest {

  private static final String KEY = "node.kubernetes.io/unschedulable";
  private static final Status UNSCHEDULABLE =
      Status.unresolvable(NodeUnschedulable.ERR_REASON_UNSCHEDULABLE)
          .withPlugin(Names.NODE_UNSCHEDULABLE);

  record Case(String name, PodInfo pod, NodeInfo node, Status want) {
    @Override
    public String toString() {
      return name;
    }
  }

  static Stream<Case> cases() {
    NodeInfo cordoned = MakeNode.node().name("n").unschedulable(true).info();
    NodeInfo normal = MakeNode.node().name("n").unschedulable(false).info();
    return Stream.of(
        new Case(
            "a pod without tolerations is kept off a cordoned node",
            MakePod.pod().name("p").info(),
            cordoned,
            UNSCHEDULABLE),
        new Case(
            "a pod without tolerations fits a schedulable node",
            MakePod.pod().name("p").info(),
            normal,
            Status.success()),
        new Case(
            "a node without spec.unschedulable counts as schedulable",
            MakePod.pod().name("p").info(),
            MakeNode.node().name("n").info(),
            Status.success()),
        new Case(
            "a pod tolerating the unschedulable taint with NoSchedule fits a cordoned node",
            MakePod.pod().name("p").toleration(KEY, null, null, "NoSchedule").info(),
            cordoned,
            Status.success()),
        new Case(
            "a pod tolerating the unschedulable key for every effect fits a cordoned node",
            MakePod.pod().name("p").toleration(KEY, "Exists", null, null).info(),
            cordoned,
            Status.success()),
        new Case(
            "a pod tolerating every taint fits a cordoned node",
            MakePod.pod().name("p").toleration(null, "Exists", null, null).info(),
            cordoned,
            Status.success()),
        new Case(
            "a toleration of the unschedulable key for NoExecute only does not help",
            MakePod.pod().name("p").toleration(KEY, "Exists", null, "NoExecute").info(),
            cordoned,
            UNSCHEDULABLE),
        new Case(
            "a toleration expecting a value the taint does not carry does not help",
            MakePod.pod().name("p").toleration(KEY, "Equal", "true", "NoSchedule").info(),
            cordoned,
            UNSCHEDULABLE),
        new Case(
            "a toleration of another key does not help",
            MakePod.pod().name("p").toleration("other", "Exists", null, "NoSchedule").info(),
            cordoned,
            UNSCHEDULABLE),
        new Case(
            "a node-less entry is rejected for unknown conditions",
            MakePod.pod().name("p").info(),
            NodeInfo.of(null),
            Status.unresolvable(NodeUnschedulable.ERR_REASON_UNKNOWN_CONDITION)
                .withPlugin(Names.NODE_UNSCHEDULABLE)));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void filter(Case c) {
    NodeUnschedulable plugin = NodeUnschedulable.create(null, null);
    CycleState state = TestFrameworks.cycleState(List.of());
    assertThat(plugin.filter(state, c.pod(), c.node())).isEqualTo(c.want());
  }
}
