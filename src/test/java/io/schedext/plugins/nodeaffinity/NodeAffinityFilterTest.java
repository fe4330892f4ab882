package io.schedext.plugins.nodeaffinity;

import static io.schedext.plugins.nodeaffinity.Affinities.expr;
import static io.schedext.plugins.nodeaffinity.Affinities.exprs;
import static io.schedext.plugins.nodeaffinity.Affinities.field;
import static io.schedext.plugins.nodeaffinity.Affinities.fields;
import static io.schedext.plugins.nodeaffinity.Affinities.nameField;
import static io.schedext.plugins.nodeaffinity.Affinities.nodeAffinity;
import static io.schedext.plugins.nodeaffinity.Affinities.podRequiring;
import static io.schedext.plugins.nodeaffinity.Affinities.podWith;
import static io.schedext.plugins.nodeaffinity.Affinities.required;
import static io.schedext.plugins.nodeaffinity.Affinities.term;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.schedext.framework.CycleState;
import io.schedext.framework.FrameworkException;
import io.schedext.framework.NodeInfo;
import io.schedext.framework.PluginArgs;
import io.schedext.framework.PodInfo;
import io.schedext.framework.PreFilterResult;
import io.schedext.framework.Status;
import io.schedext.plugins.Names;
import io.schedext.testing.MakeNode;
import io.schedext.testing.MakePod;
import io.schedext.testing.TestFrameworks;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

class NodeAffinityFilterTest {

  private static final Status POD_MISMATCH =
      Status.unresolvable(NodeAffinity.ERR_REASON_POD).withPlugin(Names.NODE_AFFINITY);
  private static final Status ENFORCED_MISMATCH =
      Status.unresolvable(NodeAffinity.ERR_REASON_ENFORCED).withPlugin(Names.NODE_AFFINITY);
  private static final PreFilterResult SKIP = PreFilterResult.of(Status.skip());
  private static final PreFilterResult OK = PreFilterResult.success();
  private static final NodeAffinityArgs NO_ARGS = new NodeAffinityArgs(null);

  /** A case; {@code wantPreFilter} null means PreFilter is not run before Filter. */
  record Case(
      String name,
      PodInfo pod,
      NodeInfo node,
      NodeAffinityArgs args,
      PreFilterResult wantPreFilter,
      Status wantFilter) {
    @Override
    public String toString() {
      return name;
    }
  }

  private static NodeInfo node(String name, Map<String, String> labels) {
    return MakeNode.node().name(name).labels(labels).info();
  }

  private static PodInfo selecting(Map<String, String> selector) {
    return MakePod.pod().name("p").nodeSelector(selector).info();
  }

  static Stream<Case> cases() {
    NodeAffinityArgs addedNode2 =
        new NodeAffinityArgs(nodeAffinity(required(fields(nameField("In", "node2")))));
    return Stream.of(
        new Case(
            "a node without the selected labels is rejected",
            selecting(Map.of("foo", "bar")),
            node("n", Map.of()),
            NO_ARGS,
            OK,
            POD_MISMATCH),
        new Case(
            "a node with exactly the selected labels fits",
            selecting(Map.of("foo", "bar")),
            node("n", Map.of("foo", "bar")),
            NO_ARGS,
            OK,
            Status.success()),
        new Case(
            "a node with a superset of the selected labels fits",
            selecting(Map.of("foo", "bar")),
            node("n", Map.of("foo", "bar", "baz", "blah")),
            NO_ARGS,
            OK,
            Status.success()),
        new Case(
            "a node with only a subset of the selected labels is rejected",
            selecting(Map.of("foo", "bar", "baz", "blah")),
            node("n", Map.of("foo", "bar")),
            NO_ARGS,
            OK,
            POD_MISMATCH),
        new Case(
            "an In expression matching the node's label value fits",
            podRequiring(exprs(expr("foo", "In", "bar", "value2"))),
            node("n", Map.of("foo", "bar")),
            NO_ARGS,
            OK,
            Status.success()),
        new Case(
            "a Gt expression compares integers, leading zeros included",
            podRequiring(exprs(expr("kernel-version", "Gt", "0204"))),
            node("n", Map.of("kernel-version", "0206")),
            NO_ARGS,
            OK,
            Status.success()),
        new Case(
            "a NotIn expression fits a node with another value",
            podRequiring(exprs(expr("mem-type", "NotIn", "DDR", "DDR2"))),
            node("n", Map.of("mem-type", "DDR3")),
            NO_ARGS,
            OK,
            Status.success()),
        new Case(
            "an Exists expression fits a node carrying the key",
            podRequiring(exprs(expr("GPU", "Exists"))),
            node("n", Map.of("GPU", "NVIDIA-GRID-K1")),
            NO_ARGS,
            OK,
            Status.success()),
        new Case(
            "an In expression whose values miss the node's value is rejected",
            podRequiring(exprs(expr("foo", "In", "value1", "value2"))),
            node("n", Map.of("foo", "bar")),
            NO_ARGS,
            OK,
            POD_MISMATCH),
        new Case(
            "a term without any requirement matches no node",
            podRequiring(exprs()),
            node("n", Map.of("foo", "bar")),
            NO_ARGS,
            OK,
            POD_MISMATCH),
        new Case(
            "a pod without affinity or selector skips the Filter and would fit anyway",
            MakePod.pod().name("p").info(),
            node("n", Map.of("foo", "bar")),
            NO_ARGS,
            SKIP,
            Status.success()),
        new Case(
            "node affinity without required terms skips the Filter",
            podWith(nodeAffinity(null)),
            node("n", Map.of("foo", "bar")),
            NO_ARGS,
            SKIP,
            Status.success()),
        new Case(
            "ANDed expressions that all hold fit",
            podRequiring(exprs(expr("GPU", "Exists"), expr("GPU", "NotIn", "AMD", "INTER"))),
            node("n", Map.of("GPU", "NVIDIA-GRID-K1")),
            NO_ARGS,
            OK,
            Status.success()),
        new Case(
            "ANDed expressions of which one fails are rejected",
            podRequiring(exprs(expr("GPU", "Exists"), expr("GPU", "In", "AMD", "INTER"))),
            node("n", Map.of("GPU", "NVIDIA-GRID-K1")),
            NO_ARGS,
            OK,
            POD_MISMATCH),
        new Case(
            "ORed terms fit when one of them matches",
            podRequiring(
                exprs(expr("foo", "In", "bar", "value2")),
                exprs(expr("diffkey", "In", "wrong", "value2"))),
            node("n", Map.of("foo", "bar")),
            NO_ARGS,
            OK,
            Status.success()),
        new Case(
            "a node satisfying both the node selector and the affinity fits",
            withSelector(podRequiring(exprs(expr("foo", "Exists"))), Map.of("foo", "bar")),
            node("n", Map.of("foo", "bar")),
            NO_ARGS,
            OK,
            Status.success()),
        new Case(
            "a node matching the affinity but not the node selector is rejected",
            withSelector(podRequiring(exprs(expr("foo", "Exists"))), Map.of("foo", "bar")),
            node("n", Map.of("foo", "barrrrrr")),
            NO_ARGS,
            OK,
            POD_MISMATCH),
        new Case(
            "a term with an invalid value never matches",
            podRequiring(exprs(expr("foo", "NotIn", "invalid value: ___@#$%^"))),
            node("n", Map.of("foo", "bar")),
            NO_ARGS,
            OK,
            POD_MISMATCH),
        new Case(
            "a metadata.name In field narrows PreFilter to that node, which fits",
            podRequiring(fields(nameField("In", "node1"))),
            node("node1", Map.of()),
            NO_ARGS,
            PreFilterResult.nodes(Set.of("node1")),
            Status.success()),
        new Case(
            "a metadata.name In field rejects any other node",
            podRequiring(fields(nameField("In", "node1"))),
            node("node2", Map.of()),
            NO_ARGS,
            PreFilterResult.nodes(Set.of("node1")),
            POD_MISMATCH),
        new Case(
            "a term without name fields leaves every node to the Filter, where that term matches",
            podRequiring(
                fields(nameField("In", "node1"), nameField("In", "node2")),
                exprs(expr("foo", "In", "bar"))),
            node("node2", Map.of("foo", "bar")),
            NO_ARGS,
            OK,
            Status.success()),
        new Case(
            "a term pinning a name and requiring a label rejects another node with that label",
            podRequiring(
                term(List.of(expr("foo", "In", "bar")), List.of(nameField("In", "node1")))),
            node("node2", Map.of("foo", "bar")),
            NO_ARGS,
            PreFilterResult.nodes(Set.of("node1")),
            POD_MISMATCH),
        new Case(
            "a term pinning a name and requiring a label fits that node with that label",
            podRequiring(
                term(List.of(expr("foo", "In", "bar")), List.of(nameField("In", "node1")))),
            node("node1", Map.of("foo", "bar")),
            NO_ARGS,
            PreFilterResult.nodes(Set.of("node1")),
            Status.success()),
        new Case(
            "two terms of which neither matches are rejected",
            podRequiring(
                fields(nameField("In", "node1")), exprs(expr("foo", "In", "not-match-to-bar"))),
            node("node2", Map.of("foo", "bar")),
            NO_ARGS,
            OK,
            POD_MISMATCH),
        new Case(
            "two terms pinning names narrow PreFilter to their union",
            podRequiring(fields(nameField("In", "node1")), fields(nameField("In", "node2"))),
            node("node2", Map.of()),
            NO_ARGS,
            PreFilterResult.nodes(Set.of("node1", "node2")),
            Status.success()),
        new Case(
            "one term pinning two different names conflicts at PreFilter and matches no node",
            podRequiring(fields(nameField("In", "node1"), nameField("In", "node2"))),
            node("node2", Map.of("foo", "bar")),
            NO_ARGS,
            PreFilterResult.of(
                Status.unresolvable(NodeAffinity.ERR_REASON_CONFLICT)
                    .withPlugin(Names.NODE_AFFINITY)),
            POD_MISMATCH),
        new Case(
            "a node matching both the added affinity and the pod's affinity fits",
            podRequiring(exprs(expr("zone", "In", "foo"))),
            node("node2", Map.of("zone", "foo")),
            addedNode2,
            OK,
            Status.success()),
        new Case(
            "a node matching the added affinity but not the pod's affinity is rejected for the pod",
            podRequiring(exprs(expr("zone", "In", "bar"))),
            node("node2", Map.of("zone", "foo")),
            addedNode2,
            OK,
            POD_MISMATCH),
        new Case(
            "a node missing the added affinity is rejected as scheduler-enforced, even for a plain pod",
            MakePod.pod().name("p").info(),
            node("node2", Map.of("zone", "foo")),
            new NodeAffinityArgs(nodeAffinity(required(exprs(expr("zone", "In", "bar"))))),
            OK,
            ENFORCED_MISMATCH),
        new Case(
            "the node selector is checked even when PreFilter did not run",
            selecting(Map.of("foo", "bar")),
            node("n", Map.of("foo", "bar", "baz", "blah")),
            NO_ARGS,
            null,
            Status.success()),
        new Case(
            "the required affinity is checked even when PreFilter did not run",
            podRequiring(exprs(expr("GPU", "Exists"), expr("GPU", "NotIn", "AMD", "INTER"))),
            node("n", Map.of("GPU", "NVIDIA-GRID-K1")),
            NO_ARGS,
            null,
            Status.success()),
        new Case(
            "a mismatch is found even when PreFilter did not run",
            podRequiring(exprs(expr("GPU", "DoesNotExist"))),
            node("n", Map.of("GPU", "x")),
            NO_ARGS,
            null,
            POD_MISMATCH),
        new Case(
            "required affinity with no terms at all matches no node and does not narrow",
            podWith(nodeAffinity(required())),
            node("n", Map.of()),
            NO_ARGS,
            OK,
            POD_MISMATCH),
        new Case(
            "a metadata.name NotIn field does not narrow and admits other nodes",
            podRequiring(fields(nameField("NotIn", "node1"))),
            node("node2", Map.of()),
            NO_ARGS,
            OK,
            Status.success()),
        new Case(
            "a metadata.name NotIn field rejects the named node",
            podRequiring(fields(nameField("NotIn", "node1"))),
            node("node1", Map.of()),
            NO_ARGS,
            OK,
            POD_MISMATCH),
        new Case(
            "an In field on another key does not narrow and matches no node",
            podRequiring(fields(field("metadata.namespace", "In", "node1"))),
            node("node1", Map.of()),
            NO_ARGS,
            OK,
            POD_MISMATCH),
        new Case(
            "a name field with two values is a parse error: narrowed by PreFilter yet matching no node",
            podRequiring(fields(nameField("In", "node1", "node2"))),
            node("node1", Map.of()),
            NO_ARGS,
            PreFilterResult.nodes(Set.of("node1", "node2")),
            POD_MISMATCH));
  }

  private static PodInfo withSelector(PodInfo pod, Map<String, String> selector) {
    pod.pod().getSpec().setNodeSelector(new LinkedHashMap<>(selector));
    return PodInfo.of(pod.pod());
  }

  static PluginArgs pluginArgs(NodeAffinityArgs args) {
    return PluginArgs.of(Names.NODE_AFFINITY, new ObjectMapper().valueToTree(args));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void preFilterAndFilter(Case c) {
    NodeAffinity plugin = NodeAffinity.create(pluginArgs(c.args()), null);
    CycleState state = TestFrameworks.cycleState(List.of(c.node()));
    if (c.wantPreFilter() != null) {
      assertThat(plugin.preFilter(state, c.pod())).isEqualTo(c.wantPreFilter());
    }
    assertThat(plugin.filter(state, c.pod(), c.node())).isEqualTo(c.wantFilter());
  }

  @Test
  void argsDecodeFromConfigurationJson() {
    String json =
        "{\"addedAffinity\":{\"requiredDuringSchedulingIgnoredDuringExecution\":{\"nodeSelectorTerms\":"
            + "[{\"matchExpressions\":[{\"key\":\"zone\",\"operator\":\"In\",\"values\":[\"bar\"]}]}]}}}";
    NodeAffinity plugin =
        NodeAffinity.create(PluginArgs.of(Names.NODE_AFFINITY, TestFrameworks.json(json)), null);
    NodeInfo foo = node("n", Map.of("zone", "foo"));
    NodeInfo bar = node("n", Map.of("zone", "bar"));
    CycleState state = TestFrameworks.cycleState(List.of(foo));
    PodInfo pod = MakePod.pod().name("p").info();
    assertThat(plugin.preFilter(state, pod)).isEqualTo(OK);
    assertThat(plugin.filter(state, pod, foo)).isEqualTo(ENFORCED_MISMATCH);
    assertThat(plugin.filter(state, pod, bar)).isEqualTo(Status.success());
  }

  @Test
  void emptyArgsAddNothing() {
    NodeAffinity plugin =
        NodeAffinity.create(PluginArgs.of(Names.NODE_AFFINITY, TestFrameworks.json("{}")), null);
    PodInfo pod = MakePod.pod().name("p").info();
    assertThat(plugin.preFilter(TestFrameworks.cycleState(List.of()), pod)).isEqualTo(SKIP);
  }

  @Test
  void anAddedRequiredTermThatDoesNotParseIsRejectedAtCreation() {
    NodeAffinityArgs args =
        new NodeAffinityArgs(nodeAffinity(required(exprs(expr("zone", "Near", "x")))));
    assertThatThrownBy(() -> NodeAffinity.create(pluginArgs(args), null))
        .isInstanceOf(FrameworkException.class)
        .hasMessageContaining(
            "addedAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms[0]")
        .hasMessageContaining("Near");
  }

  @Test
  void anAddedPreferredTermThatDoesNotParseIsRejectedAtCreation() {
    NodeAffinityArgs args =
        new NodeAffinityArgs(
            nodeAffinity(
                null,
                Affinities.preferred(1, exprs(expr("zone", "In", "a"))),
                Affinities.preferred(3, fields(nameField("Exists")))));
    assertThatThrownBy(() -> NodeAffinity.create(pluginArgs(args), null))
        .isInstanceOf(FrameworkException.class)
        .hasMessageContaining("addedAffinity.preferredDuringSchedulingIgnoredDuringExecution[1]");
  }
}
