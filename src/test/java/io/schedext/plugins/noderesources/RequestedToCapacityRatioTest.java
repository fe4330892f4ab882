package io.schedext.plugins.noderesources;

import static io.schedext.plugins.noderesources.Fixtures.node;
import static io.schedext.plugins.noderesources.LeastAllocatedTest.n;
import static io.schedext.plugins.noderesources.LeastAllocatedTest.on;
import static io.schedext.plugins.noderesources.LeastAllocatedTest.twoContainers;
import static io.schedext.plugins.noderesources.ScoreCase.DEFAULT_RESOURCES;
import static io.schedext.plugins.noderesources.ScoreCase.fitArgs;
import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Pod;
import io.schedext.testing.MakePod;
import java.util.List;
import java.util.Map;
import java.util.stream.LongStream;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Upstream's requested_to_capacity_ratio_test.go: the strategy table, the broken linear function,
 * and bin packing over one and over two extended resources.
 */
class RequestedToCapacityRatioTest {

  private static final String FALLING =
      "[{\"utilization\":0,\"score\":10},{\"utilization\":100,\"score\":0}]";
  private static final String RISING =
      "[{\"utilization\":0,\"score\":0},{\"utilization\":100,\"score\":1}]";
  private static final String RISING_TO_10 =
      "[{\"utilization\":0,\"score\":0},{\"utilization\":100,\"score\":10}]";
  private static final String FOO = "intel.com/foo";
  private static final String BAR = "intel.com/bar";
  private static final long MEMORY = 10000L * 1024 * 1024;

  static ScoreCase c(
      String name,
      Pod pod,
      List<Node> nodes,
      List<Pod> existing,
      String resources,
      String shape,
      Long... want) {
    return new ScoreCase(
        name,
        pod,
        nodes,
        existing,
        fitArgs("RequestedToCapacityRatio", resources, shape),
        true,
        List.of(want));
  }

  static Stream<ScoreCase> strategy() {
    return Stream.of(
        c(
            "with a falling shape and nothing requested every node scores the maximum",
            MakePod.pod().name("p").obj(),
            List.of(n("node1", "4000", "10000"), n("node2", "4000", "10000")),
            List.of(MakePod.pod().node("node1").obj(), MakePod.pod().node("node1").obj()),
            DEFAULT_RESOURCES,
            FALLING,
            100L,
            100L),
        c(
            "with a falling shape the larger empty node scores higher, rounded",
            twoContainers(),
            List.of(n("node1", "4000", "10000"), n("node2", "6000", "10000")),
            List.of(MakePod.pod().node("node1").obj(), MakePod.pod().node("node1").obj()),
            DEFAULT_RESOURCES,
            FALLING,
            38L,
            50L),
        c(
            "with a falling shape what runs on the nodes counts",
            MakePod.pod().name("p").obj(),
            List.of(n("node1", "4000", "10000"), n("node2", "6000", "10000")),
            List.of(on("node1", "3000", "5000"), on("node2", "3000", "5000")),
            DEFAULT_RESOURCES,
            FALLING,
            38L,
            50L),
        c(
            "a weighted mean of exactly .5 rounds up",
            MakePod.pod().name("p").req(Map.of("cpu", "5", "memory", "1000")).obj(),
            List.of(n("node1", "100", "10000")),
            List.of(),
            DEFAULT_RESOURCES,
            RISING_TO_10,
            8L),
        c(
            "resources scoring 0 carry no weight",
            MakePod.pod().name("p").req(Map.of("cpu", "0", "memory", "5000")).obj(),
            List.of(n("node1", "100", "10000")),
            List.of(),
            DEFAULT_RESOURCES,
            RISING_TO_10,
            50L),
        c(
            "an over-committed resource takes the score at 100% utilization",
            MakePod.pod().name("p").req(Map.of("cpu", "200", "memory", "0")).obj(),
            List.of(n("node1", "100", "10000")),
            List.of(),
            DEFAULT_RESOURCES,
            RISING_TO_10,
            100L));
  }

  static Stream<ScoreCase> singleExtended() {
    String resources = "[{\"name\":\"intel.com/foo\",\"weight\":1}]";
    List<Node> nodes =
        List.of(
            node("node1", 4000, MEMORY, Map.of(FOO, 8L)),
            node("node2", 4000, MEMORY, Map.of(FOO, 4L)));
    return Stream.of(
        c(
            "a pod not requesting the extended resource scores 0 everywhere",
            MakePod.pod().name("p").obj(),
            nodes,
            List.of(),
            resources,
            RISING,
            0L,
            0L),
        c(
            "the node left fuller by the request scores higher",
            MakePod.pod().name("p").req(Map.of(FOO, "2")).obj(),
            nodes,
            List.of(),
            resources,
            RISING,
            2L,
            5L),
        c(
            "a node already running the resource becomes full and scores the maximum",
            MakePod.pod().name("p").req(Map.of(FOO, "2")).obj(),
            nodes,
            List.of(MakePod.pod().node("node2").req(Map.of(FOO, "2")).obj()),
            resources,
            RISING,
            2L,
            10L),
        c(
            "a larger request fills the smaller node",
            MakePod.pod().name("p").req(Map.of(FOO, "4")).obj(),
            nodes,
            List.of(),
            resources,
            RISING,
            5L,
            10L));
  }

  static Stream<ScoreCase> multipleExtended() {
    String resources =
        "[{\"name\":\"intel.com/foo\",\"weight\":3},{\"name\":\"intel.com/bar\",\"weight\":5}]";
    List<Node> nodes =
        List.of(
            node("node1", 4000, MEMORY, Map.of(FOO, 8L, BAR, 4L)),
            node("node2", 4000, MEMORY, Map.of(FOO, 4L, BAR, 8L)));
    return Stream.of(
        c(
            "a pod requesting neither resource scores 0",
            MakePod.pod().name("p").obj(),
            nodes,
            List.of(),
            resources,
            RISING,
            0L,
            0L),
        c(
            "both resources are weighted into a rounded mean",
            MakePod.pod().name("p").req(Map.of(FOO, "2", BAR, "2")).obj(),
            nodes,
            List.of(),
            resources,
            RISING,
            4L,
            3L),
        c(
            "a node already running both resources scores higher",
            MakePod.pod().name("p").req(Map.of(FOO, "2", BAR, "2")).obj(),
            nodes,
            List.of(MakePod.pod().node("node2").req(Map.of(FOO, "4", BAR, "2")).obj()),
            resources,
            RISING,
            4L,
            7L),
        c(
            "a full resource and a light one balance out",
            MakePod.pod().name("p").req(Map.of(FOO, "4", BAR, "2")).obj(),
            nodes,
            List.of(),
            resources,
            RISING,
            5L,
            5L));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource({"strategy", "singleExtended", "multipleExtended"})
  void score(ScoreCase c) {
    Fit plugin = Fit.create(Fixtures.args(Fit.NAME, c.argsJson()), null);
    assertThat(Fixtures.scores(plugin, c.podInfo(), c.nodeInfos(), c.runPreScore()))
        .isEqualTo(c.want());
  }

  record LineCase(String name, long[] utilization, long[] score, long[] points, long[] want) {
    @Override
    public String toString() {
      return name;
    }
  }

  static Stream<LineCase> brokenLinear() {
    return Stream.of(
        new LineCase(
            "a rising line is flat outside its points and truncates between them",
            new long[] {10, 90},
            new long[] {1, 9},
            new long[] {-10, 0, 9, 10, 15, 19, 20, 89, 90, 99, 100, 110},
            new long[] {1, 1, 1, 1, 1, 1, 2, 8, 9, 9, 9, 9}),
        new LineCase(
            "a line rising then falling interpolates each segment",
            new long[] {0, 40, 100},
            new long[] {2, 10, 0},
            new long[] {-10, 0, 20, 30, 40, 70, 100, 110},
            new long[] {2, 2, 6, 8, 10, 5, 0, 0}),
        new LineCase(
            "a constant line is constant everywhere",
            new long[] {0, 40, 100},
            new long[] {2, 2, 2},
            new long[] {-10, 0, 20, 30, 40, 70, 100, 110},
            new long[] {2, 2, 2, 2, 2, 2, 2, 2}));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("brokenLinear")
  void brokenLinearFunction(LineCase c) {
    long[] got =
        LongStream.of(c.points())
            .map(p -> RequestedToCapacityRatio.brokenLinear(c.utilization(), c.score(), p))
            .toArray();
    assertThat(got).containsExactly(c.want());
  }
}
