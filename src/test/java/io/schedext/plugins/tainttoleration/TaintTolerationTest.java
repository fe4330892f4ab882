package io.schedext.plugins.tainttoleration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.schedext.framework.CycleState;
import io.schedext.framework.FrameworkException;
import io.schedext.framework.NodeInfo;
import io.schedext.framework.NodeScores;
import io.schedext.framework.PodInfo;
import io.schedext.framework.Status;
import io.schedext.plugins.Names;
import io.schedext.testing.MakeNode;
import io.schedext.testing.MakePod;
import io.schedext.testing.NodeWrapper;
import io.schedext.testing.TestFrameworks;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

class TaintTolerationTest {

  private static final String NO_SCHEDULE = "NoSchedule";
  private static final String PREFER = "PreferNoSchedule";
  private static final String NO_EXECUTE = "NoExecute";

  /** Upstream's 1.34 reason, which names no taint. */
  private static final Status UNTOLERATED =
      Status.unresolvable("node(s) had untolerated taint(s)").withPlugin(Names.TAINT_TOLERATION);

  private static NodeWrapper node(String name) {
    return MakeNode.node().name(name);
  }

  record FilterCase(String name, PodInfo pod, NodeInfo node, Status want) {
    @Override
    public String toString() {
      return name;
    }
  }

  static Stream<FilterCase> filterCases() {
    return Stream.of(
        new FilterCase(
            "a pod without tolerations is rejected by a NoSchedule taint",
            MakePod.pod().name("p").info(),
            node("a").taint("dedicated", "user1", NO_SCHEDULE).info(),
            UNTOLERATED),
        new FilterCase(
            "a pod tolerating the exact key, value and effect fits",
            MakePod.pod().name("p").toleration("dedicated", null, "user1", NO_SCHEDULE).info(),
            node("a").taint("dedicated", "user1", NO_SCHEDULE).info(),
            Status.success()),
        new FilterCase(
            "a pod tolerating another value of the key is rejected",
            MakePod.pod().name("p").toleration("dedicated", "Equal", "user2", NO_SCHEDULE).info(),
            node("a").taint("dedicated", "user1", NO_SCHEDULE).info(),
            UNTOLERATED),
        new FilterCase(
            "an Exists toleration of the key tolerates any value",
            MakePod.pod().name("p").toleration("foo", "Exists", null, NO_SCHEDULE).info(),
            node("a").taint("foo", "bar", NO_SCHEDULE).info(),
            Status.success()),
        new FilterCase(
            "a pod tolerating every one of several taints fits",
            MakePod.pod()
                .name("p")
                .toleration("dedicated", "Equal", "user2", NO_SCHEDULE)
                .toleration("foo", "Exists", null, NO_SCHEDULE)
                .info(),
            node("a")
                .taint("dedicated", "user2", NO_SCHEDULE)
                .taint("foo", "bar", NO_SCHEDULE)
                .info(),
            Status.success()),
        new FilterCase(
            "a toleration matching key and value but with another non-empty effect does not help",
            MakePod.pod().name("p").toleration("foo", "Equal", "bar", PREFER).info(),
            node("a").taint("foo", "bar", NO_SCHEDULE).info(),
            UNTOLERATED),
        new FilterCase(
            "a toleration with an empty effect tolerates the NoSchedule taint of its key and value",
            MakePod.pod().name("p").toleration("foo", "Equal", "bar", null).info(),
            node("a").taint("foo", "bar", NO_SCHEDULE).info(),
            Status.success()),
        new FilterCase(
            "an untolerated PreferNoSchedule taint does not keep a tolerating-something pod off",
            MakePod.pod().name("p").toleration("dedicated", "Equal", "user2", NO_SCHEDULE).info(),
            node("a").taint("dedicated", "user1", PREFER).info(),
            Status.success()),
        new FilterCase(
            "an untolerated PreferNoSchedule taint does not keep a pod without tolerations off",
            MakePod.pod().name("p").info(),
            node("a").taint("dedicated", "user1", PREFER).info(),
            Status.success()),
        new FilterCase(
            "an untolerated NoExecute taint keeps the pod off",
            MakePod.pod().name("p").info(),
            node("a").taint("evict", "now", NO_EXECUTE).info(),
            UNTOLERATED),
        new FilterCase(
            "a taint without a value is reported with an empty value",
            MakePod.pod().name("p").info(),
            node("a").taint("node.kubernetes.io/not-ready", null, NO_EXECUTE).info(),
            UNTOLERATED),
        new FilterCase(
            "the first untolerated taint in node order is the one reported",
            MakePod.pod().name("p").toleration("a", "Exists", null, null).info(),
            node("a")
                .taint("a", "1", NO_SCHEDULE)
                .taint("b", "2", PREFER)
                .taint("c", "3", NO_EXECUTE)
                .taint("d", "4", NO_SCHEDULE)
                .info(),
            UNTOLERATED),
        new FilterCase(
            "an Exists toleration without a key tolerates every taint",
            MakePod.pod().name("p").toleration(null, "Exists", null, null).info(),
            node("a").taint("x", "1", NO_SCHEDULE).taint("y", "2", NO_EXECUTE).info(),
            Status.success()),
        new FilterCase(
            "an unknown toleration operator tolerates nothing",
            MakePod.pod().name("p").toleration("x", "Gt", "0", NO_SCHEDULE).info(),
            node("a").taint("x", "1", NO_SCHEDULE).info(),
            UNTOLERATED),
        new FilterCase(
            "a node without taints admits a pod without tolerations",
            MakePod.pod().name("p").info(),
            node("a").info(),
            Status.success()));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("filterCases")
  void filter(FilterCase c) {
    TaintToleration plugin = TaintToleration.create(null, null);
    CycleState state = TestFrameworks.cycleState(List.of(c.node()));
    assertThat(plugin.filter(state, c.pod(), c.node())).isEqualTo(c.want());
  }

  record ScoreCase(String name, PodInfo pod, List<NodeInfo> nodes, List<Long> want) {
    @Override
    public String toString() {
      return name;
    }
  }

  static Stream<ScoreCase> scoreCases() {
    return Stream.of(
        new ScoreCase(
            "a node whose PreferNoSchedule taint is tolerated outranks one whose taint is not",
            MakePod.pod().name("p").toleration("foo", "Equal", "bar", PREFER).info(),
            List.of(
                node("a").taint("foo", "bar", PREFER).info(),
                node("b").taint("foo", "blah", PREFER).info()),
            List.of(100L, 0L)),
        new ScoreCase(
            "nodes whose taints are all tolerated score alike however many taints they carry",
            MakePod.pod()
                .name("p")
                .toleration("cpu-type", "Equal", "arm64", PREFER)
                .toleration("disk-type", "Equal", "ssd", PREFER)
                .info(),
            List.of(
                node("a").info(),
                node("b").taint("cpu-type", "arm64", PREFER).info(),
                node("c")
                    .taint("cpu-type", "arm64", PREFER)
                    .taint("disk-type", "ssd", PREFER)
                    .info()),
            List.of(100L, 100L, 100L)),
        new ScoreCase(
            "the more untolerated taints a node has the lower it scores",
            MakePod.pod().name("p").toleration("foo", "Equal", "bar", PREFER).info(),
            List.of(
                node("a").info(),
                node("b").taint("cpu-type", "arm64", PREFER).info(),
                node("c")
                    .taint("cpu-type", "arm64", PREFER)
                    .taint("disk-type", "ssd", PREFER)
                    .info()),
            List.of(100L, 50L, 0L)),
        new ScoreCase(
            "only PreferNoSchedule taints and tolerations count for the score",
            MakePod.pod()
                .name("p")
                .toleration("cpu-type", "Equal", "arm64", NO_SCHEDULE)
                .toleration("disk-type", "Equal", "ssd", NO_SCHEDULE)
                .info(),
            List.of(
                node("a").info(),
                node("b").taint("cpu-type", "arm64", NO_SCHEDULE).info(),
                node("c")
                    .taint("cpu-type", "arm64", PREFER)
                    .taint("disk-type", "ssd", PREFER)
                    .info()),
            List.of(100L, 100L, 0L)),
        new ScoreCase(
            "a pod without tolerations prefers the node without taints",
            MakePod.pod().name("p").info(),
            List.of(node("a").info(), node("b").taint("cpu-type", "arm64", PREFER).info()),
            List.of(100L, 0L)),
        new ScoreCase(
            "a toleration with an empty effect also tolerates PreferNoSchedule taints",
            MakePod.pod().name("p").toleration("foo", "Exists", null, null).info(),
            List.of(
                node("a").taint("foo", "x", PREFER).info(),
                node("b").taint("bar", "x", PREFER).info()),
            List.of(100L, 0L)),
        new ScoreCase(
            "every node scores 100 when no node has an untolerated taint",
            MakePod.pod().name("p").info(),
            List.of(node("a").info(), node("b").info()),
            List.of(100L, 100L)),
        new ScoreCase(
            "normalising truncates: 1 of at most 3 untolerated taints scores 100 - 33",
            MakePod.pod().name("p").info(),
            List.of(
                node("a").info(),
                node("b").taint("x", "1", PREFER).info(),
                node("c")
                    .taint("x", "1", PREFER)
                    .taint("y", "1", PREFER)
                    .taint("z", "1", PREFER)
                    .info()),
            List.of(100L, 67L, 0L)));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("scoreCases")
  void score(ScoreCase c) {
    TaintToleration plugin = TaintToleration.create(null, null);
    CycleState state = TestFrameworks.cycleState(c.nodes());
    assertThat(plugin.preScore(state, c.pod(), c.nodes())).isEqualTo(Status.success());
    long[] raw = new long[c.nodes().size()];
    for (int i = 0; i < raw.length; i++) {
      raw[i] = plugin.score(state, c.pod(), c.nodes().get(i));
    }
    NodeScores scores = new NodeScores(c.nodes().toArray(new NodeInfo[0]), raw);
    assertThat(plugin.scoreExtensions().normalizeScore(state, c.pod(), scores))
        .isEqualTo(Status.success());
    assertThat(scores.toArray())
        .containsExactly(c.want().stream().mapToLong(Long::longValue).toArray());
  }

  @Test
  void scoreWithoutPreScoreIsAnInternalError() {
    NodeInfo n = node("a").info();
    assertThatThrownBy(
            () ->
                TaintToleration.create(null, null)
                    .score(
                        TestFrameworks.cycleState(List.of(n)), MakePod.pod().name("p").info(), n))
        .isInstanceOf(FrameworkException.class)
        .hasMessageContaining("PreScoreTaintToleration");
  }
}
