package io.schedext.plugins.noderesources;

import static io.schedext.plugins.noderesources.Fixtures.node;
import static io.schedext.plugins.noderesources.LeastAllocatedTest.n;
import static io.schedext.plugins.noderesources.LeastAllocatedTest.on;
import static io.schedext.plugins.noderesources.LeastAllocatedTest.twoContainers;
import static io.schedext.plugins.noderesources.ScoreCase.DEFAULT_RESOURCES;
import static io.schedext.plugins.noderesources.ScoreCase.EXTENDED_RESOURCE_SET;
import static io.schedext.plugins.noderesources.ScoreCase.fitArgs;
import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Pod;
import io.schedext.testing.MakePod;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** Upstream's most_allocated_test.go (the weight validation rows live in {@link FitArgsTest}). */
class MostAllocatedTest {

  static ScoreCase c(
      String name, Pod pod, List<Node> nodes, List<Pod> existing, String resources, Long... want) {
    return new ScoreCase(
        name, pod, nodes, existing, fitArgs("MostAllocated", resources, null), true, List.of(want));
  }

  static Stream<ScoreCase> cases() {
    return Stream.of(
        c(
            "empty nodes score 0 for a pod without requests",
            MakePod.pod().name("p").obj(),
            List.of(n("node1", "4000", "10000"), n("node2", "4000", "10000")),
            List.of(),
            DEFAULT_RESOURCES,
            0L,
            0L),
        c(
            "on empty nodes of different sizes the smaller one scores higher",
            twoContainers(),
            List.of(n("node1", "4000", "10000"), n("node2", "6000", "10000")),
            List.of(),
            DEFAULT_RESOURCES,
            62L,
            50L),
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
            30L,
            42L),
        c(
            "requests add to what the node already runs",
            twoContainers(),
            List.of(n("node1", "10000", "20000"), n("node2", "10000", "20000")),
            List.of(on("node1", "3000", "0"), on("node2", "3000", "5000")),
            DEFAULT_RESOURCES,
            42L,
            55L),
        c(
            "requests equal to the node capacity score the maximum for that resource",
            MakePod.pod()
                .name("p")
                .req(Map.of("cpu", "2000", "memory", "4000"))
                .req(Map.of("cpu", "3000", "memory", "5000"))
                .obj(),
            List.of(n("node1", "5000", "10000"), n("node2", "10000", "9000")),
            List.of(),
            DEFAULT_RESOURCES,
            95L,
            75L),
        c(
            "weights make memory count twice as much as cpu, with integer division",
            twoContainers(),
            List.of(n("node1", "4000", "10000"), n("node2", "6000", "10000")),
            List.of(),
            "[{\"name\":\"memory\",\"weight\":2},{\"name\":\"cpu\",\"weight\":1}]",
            58L,
            50L),
        c(
            "non-zero defaults over capacity are capped at the capacity",
            MakePod.pod().name("p").container("busybox").obj(),
            List.of(n("node1", "250m", "1000Mi"), n("node2", "250m", "1000Mi")),
            List.of(
                MakePod.pod().node("node1").container("busybox").obj(),
                MakePod.pod().node("node1").container("busybox").obj()),
            DEFAULT_RESOURCES,
            80L,
            30L),
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
            40L),
        c(
            "a resource the node lacks, or the pod does not request, carries no weight",
            MakePod.pod().name("p").req(Map.of("cpu", "3000", "memory", "4000")).obj(),
            List.of(
                n("node1", "6000", "10000"),
                node("node2", Map.of("cpu", "6000", "memory", "10000", "abc.com/xyz", "4"))),
            List.of(),
            "[{\"name\":\"abc.com/xyz\",\"weight\":2},{\"name\":\"cpu\",\"weight\":1},{\"name\":\"memory\",\"weight\":1}]",
            45L,
            45L));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void score(ScoreCase c) {
    Fit plugin = Fit.create(Fixtures.args(Fit.NAME, c.argsJson()), null);
    assertThat(Fixtures.scores(plugin, c.podInfo(), c.nodeInfos(), c.runPreScore()))
        .isEqualTo(c.want());
  }
}
