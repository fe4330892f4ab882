package io.schedext.plugins.noderesources;

import static io.schedext.plugins.noderesources.Fixtures.node;
import static io.schedext.plugins.noderesources.ScoreCase.DEFAULT_RESOURCES;
import static io.schedext.plugins.noderesources.ScoreCase.EXTENDED_RESOURCE_SET;
import static io.schedext.plugins.noderesources.ScoreCase.fitArgs;
import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Pod;
import io.schedext.testing.MakeNode;
import io.schedext.testing.MakePod;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** Upstream's least_allocated_test.go (the weight validation rows live in {@link FitArgsTest}). */
class LeastAllocatedTest {

  static ScoreCase c(
      String name, Pod pod, List<Node> nodes, List<Pod> existing, String resources, Long... want) {
    return new ScoreCase(
        name,
        pod,
        nodes,
        existing,
        fitArgs("LeastAllocated", resources, null),
        true,
        List.of(want));
  }

  static Pod twoContainers() {
    return MakePod.pod()
        .name("p")
        .req(Map.of("cpu", "1000", "memory", "2000"))
        .req(Map.of("cpu", "2000", "memory", "3000"))
        .obj();
  }

  static Node n(String name, String cpu, String memory) {
    return node(name, Map.of("cpu", cpu, "memory", memory));
  }

  static Pod on(String node, String cpu, String memory) {
    return MakePod.pod().node(node).req(Map.of("cpu", cpu, "memory", memory)).obj();
  }

  static Stream<ScoreCase> cases() {
    return Stream.of(
        c(
            "an empty node scores the maximum for a pod without requests",
            MakePod.pod().name("p").obj(),
            List.of(n("node1", "4000", "10000"), n("node2", "4000", "10000")),
            List.of(),
            DEFAULT_RESOURCES,
            100L,
            100L),
        c(
            "on empty nodes of different sizes the larger one scores higher",
            twoContainers(),
            List.of(n("node1", "4000", "10000"), n("node2", "6000", "10000")),
            List.of(),
            DEFAULT_RESOURCES,
            37L,
            50L),
        c(
            "request-less pods on the nodes count their non-zero defaults only a little",
            MakePod.pod().name("p").obj(),
            List.of(n("node1", "4000", "10000"), n("node2", "4000", "10000")),
            List.of(
                MakePod.pod().node("node1").obj(),
                MakePod.pod().node("node1").obj(),
                MakePod.pod().node("node2").obj(),
                MakePod.pod().node("node2").obj()),
            DEFAULT_RESOURCES,
            100L,
            100L),
        c(
            "a pod without requests is scored by what is already requested",
            MakePod.pod().name("p").obj(),
            List.of(n("node1", "10000", "20000"), n("node2", "10000", "20000")),
            List.of(
                on("node1", "3000", "0"),
                on("node1", "3000", "0"),
                on("node2", "3000", "0"),
                on("node2", "3000", "5000")),
            DEFAULT_RESOURCES,
            70L,
            57L),
        c(
            "requests add to what the node already runs",
            twoContainers(),
            List.of(n("node1", "10000", "20000"), n("node2", "10000", "20000")),
            List.of(on("node1", "3000", "0"), on("node2", "3000", "5000")),
            DEFAULT_RESOURCES,
            57L,
            45L),
        c(
            "requests add to what differently sized nodes already run",
            twoContainers(),
            List.of(n("node1", "10000", "20000"), n("node2", "10000", "50000")),
            List.of(on("node1", "3000", "0"), on("node2", "3000", "5000")),
            DEFAULT_RESOURCES,
            57L,
            60L),
        c(
            "an over-committed resource scores 0 but the others still count",
            MakePod.pod().name("p").req(Map.of("cpu", "3000", "memory", "0")).obj(),
            List.of(n("node1", "4000", "10000"), n("node2", "4000", "10000")),
            List.of(on("node1", "3000", "0"), on("node2", "3000", "5000")),
            DEFAULT_RESOURCES,
            50L,
            25L),
        c(
            "nodes without allocatable resources score 0",
            MakePod.pod().name("p").obj(),
            List.of(MakeNode.node().name("node1").obj(), MakeNode.node().name("node2").obj()),
            List.of(on("node1", "3000", "0"), on("node2", "3000", "5000")),
            DEFAULT_RESOURCES,
            0L,
            0L),
        c(
            "weights make memory count twice as much as cpu, with integer division",
            twoContainers(),
            List.of(n("node1", "4000", "10000"), n("node2", "6000", "10000")),
            List.of(),
            "[{\"name\":\"memory\",\"weight\":2},{\"name\":\"cpu\",\"weight\":1}]",
            41L,
            50L),
        c(
            "an extended resource the pod does not request is left out",
            twoContainers(),
            List.of(
                n("node1", "6000", "10000"),
                node("node2", Map.of("cpu", "6000", "memory", "10000", "abc.com/xyz", "4"))),
            List.of(),
            EXTENDED_RESOURCE_SET,
            50L,
            50L),
        c(
            "an extended resource the pod requests is scored",
            MakePod.pod()
                .name("p")
                .req(Map.of("cpu", "3000", "memory", "5000", "abc.com/xyz", "2"))
                .obj(),
            List.of(
                node("node1", Map.of("cpu", "6000", "memory", "10000", "abc.com/xyz", "4")),
                node("node2", Map.of("cpu", "6000", "memory", "10000", "abc.com/xyz", "10"))),
            List.of(),
            EXTENDED_RESOURCE_SET,
            50L,
            60L),
        c(
            "a resource the node lacks, or the pod does not request, carries no weight",
            MakePod.pod().name("p").req(Map.of("cpu", "3000", "memory", "4000")).obj(),
            List.of(
                n("node1", "6000", "10000"),
                node("node2", Map.of("cpu", "6000", "memory", "10000", "abc.com/xyz", "4"))),
            List.of(),
            "[{\"name\":\"abc.com/xyz\",\"weight\":2},{\"name\":\"cpu\",\"weight\":1},{\"name\":\"memory\",\"weight\":1}]",
            55L,
            55L));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void score(ScoreCase c) {
    Fit plugin = Fit.create(Fixtures.args(Fit.NAME, c.argsJson()), null);
    assertThat(Fixtures.scores(plugin, c.podInfo(), c.nodeInfos(), c.runPreScore()))
        .isEqualTo(c.want());
  }
}
