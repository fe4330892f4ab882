package io.schedext.plugins.nodeports;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ContainerPort;
import io.fabric8.kubernetes.api.model.Pod;
import io.schedext.framework.CycleState;
import io.schedext.framework.FrameworkException;
import io.schedext.framework.NodeInfo;
import io.schedext.framework.PodInfo;
import io.schedext.framework.PreFilterResult;
import io.schedext.framework.Status;
import io.schedext.plugins.Names;
import io.schedext.testing.MakeNode;
import io.schedext.testing.MakePod;
import io.schedext.testing.PodWrapper;
import io.schedext.testing.TestFrameworks;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

class NodePortsTest {

  private static final Status CONFLICT =
      Status.unschedulable(NodePorts.ERR_REASON).withPlugin(Names.NODE_PORTS);
  private static final PreFilterResult SKIP = PreFilterResult.of(Status.skip());

  record Case(
      String name, PodInfo pod, NodeInfo node, PreFilterResult wantPreFilter, Status wantFilter) {
    @Override
    public String toString() {
      return name;
    }
  }

  /** A pod on node m1 whose first container asks for each "PROTOCOL/hostIP/port". */
  private static PodWrapper ports(String... specs) {
    PodWrapper w = MakePod.pod().name("p").node("m1");
    for (String spec : specs) {
      String[] parts = spec.split("/", -1);
      w.hostPort(parts[0], parts[1], Integer.parseInt(parts[2]));
    }
    return w;
  }

  /** A node m1 holding these pods. */
  private static NodeInfo nodeWith(PodInfo... pods) {
    return MakeNode.node().name("m1").info(pods);
  }

  /** Adds an init container asking for a TCP host port; {@code restartable} makes it a sidecar. */
  private static PodInfo withInitPort(PodWrapper w, boolean restartable, int port) {
    Pod pod = w.obj();
    Container c = new Container();
    c.setName("init" + port);
    c.setRestartPolicy(restartable ? "Always" : null);
    ContainerPort p = new ContainerPort();
    p.setContainerPort(port);
    p.setHostPort(port);
    p.setProtocol("TCP");
    c.setPorts(new ArrayList<>(List.of(p)));
    pod.getSpec().getInitContainers().add(c);
    return PodInfo.of(pod);
  }

  static Stream<Case> cases() {
    return Stream.of(
        new Case(
            "a pod without host ports skips the Filter",
            MakePod.pod().name("p").info(),
            nodeWith(),
            SKIP,
            null),
        new Case(
            "a port different from the one in use fits",
            ports("UDP/127.0.0.1/8080").info(),
            nodeWith(ports("UDP/127.0.0.1/9090").info()),
            PreFilterResult.success(),
            Status.success()),
        new Case(
            "the same UDP port on the same IP conflicts",
            ports("UDP/127.0.0.1/8080").info(),
            nodeWith(ports("UDP/127.0.0.1/8080").info()),
            PreFilterResult.success(),
            CONFLICT),
        new Case(
            "the same TCP port on the same IP conflicts",
            ports("TCP/127.0.0.1/8080").info(),
            nodeWith(ports("TCP/127.0.0.1/8080").info()),
            PreFilterResult.success(),
            CONFLICT),
        new Case(
            "the same port on another host IP fits",
            ports("TCP/127.0.0.1/8080").info(),
            nodeWith(ports("TCP/127.0.0.2/8080").info()),
            PreFilterResult.success(),
            Status.success()),
        new Case(
            "the same port with another protocol fits",
            ports("UDP/127.0.0.1/8080").info(),
            nodeWith(ports("TCP/127.0.0.1/8080").info()),
            PreFilterResult.success(),
            Status.success()),
        new Case(
            "a conflict on the second wanted UDP port is found",
            ports("UDP/127.0.0.1/8000", "UDP/127.0.0.1/8080").info(),
            nodeWith(ports("UDP/127.0.0.1/8080").info()),
            PreFilterResult.success(),
            CONFLICT),
        new Case(
            "a conflict on the first wanted TCP port is found",
            ports("TCP/127.0.0.1/8001", "UDP/127.0.0.1/8080").info(),
            nodeWith(ports("TCP/127.0.0.1/8001", "UDP/127.0.0.1/8081").info()),
            PreFilterResult.success(),
            CONFLICT),
        new Case(
            "a wanted port on 0.0.0.0 conflicts with that port on any IP",
            ports("TCP/0.0.0.0/8001").info(),
            nodeWith(ports("TCP/127.0.0.1/8001").info()),
            PreFilterResult.success(),
            CONFLICT),
        new Case(
            "a second wanted port on 0.0.0.0 conflicts with that port on any IP",
            ports("TCP/10.0.10.10/8001", "TCP/0.0.0.0/8001").info(),
            nodeWith(ports("TCP/127.0.0.1/8001").info()),
            PreFilterResult.success(),
            CONFLICT),
        new Case(
            "a wanted port on a specific IP conflicts with that port in use on 0.0.0.0",
            ports("TCP/127.0.0.1/8001").info(),
            nodeWith(ports("TCP/0.0.0.0/8001").info()),
            PreFilterResult.success(),
            CONFLICT),
        new Case(
            "a port in use on 0.0.0.0 with another protocol does not conflict",
            ports("UDP/127.0.0.1/8001").info(),
            nodeWith(ports("TCP/0.0.0.0/8001").info()),
            PreFilterResult.success(),
            Status.success()),
        new Case(
            "a UDP port in use on 0.0.0.0 conflicts with a UDP port on a specific IP",
            ports("UDP/127.0.0.1/8001").info(),
            nodeWith(ports("TCP/0.0.0.0/8001", "UDP/0.0.0.0/8001").info()),
            PreFilterResult.success(),
            CONFLICT),
        new Case(
            "an empty protocol means TCP",
            ports("/127.0.0.1/8080").info(),
            nodeWith(ports("TCP/127.0.0.1/8080").info()),
            PreFilterResult.success(),
            CONFLICT),
        new Case(
            "an empty host IP means 0.0.0.0",
            ports("TCP//8080").info(),
            nodeWith(ports("TCP/10.1.1.1/8080").info()),
            PreFilterResult.success(),
            CONFLICT),
        new Case(
            "a port of a pod that has left the node no longer conflicts",
            ports("TCP/127.0.0.1/8080").info(),
            nodeAfterRemoving(ports("TCP/127.0.0.1/8080").uid("gone").info()),
            PreFilterResult.success(),
            Status.success()),
        new Case(
            "a sidecar init container's host port is wanted too",
            withInitPort(MakePod.pod().name("p"), true, 9000),
            nodeWith(ports("TCP/0.0.0.0/9000").info()),
            PreFilterResult.success(),
            CONFLICT),
        new Case(
            "a sidecar already on the node holds its host port",
            ports("TCP/0.0.0.0/9000").info(),
            nodeWith(withInitPort(MakePod.pod().name("side"), true, 9000)),
            PreFilterResult.success(),
            CONFLICT),
        new Case(
            "a plain init container's host port is not wanted, so the Filter is skipped",
            withInitPort(MakePod.pod().name("p"), false, 9000),
            nodeWith(ports("TCP/0.0.0.0/9000").info()),
            SKIP,
            null),
        new Case(
            "a container port without a host port is not wanted",
            containerPortOnly(),
            nodeWith(ports("TCP/0.0.0.0/80").info()),
            SKIP,
            null));
  }

  private static NodeInfo nodeAfterRemoving(PodInfo pod) {
    NodeInfo n = nodeWith(pod);
    n.removePod(pod.uid());
    return n;
  }

  private static PodInfo containerPortOnly() {
    Pod pod = MakePod.pod().name("p").container("nginx").obj();
    ContainerPort p = new ContainerPort();
    p.setContainerPort(80);
    pod.getSpec().getContainers().get(0).setPorts(new ArrayList<>(List.of(p)));
    return PodInfo.of(pod);
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void preFilterAndFilter(Case c) {
    NodePorts plugin = NodePorts.create(null, null);
    CycleState state = TestFrameworks.cycleState(List.of(c.node()));
    assertThat(plugin.preFilter(state, c.pod())).isEqualTo(c.wantPreFilter());
    if (c.wantFilter() != null) {
      assertThat(plugin.filter(state, c.pod(), c.node())).isEqualTo(c.wantFilter());
      assertThat(NodePorts.fits(c.pod(), c.node())).isEqualTo(c.wantFilter().isSuccess());
    }
  }

  @Test
  void filterWithoutPreFilterIsAnInternalError() {
    NodeInfo n = MakeNode.node().name("n").info();
    assertThatThrownBy(
            () ->
                NodePorts.create(null, null)
                    .filter(
                        TestFrameworks.cycleState(List.of(n)), ports("TCP/0.0.0.0/80").info(), n))
        .isInstanceOf(FrameworkException.class)
        .hasMessageContaining("PreFilterNodePorts");
  }
}
