package io.schedext.extender;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** The text report: whole texts for small cases, bounded length for a 5,000-node cluster. */
class ExplanationReportTest {

  private static final String FIT = "NodeResourcesFit";
  private static final String TAINTS = "TaintToleration";

  static Explanation.PluginStatus ok(String plugin) {
    return new Explanation.PluginStatus(plugin, "Success", List.of());
  }

  static Explanation.PluginStatus no(String plugin, String... reasons) {
    return new Explanation.PluginStatus(plugin, "Unschedulable", List.of(reasons));
  }

  static Explanation.NodeVerdict rejected(String node, Explanation.PluginStatus... filters) {
    return new Explanation.NodeVerdict(node, false, List.of(filters), List.of(), null, null);
  }

  static Explanation.NodeVerdict feasible(String node, long fit, long taints) {
    return new Explanation.NodeVerdict(
        node,
        true,
        List.of(ok(TAINTS), ok(FIT)),
        List.of(
            new Explanation.PluginScore(TAINTS, 100, taints / 3, 3, taints),
            new Explanation.PluginScore(FIT, fit, fit, 1, fit)),
        fit + taints,
        (fit + taints) / 40);
  }

  static Explanation explanation(
      String boundNode,
      String summary,
      List<Explanation.NodeVerdict> nodes,
      Explanation.Preemption preemption) {
    List<String> feasible =
        nodes.stream()
            .filter(Explanation.NodeVerdict::feasible)
            .map(Explanation.NodeVerdict::node)
            .toList();
    return new Explanation(
        "shop/redis-2",
        "default-scheduler",
        boundNode,
        summary,
        List.of(TAINTS, FIT),
        List.of(new Explanation.ScorePlugin(TAINTS, 3), new Explanation.ScorePlugin(FIT, 1)),
        List.of(),
        List.of(),
        nodes,
        feasible,
        feasible.isEmpty() ? List.of() : List.of(feasible.get(0)),
        preemption,
        null);
  }

  record Case(String name, Explanation explanation, String want) {
    @Override
    public String toString() {
      return name;
    }
  }

  /** The report of the three nodes none of which fits, up to the preemption outcome. */
  private static final String NONE_FIT_REPORT =
      """
      pod shop/redis-2 (profile default-scheduler)
      0/3 nodes are available: 1 node(s) had untolerated taint {gpu: }, 2 Insufficient cpu.

      rejected: 3 nodes, grouped by the filters that rejected them
        2  NodeResourcesFit: Insufficient cpu
           node-a, node-b
        1  TaintToleration: node(s) had untolerated taint {gpu: }; NodeResourcesFit: Insufficient cpu
           node-c

      preemption (what-if; nothing is evicted)
      """;

  static Stream<Case> cases() {
    String fitSummary =
        "0/3 nodes are available: 1 node(s) had untolerated taint {gpu: }, 2 Insufficient cpu.";
    List<Explanation.NodeVerdict> noneFit =
        List.of(
            rejected("node-a", ok(TAINTS), no(FIT, "Insufficient cpu")),
            rejected("node-b", ok(TAINTS), no(FIT, "Insufficient cpu")),
            rejected(
                "node-c",
                no(TAINTS, "node(s) had untolerated taint {gpu: }"),
                no(FIT, "Insufficient cpu")));
    return Stream.of(
        new Case(
            "feasible nodes come best first with the scores that differ, then the rejected ones",
            explanation(
                null,
                "2/3 nodes are available; the highest total score is 370, on node-b.",
                List.of(
                    feasible("node-a", 50, 300),
                    feasible("node-b", 70, 300),
                    rejected(
                        "node-c", no(TAINTS, "node(s) had untolerated taint {gpu: }"), ok(FIT))),
                null),
            """
            pod shop/redis-2 (profile default-scheduler)
            2/3 nodes are available; the highest total score is 370, on node-b.

            feasible: 2 nodes, highest total score first (extender score 0-10 in brackets)
              node-b  370 [ 9]  NodeResourcesFit 70
              node-a  350 [ 8]  NodeResourcesFit 50

            rejected: 1 node, grouped by the filters that rejected them
              1  TaintToleration: node(s) had untolerated taint {gpu: }
                 node-c
            """),
        new Case(
            "rejected nodes are grouped by every filter that rejected them, largest group first",
            explanation(
                null,
                fitSummary,
                noneFit,
                new Explanation.Preemption(
                    "Unschedulable",
                    List.of(
                        "preemption: 0/3 nodes are available: 3 No "
                            + "preemption victims found for incoming pod."),
                    null,
                    List.of())),
            NONE_FIT_REPORT
                + """
              cannot help: preemption: 0/3 nodes are available: 3 No preemption victims found for incoming pod.
            """),
        new Case(
            "a nomination lists the victims",
            explanation(
                null,
                fitSummary,
                noneFit,
                new Explanation.Preemption(
                    "Success",
                    List.of(),
                    "node-b",
                    List.of(new Explanation.Victim("batch/etl-1", "u1", 0)))),
            NONE_FIT_REPORT
                + """
              would nominate node-b and evict 1 pod
                batch/etl-1 (priority 0)
            """),
        new Case(
            "a bound pod says whether it still fits its node",
            explanation(
                "node-a",
                "1/1 nodes are available; the highest total score is 350, on node-a.",
                List.of(feasible("node-a", 50, 300)),
                null),
            """
            pod shop/redis-2 (profile default-scheduler)
            bound to node-a; explained as if it were not (it would still fit there)
            1/1 nodes are available; the highest total score is 350, on node-a.

            feasible: 1 node, highest total score first (extender score 0-10 in brackets)
              node-a  350 [ 8]  TaintToleration 300, NodeResourcesFit 50
            """));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void rendersTheWholeText(Case c) {
    assertThat(ExplanationReport.render(c.explanation())).isEqualTo(c.want());
  }

  @Test
  void fiveThousandNodesStayAScreenful() {
    List<Explanation.NodeVerdict> nodes = new ArrayList<>();
    IntStream.range(0, 1000)
        .forEach(i -> nodes.add(feasible(String.format("node-%04d", i), i % 100, 300)));
    IntStream.range(1000, 4000)
        .forEach(
            i ->
                nodes.add(
                    rejected(
                        String.format("node-%04d", i), ok(TAINTS), no(FIT, "Insufficient cpu"))));
    IntStream.range(4000, 5000)
        .forEach(
            i ->
                nodes.add(
                    rejected(
                        String.format("node-%04d", i),
                        no(TAINTS, "node(s) had untolerated taint {gpu: }"),
                        ok(FIT))));

    String text = ExplanationReport.render(explanation(null, "summary", nodes, null));

    assertThat(text.lines().count()).isLessThan(40);
    assertThat(text)
        .contains("  ... and 980 more feasible nodes\n")
        .contains(
            "  3000  NodeResourcesFit: Insufficient cpu\n"
                + "        node-1000, node-1001, node-1002, node-1003, node-1004 ... and 2995 more\n")
        .contains("  1000  TaintToleration: node(s) had untolerated taint {gpu: }\n");
  }

  static Explanation.PluginStatus devices(String... lines) {
    return new Explanation.PluginStatus(
        "DynamicResources",
        "UnschedulableAndUnresolvable",
        List.of("cannot allocate all claims"),
        new Explanation.Detail(List.of(lines), null));
  }

  @Test
  void whatAPluginFoundIsGroupedByNodeWithTheFirstNodesOwnDevice() {
    String claim = "claim ml/big, request gpus: wants 4 devices of class gpu.example.com, 0 usable";
    String none = "the node offers 0 devices, 0 of the class; 0 allocated to other claims";
    String small =
        "the node offers 2 devices, 2 of the class; request selector #0 rejected 2;"
            + " 0 allocated to other claims";
    Explanation e =
        explanation(
            null,
            "0/4 nodes are available: 4 cannot allocate all claims.",
            List.of(
                rejected("node-a", devices(claim, none)),
                rejected("node-b", devices(claim, none)),
                rejected(
                    "node-c", devices(claim, small, "first failing: x >= 1 rejected d/node-c/g0")),
                rejected(
                    "node-d", devices(claim, small, "first failing: x >= 1 rejected d/node-d/g0"))),
            null);
    assertThat(ExplanationReport.render(e))
        .contains(
            """

            DynamicResources, rejected nodes grouped by what it found
              2  claim ml/big, request gpus: wants 4 devices of class gpu.example.com, 0 usable
                 the node offers 0 devices, 0 of the class; 0 allocated to other claims
                 node-a, node-b
              2  claim ml/big, request gpus: wants 4 devices of class gpu.example.com, 0 usable
                 the node offers 2 devices, 2 of the class; request selector #0 rejected 2; 0 allocated to other claims
                 first failing on node-c: x >= 1 rejected d/node-c/g0
                 node-c, node-d
            """);
  }

  @Test
  void manyDifferentFindingsStayAFewLines() {
    List<Explanation.NodeVerdict> nodes = new ArrayList<>();
    for (int i = 0; i < 5000; i++) {
      nodes.add(rejected("node-" + i, devices("claim ns/c, request r: " + (i % 50) + " usable")));
    }
    String report =
        ExplanationReport.render(explanation(null, "0/5000 nodes are available.", nodes, null));
    String section = report.substring(report.indexOf("DynamicResources, rejected nodes"));
    assertThat(section.lines().count())
        .isLessThanOrEqualTo(2 + 2 * ExplanationReport.DETAIL_GROUPS + 3);
    assertThat(section).contains("... and 4700 more nodes with other findings");
  }
}
