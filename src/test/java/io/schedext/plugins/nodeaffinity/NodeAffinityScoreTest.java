package io.schedext.plugins.nodeaffinity;

import static io.schedext.plugins.nodeaffinity.Affinities.expr;
import static io.schedext.plugins.nodeaffinity.Affinities.exprs;
import static io.schedext.plugins.nodeaffinity.Affinities.fields;
import static io.schedext.plugins.nodeaffinity.Affinities.nameField;
import static io.schedext.plugins.nodeaffinity.Affinities.nodeAffinity;
import static io.schedext.plugins.nodeaffinity.Affinities.podPreferring;
import static io.schedext.plugins.nodeaffinity.Affinities.preferred;
import static io.schedext.plugins.nodeaffinity.NodeAffinityFilterTest.pluginArgs;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.api.model.PreferredSchedulingTerm;
import io.schedext.framework.Code;
import io.schedext.framework.CycleState;
import io.schedext.framework.FrameworkException;
import io.schedext.framework.NodeInfo;
import io.schedext.framework.NodeScores;
import io.schedext.framework.PodInfo;
import io.schedext.framework.Status;
import io.schedext.testing.MakeNode;
import io.schedext.testing.MakePod;
import io.schedext.testing.TestFrameworks;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

class NodeAffinityScoreTest {

  private static final Map<String, String> LABEL1 = Map.of("foo", "bar");
  private static final Map<String, String> LABEL2 = Map.of("key", "value");
  private static final Map<String, String> LABEL3 = Map.of("az", "az1");
  private static final Map<String, String> LABEL4 = Map.of("abc", "az11", "def", "az22");
  private static final Map<String, String> LABEL5 =
      Map.of("foo", "bar", "key", "value", "az", "az1");
  private static final NodeAffinityArgs NO_ARGS = new NodeAffinityArgs(null);

  private static final PreferredSchedulingTerm FOO_BAR_2 =
      preferred(2, exprs(expr("foo", "In", "bar")));
  private static final PreferredSchedulingTerm[] AFFINITY2 = {
    FOO_BAR_2,
    preferred(4, exprs(expr("key", "In", "value"))),
    preferred(
        5, exprs(expr("foo", "In", "bar"), expr("key", "In", "value"), expr("az", "In", "az1")))
  };

  /** A case; {@code wantPreScore} null means PreScore is not run before Score. */
  record Case(
      String name,
      PodInfo pod,
      List<NodeInfo> nodes,
      NodeAffinityArgs args,
      Status wantPreScore,
      List<Long> want) {
    @Override
    public String toString() {
      return name;
    }
  }

  private static NodeInfo node(String name, Map<String, String> labels) {
    return MakeNode.node().name(name).labels(labels).info();
  }

  static Stream<Case> cases() {
    return Stream.of(
        new Case(
            "every node scores 0 when the pod has no node affinity",
            MakePod.pod().name("p").info(),
            List.of(node("node1", LABEL1), node("node2", LABEL2), node("node3", LABEL3)),
            NO_ARGS,
            null,
            List.of(0L, 0L, 0L)),
        new Case(
            "PreScore skips a pod without preferred terms when no terms are added",
            MakePod.pod().name("p").info(),
            List.of(node("node1", LABEL1)),
            NO_ARGS,
            Status.skip(),
            null),
        new Case(
            "PreScore skips a pod that only has required affinity and a node selector",
            MakePod.pod().name("p").nodeSelector(LABEL1).nodeAffinityTerm("foo", "Exists").info(),
            List.of(node("node1", LABEL1)),
            NO_ARGS,
            Status.skip(),
            null),
        new Case(
            "every node scores 0 when no node matches a preferred term",
            podPreferring(FOO_BAR_2),
            List.of(node("node1", LABEL4), node("node2", LABEL2), node("node3", LABEL3)),
            NO_ARGS,
            Status.success(),
            List.of(0L, 0L, 0L)),
        new Case(
            "only the node matching the preferred term scores",
            podPreferring(FOO_BAR_2),
            List.of(node("node1", LABEL1), node("node2", LABEL2), node("node3", LABEL3)),
            NO_ARGS,
            Status.success(),
            List.of(100L, 0L, 0L)),
        new Case(
            "summed weights 2, 11 and 4 normalise with truncation to 18, 100 and 36",
            podPreferring(AFFINITY2),
            List.of(node("node1", LABEL1), node("node5", LABEL5), node("node2", LABEL2)),
            NO_ARGS,
            Status.success(),
            List.of(18L, 100L, 36L)),
        new Case(
            "added preferred terms score a pod without affinity",
            MakePod.pod().name("p").info(),
            List.of(node("node1", LABEL1), node("node2", LABEL2)),
            new NodeAffinityArgs(nodeAffinity(null, FOO_BAR_2)),
            Status.success(),
            List.of(100L, 0L)),
        new Case(
            "added and pod preferred weights add up",
            podPreferring(FOO_BAR_2),
            List.of(node("node1", LABEL1), node("node2", LABEL2), node("node3", LABEL5)),
            new NodeAffinityArgs(
                nodeAffinity(null, preferred(3, exprs(expr("key", "In", "value"))))),
            Status.success(),
            List.of(40L, 60L, 100L)),
        new Case(
            "scores are right even when PreScore did not run",
            podPreferring(AFFINITY2),
            List.of(node("node1", LABEL1), node("node5", LABEL5), node("node2", LABEL2)),
            NO_ARGS,
            null,
            List.of(18L, 100L, 36L)),
        new Case(
            "a zero-weight term is ignored yet the pod is still scored",
            podPreferring(preferred(0, exprs(expr("foo", "In", "bar")))),
            List.of(node("node1", LABEL1), node("node2", LABEL2)),
            NO_ARGS,
            Status.success(),
            List.of(0L, 0L)),
        new Case(
            "a preferred term without requirements matches no node",
            podPreferring(preferred(7, exprs()), preferred(1, exprs(expr("key", "Exists")))),
            List.of(node("node1", LABEL1), node("node2", LABEL2)),
            NO_ARGS,
            Status.success(),
            List.of(0L, 100L)),
        new Case(
            "a preferred term can pin a node by name",
            podPreferring(preferred(7, fields(nameField("In", "node2")))),
            List.of(node("node1", LABEL1), node("node2", LABEL2)),
            NO_ARGS,
            Status.success(),
            List.of(0L, 100L)),
        new Case(
            "normalising truncates 100 x 1 / 3 to 33",
            podPreferring(
                preferred(1, exprs(expr("foo", "Exists"))),
                preferred(2, exprs(expr("key", "Exists")))),
            List.of(
                node("node1", LABEL1),
                node("node2", LABEL2),
                node("node3", LABEL5),
                node("node4", LABEL3)),
            NO_ARGS,
            Status.success(),
            List.of(33L, 66L, 100L, 0L)));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void score(Case c) {
    NodeAffinity plugin = NodeAffinity.create(pluginArgs(c.args()), null);
    CycleState state = TestFrameworks.cycleState(c.nodes());
    if (c.wantPreScore() != null) {
      assertThat(plugin.preScore(state, c.pod(), c.nodes())).isEqualTo(c.wantPreScore());
      if (!c.wantPreScore().isSuccess()) {
        return;
      }
    }
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
  void preScoreFailsWhenAPreferredTermDoesNotParse() {
    PodInfo pod = podPreferring(preferred(2, exprs(expr("invalid key", "In", "bar"))));
    NodeInfo n = node("node1", LABEL1);
    Status s =
        NodeAffinity.create(pluginArgs(NO_ARGS), null)
            .preScore(TestFrameworks.cycleState(List.of(n)), pod, List.of(n));
    assertThat(s.code()).isEqualTo(Code.ERROR);
    assertThat(s.message()).startsWith("[0]: ").contains("invalid key");
  }

  @Test
  void scoreWithoutPreScoreFailsWhenAPreferredTermDoesNotParse() {
    PodInfo pod = podPreferring(preferred(2, exprs(expr("foo", "Near", "bar"))));
    NodeInfo n = node("node1", LABEL1);
    assertThatThrownBy(
            () ->
                NodeAffinity.create(pluginArgs(NO_ARGS), null)
                    .score(TestFrameworks.cycleState(List.of(n)), pod, n))
        .isInstanceOf(FrameworkException.class)
        .hasMessageContaining("Near");
  }
}
