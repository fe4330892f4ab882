package io.schedext.kube;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.NodeSelector;
import io.fabric8.kubernetes.api.model.NodeSelectorRequirement;
import io.fabric8.kubernetes.api.model.NodeSelectorTerm;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** Required node selector terms, as component-helpers' nodeaffinity lazy-error node selector. */
class NodeSelectorTermsTest {

  static NodeSelectorRequirement req(String key, String op, String... values) {
    return new NodeSelectorRequirement(
        key, op, values.length == 0 ? null : new ArrayList<>(List.of(values)));
  }

  static NodeSelectorTerm labels(NodeSelectorRequirement... exprs) {
    NodeSelectorTerm t = new NodeSelectorTerm();
    t.setMatchExpressions(new ArrayList<>(List.of(exprs)));
    return t;
  }

  static NodeSelectorTerm fields(NodeSelectorRequirement... exprs) {
    NodeSelectorTerm t = new NodeSelectorTerm();
    t.setMatchFields(new ArrayList<>(List.of(exprs)));
    return t;
  }

  static NodeSelectorTerm both(NodeSelectorRequirement label, NodeSelectorRequirement field) {
    NodeSelectorTerm t = labels(label);
    t.setMatchFields(new ArrayList<>(List.of(field)));
    return t;
  }

  /**
   * A match case.
   *
   * @param name the behaviour
   * @param terms the terms (ORed)
   * @param nodeName the node's name
   * @param nodeLabels the node's labels
   * @param matches whether the node matches
   * @param errors how many terms failed to compile
   */
  record Case(
      String name,
      List<NodeSelectorTerm> terms,
      String nodeName,
      Map<String, String> nodeLabels,
      boolean matches,
      int errors) {
    @Override
    public String toString() {
      return name;
    }
  }

  static Stream<Case> cases() {
    Map<String, String> fooBar = Map.of("foo", "bar");
    return Stream.of(
        new Case("no terms match nothing", List.of(), "n", fooBar, false, 0),
        new Case(
            "an empty term matches nothing",
            List.of(new NodeSelectorTerm()),
            "n",
            fooBar,
            false,
            0),
        new Case(
            "a term with empty lists matches nothing",
            List.of(labels(), fields()),
            "n",
            fooBar,
            false,
            0),
        new Case(
            "a matching In expression",
            List.of(labels(req("foo", "In", "bar", "baz"))),
            "n",
            fooBar,
            true,
            0),
        new Case(
            "a non-matching In expression",
            List.of(labels(req("foo", "In", "baz"))),
            "n",
            fooBar,
            false,
            0),
        new Case(
            "expressions of one term are ANDed",
            List.of(labels(req("foo", "In", "bar"), req("x", "Exists"))),
            "n",
            fooBar,
            false,
            0),
        new Case(
            "terms are ORed",
            List.of(labels(req("foo", "In", "baz")), labels(req("foo", "Exists"))),
            "n",
            fooBar,
            true,
            0),
        new Case(
            "NotIn matches a node without the label",
            List.of(labels(req("zone", "NotIn", "a"))),
            "n",
            Map.of(),
            true,
            0),
        new Case(
            "DoesNotExist", List.of(labels(req("foo", "DoesNotExist"))), "n", fooBar, false, 0),
        new Case(
            "Gt compares the label as an integer",
            List.of(labels(req("cores", "Gt", "4"))),
            "n",
            Map.of("cores", "16"),
            true,
            0),
        new Case(
            "Gt fails on a label that is no integer",
            List.of(labels(req("cores", "Gt", "4"))),
            "n",
            Map.of("cores", "many"),
            false,
            0),
        new Case(
            "Lt", List.of(labels(req("cores", "Lt", "4"))), "n", Map.of("cores", "2"), true, 0),
        new Case(
            "matchFields metadata.name In selects the named node",
            List.of(fields(req("metadata.name", "In", "node-1"))),
            "node-1",
            Map.of(),
            true,
            0),
        new Case(
            "matchFields metadata.name In rejects other nodes",
            List.of(fields(req("metadata.name", "In", "node-1"))),
            "node-2",
            Map.of(),
            false,
            0),
        new Case(
            "matchFields metadata.name NotIn",
            List.of(fields(req("metadata.name", "NotIn", "node-1"))),
            "node-2",
            Map.of(),
            true,
            0),
        new Case(
            "matchFields of another field read an empty value",
            List.of(fields(req("metadata.uid", "In", "x"))),
            "node-1",
            Map.of(),
            false,
            0),
        new Case(
            "matchFields NotIn of another field matches",
            List.of(fields(req("metadata.uid", "NotIn", "x"))),
            "node-1",
            Map.of(),
            true,
            0),
        new Case(
            "labels and fields of one term are ANDed",
            List.of(both(req("foo", "In", "bar"), req("metadata.name", "In", "node-2"))),
            "node-1",
            fooBar,
            false,
            0),
        new Case(
            "labels and fields both satisfied",
            List.of(both(req("foo", "In", "bar"), req("metadata.name", "In", "node-1"))),
            "node-1",
            fooBar,
            true,
            0),
        new Case(
            "matchFields are ignored for a node without a name",
            List.of(both(req("foo", "In", "bar"), req("metadata.name", "In", "node-1"))),
            "",
            fooBar,
            true,
            0),
        new Case(
            "a faulty term is ignored and another term can match",
            List.of(labels(req("foo", "Bad", "bar")), labels(req("foo", "In", "bar"))),
            "n",
            fooBar,
            true,
            1),
        new Case(
            "a faulty term alone matches nothing",
            List.of(labels(req("foo", "In"))),
            "n",
            fooBar,
            false,
            1),
        new Case(
            "a field requirement with two values is faulty",
            List.of(fields(req("metadata.name", "In", "a", "b")), labels(req("foo", "Exists"))),
            "a",
            fooBar,
            true,
            1),
        new Case(
            "a field requirement with Exists is faulty",
            List.of(fields(req("metadata.name", "Exists"))),
            "a",
            fooBar,
            false,
            1),
        new Case(
            "a negative Gt bound is faulty",
            List.of(labels(req("cores", "Gt", "-1"))),
            "n",
            Map.of("cores", "2"),
            false,
            1),
        new Case(
            "null node labels read as none",
            List.of(labels(req("foo", "DoesNotExist"))),
            "n",
            null,
            true,
            0));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void matches(Case c) {
    NodeSelectorTerms t = NodeSelectorTerms.compileTerms(c.terms());
    assertThat(t.matches(c.nodeName(), c.nodeLabels())).isEqualTo(c.matches());
    assertThat(t.parseErrors()).hasSize(c.errors());
    assertThat(t.size()).isEqualTo(c.terms().size());
  }

  @Test
  void aNullSelectorOrNullTermsHaveNoTerms() {
    assertThat(NodeSelectorTerms.compile(null).size()).isZero();
    assertThat(NodeSelectorTerms.compile(new NodeSelector()).matches("n", Map.of())).isFalse();
  }

  @Test
  void parseErrorsSayWhatIsWrong() {
    NodeSelectorTerms t =
        NodeSelectorTerms.compileTerms(
            List.of(
                labels(req("foo", "Bad", "bar")),
                fields(req("metadata.name", "Gt", "1")),
                fields(req("metadata.name", "In"))));
    assertThat(t.parseErrors())
        .containsExactly(
            "\"Bad\" is not a valid node selector operator",
            "\"Gt\" is not a valid node field selector operator",
            "unexpected number of value (0) for node field selector operator \"In\"");
    assertThat(t.term(0).labelRequirements()).isNull();
  }
}
