package io.schedext.plugins.nodelabel;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.schedext.cluster.ObjectStore;
import io.schedext.framework.CycleState;
import io.schedext.framework.FrameworkException;
import io.schedext.framework.NodeInfo;
import io.schedext.framework.PluginArgs;
import io.schedext.framework.PodInfo;
import io.schedext.framework.Registry;
import io.schedext.framework.Status;
import io.schedext.plugins.Names;
import io.schedext.testing.MakeNode;
import io.schedext.testing.MakePod;
import io.schedext.testing.TestFrameworks;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

class NodeLabelTest {

  private static final Status VIOLATED =
      Status.unresolvable(NodeLabel.ERR_REASON_PRESENCE_VIOLATED).withPlugin(Names.NODE_LABEL);
  private static final PodInfo POD = MakePod.pod().name("p").info();

  private static NodeLabel plugin(String argsJson) {
    return NodeLabel.create(PluginArgs.of(Names.NODE_LABEL, TestFrameworks.json(argsJson)), null);
  }

  record FilterCase(String name, String args, Status want) {
    @Override
    public String toString() {
      return name;
    }
  }

  static Stream<FilterCase> filterCases() {
    return Stream.of(
        new FilterCase(
            "a missing present label rejects the node as unresolvable",
            "{\"presentLabels\":[\"baz\"]}",
            VIOLATED),
        new FilterCase(
            "a missing absent label lets the node pass",
            "{\"absentLabels\":[\"baz\"]}",
            Status.success()),
        new FilterCase(
            "one of two present labels missing rejects the node",
            "{\"presentLabels\":[\"foo\",\"baz\"]}",
            VIOLATED),
        new FilterCase(
            "one of two absent labels present rejects the node",
            "{\"absentLabels\":[\"foo\",\"baz\"]}",
            VIOLATED),
        new FilterCase(
            "all present labels present lets the node pass",
            "{\"presentLabels\":[\"foo\",\"bar\"]}",
            Status.success()),
        new FilterCase(
            "all absent labels present rejects the node",
            "{\"absentLabels\":[\"foo\",\"bar\"]}",
            VIOLATED),
        new FilterCase(
            "a present label present but an absent label present too rejects the node",
            "{\"presentLabels\":[\"foo\"],\"absentLabels\":[\"bar\"]}",
            VIOLATED),
        new FilterCase(
            "a present label missing and an absent label missing rejects the node",
            "{\"presentLabels\":[\"foz\"],\"absentLabels\":[\"baz\"]}",
            VIOLATED),
        new FilterCase(
            "a present label present and an absent label missing lets the node pass",
            "{\"presentLabels\":[\"foo\"],\"absentLabels\":[\"baz\"]}",
            Status.success()),
        new FilterCase(
            "a present label missing and an absent label present rejects the node",
            "{\"presentLabels\":[\"foz\"],\"absentLabels\":[\"bar\"]}",
            VIOLATED),
        new FilterCase("no configured label lets every node pass", "{}", Status.success()),
        new FilterCase(
            "label values are ignored, only keys count",
            "{\"presentLabels\":[\"foo\"],\"absentLabels\":[\"any value\"]}",
            Status.success()));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("filterCases")
  void filter(FilterCase c) {
    NodeInfo node =
        MakeNode.node().name("n").label("foo", "any value").label("bar", "any value").info();
    CycleState state = TestFrameworks.cycleState(List.of(node));
    assertThat(plugin(c.args()).filter(state, POD, node)).isEqualTo(c.want());
  }

  @Test
  void filterOnANodeInfoWithoutANodeIsAnError() {
    NodeInfo ghost = new NodeInfo();
    Status s = plugin("{}").filter(TestFrameworks.cycleState(List.of()), POD, ghost);
    assertThat(s).isEqualTo(Status.error("node not found").withPlugin(Names.NODE_LABEL));
  }

  record ScoreCase(String name, String args, long want) {
    @Override
    public String toString() {
      return name;
    }
  }

  static Stream<ScoreCase> scoreCases() {
    return Stream.of(
        new ScoreCase(
            "one preferred present label on the node scores 100",
            "{\"presentLabelsPreference\":[\"foo\"]}",
            100),
        new ScoreCase(
            "one preferred present label missing scores 0",
            "{\"presentLabelsPreference\":[\"somelabel\"]}",
            0),
        new ScoreCase(
            "two preferred present labels on the node score 100",
            "{\"presentLabelsPreference\":[\"foo\",\"bar\"]}",
            100),
        new ScoreCase(
            "two preferred present labels missing score 0",
            "{\"presentLabelsPreference\":[\"somelabel1\",\"somelabel2\"]}",
            0),
        new ScoreCase(
            "one of two preferred present labels on the node scores 50",
            "{\"presentLabelsPreference\":[\"foo\",\"somelabel\"]}",
            50),
        new ScoreCase(
            "one preferred absent label on the node scores 0",
            "{\"absentLabelsPreference\":[\"foo\"]}",
            0),
        new ScoreCase(
            "one preferred absent label missing scores 100",
            "{\"absentLabelsPreference\":[\"somelabel\"]}",
            100),
        new ScoreCase(
            "two preferred absent labels on the node score 0",
            "{\"absentLabelsPreference\":[\"foo\",\"bar\"]}",
            0),
        new ScoreCase(
            "two preferred absent labels missing score 100",
            "{\"absentLabelsPreference\":[\"somelabel1\",\"somelabel2\"]}",
            100),
        new ScoreCase(
            "one of two preferred absent labels on the node scores 50",
            "{\"absentLabelsPreference\":[\"foo\",\"somelabel\"]}",
            50),
        new ScoreCase(
            "two present preferences met and two absent preferences met score 100",
            "{\"presentLabelsPreference\":[\"foo\",\"bar\"],\"absentLabelsPreference\":[\"somelabel1\",\"somelabel2\"]}",
            100),
        new ScoreCase(
            "no preference of four met scores 0",
            "{\"presentLabelsPreference\":[\"somelabel1\",\"somelabel2\"],\"absentLabelsPreference\":[\"foo\",\"bar\"]}",
            0),
        new ScoreCase(
            "three preferences of four met score 75",
            "{\"presentLabelsPreference\":[\"foo\",\"somelabel\"],\"absentLabelsPreference\":[\"somelabel1\",\"somelabel2\"]}",
            75),
        new ScoreCase(
            "one preference of three met scores 33 (integer division)",
            "{\"presentLabelsPreference\":[\"foo\",\"x\",\"y\"]}",
            33),
        new ScoreCase(
            "two preferences of three met score 66 (integer division)",
            "{\"presentLabelsPreference\":[\"foo\",\"bar\",\"y\"]}",
            66),
        new ScoreCase("no preference configured scores 0", "{}", 0),
        new ScoreCase(
            "required labels do not count for the score", "{\"presentLabels\":[\"foo\"]}", 0));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("scoreCases")
  void score(ScoreCase c) {
    NodeInfo node = MakeNode.node().name("machine1").label("foo", "").label("bar", "").info();
    CycleState state = TestFrameworks.cycleState(List.of(node));
    assertThat(plugin(c.args()).score(state, POD, node)).isEqualTo(c.want());
  }

  @Test
  void scoreOnANodeInfoWithoutANodeIsAnError() {
    NodeLabel p = plugin("{\"presentLabelsPreference\":[\"foo\"]}");
    assertThatThrownBy(() -> p.score(TestFrameworks.cycleState(List.of()), POD, new NodeInfo()))
        .isInstanceOf(FrameworkException.class)
        .hasMessage("node not found");
  }

  record ArgsCase(String name, String args, String wantError) {
    @Override
    public String toString() {
      return name;
    }
  }

  static Stream<ArgsCase> argsCases() {
    return Stream.of(
        new ArgsCase(
            "distinct labels in every list are valid",
            "{\"presentLabels\":[\"present\"],\"absentLabels\":[\"absent\"],"
                + "\"presentLabelsPreference\":[\"present-preference\"],"
                + "\"absentLabelsPreference\":[\"absent-preference\"]}",
            null),
        new ArgsCase(
            "the same label required both present and absent is rejected",
            "{\"presentLabels\":[\"label\"],\"absentLabels\":[\"label\"]}",
            "presentLabels[0]: Invalid value: \"label\": conflict with absentLabels[0]"),
        new ArgsCase(
            "several conflicts are listed together in absent-label order",
            "{\"presentLabels\":[\"label\",\"label3\"],\"absentLabels\":[\"label\",\"label2\",\"label3\"]}",
            "[presentLabels[0]: Invalid value: \"label\": conflict with absentLabels[0], "
                + "presentLabels[1]: Invalid value: \"label3\": conflict with absentLabels[2]]"),
        new ArgsCase(
            "the same label preferred both present and absent is rejected",
            "{\"presentLabelsPreference\":[\"label\"],\"absentLabelsPreference\":[\"label\"]}",
            "presentLabelsPreference[0]: Invalid value: \"label\": conflict with absentLabelsPreference[0]"),
        new ArgsCase(
            "a label required present may be preferred absent",
            "{\"presentLabels\":[\"label\"],\"absentLabelsPreference\":[\"label\"]}",
            null),
        new ArgsCase(
            "required and preferred conflicts are both reported",
            "{\"presentLabels\":[\"a\"],\"absentLabels\":[\"a\"],"
                + "\"presentLabelsPreference\":[\"b\"],\"absentLabelsPreference\":[\"b\"]}",
            "[presentLabels[0]: Invalid value: \"a\": conflict with absentLabels[0], "
                + "presentLabelsPreference[0]: Invalid value: \"b\": conflict with absentLabelsPreference[0]]"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("argsCases")
  void validatesArgs(ArgsCase c) {
    if (c.wantError() == null) {
      assertThat(plugin(c.args()).name()).isEqualTo(Names.NODE_LABEL);
    } else {
      assertThatThrownBy(() -> plugin(c.args()))
          .isInstanceOf(FrameworkException.class)
          .hasMessage(c.wantError());
    }
  }

  @Test
  void aFrameworkRefusesConflictingArgs() {
    Registry registry = new Registry().register(Names.NODE_LABEL, NodeLabel::create);
    assertThatThrownBy(
            () ->
                TestFrameworks.framework(
                    registry,
                    new ObjectStore(),
                    List.of(Names.NODE_LABEL),
                    Map.of(
                        Names.NODE_LABEL, "{\"presentLabels\":[\"a\"],\"absentLabels\":[\"a\"]}")))
        .isInstanceOf(FrameworkException.class)
        .hasMessageContaining(
            "presentLabels[0]: Invalid value: \"a\": conflict with absentLabels[0]");
  }

  @Test
  void missingArgsDefaultToEmptyLists() {
    assertThat(PluginArgs.none().as(NodeLabelArgs.class))
        .isEqualTo(new NodeLabelArgs(List.of(), List.of(), List.of(), List.of()));
  }
}
