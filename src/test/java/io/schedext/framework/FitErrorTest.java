package io.schedext.framework;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The FailedScheduling text, against the texts upstream's FitError tests and scheduling tests
 * expect (types_test, schedule_one_test, the preemption tests): counting per node, the string sort
 * of {@code <count> <reason>}, the PreFilter message replacing the node reasons, absent nodes, and
 * the PostFilter clause.
 */
class FitErrorTest {

  private static final String AFFINITY = "node(s) didn't match Pod's node affinity/selector";
  private static final String TAINT = "node(s) had untolerated taint {dedicated: gpu}";
  private static final String UNSCHEDULABLE = "node(s) were unschedulable";
  private static final String NOT_HELPFUL = "Preemption is not helpful for scheduling";

  record Case(
      String name,
      int numAllNodes,
      String preFilter,
      List<Status> nodes,
      List<String> absent,
      String postFilter,
      String want) {
    @Override
    public String toString() {
      return name;
    }
  }

  static Status rejected(String... reasons) {
    return Status.unschedulable(reasons);
  }

  static Stream<Case> cases() {
    return Stream.of(
        new Case(
            "one reason on every node is counted once per node",
            3,
            "",
            List.of(rejected(AFFINITY), rejected(AFFINITY), rejected(AFFINITY)),
            List.of(),
            "",
            "0/3 nodes are available: 3 " + AFFINITY + "."),
        new Case(
            "each reason of a node with several counts for that node",
            2,
            "",
            List.of(
                rejected("Insufficient cpu", "Insufficient memory"), rejected("Insufficient cpu")),
            List.of(),
            "",
            "0/2 nodes are available: 1 Insufficient memory, 2 Insufficient cpu."),
        new Case(
            "the count is part of the sorted string, so 10 sorts before 2",
            12,
            "",
            Stream.concat(
                    Stream.generate(() -> rejected(TAINT)).limit(10),
                    Stream.generate(() -> rejected(UNSCHEDULABLE)).limit(2))
                .toList(),
            List.of(),
            "",
            "0/12 nodes are available: 10 " + TAINT + ", 2 " + UNSCHEDULABLE + "."),
        new Case(
            "a PreFilter rejection replaces the node reasons",
            3,
            "node(s) didn't satisfy plugin(s) [FakePreFilter2 FakePreFilter3] simultaneously",
            List.of(rejected("ignored"), rejected("ignored"), rejected("ignored")),
            List.of(),
            "",
            "0/3 nodes are available: node(s) didn't satisfy plugin(s) [FakePreFilter2 FakePreFilter3] "
                + "simultaneously."),
        new Case(
            "the PostFilter message follows the node reasons",
            3,
            "",
            List.of(rejected(AFFINITY), rejected(AFFINITY), rejected(AFFINITY)),
            List.of(),
            "preemption: 0/3 nodes are available: 3 " + NOT_HELPFUL + ".",
            "0/3 nodes are available: 3 "
                + AFFINITY
                + ". preemption: 0/3 nodes are available: 3 "
                + NOT_HELPFUL
                + "."),
        new Case(
            "the PostFilter message follows a PreFilter rejection too",
            2,
            "Insufficient cpu",
            List.of(),
            List.of(),
            "preemption: not eligible due to preemptionPolicy=Never.",
            "0/2 nodes are available: Insufficient cpu. preemption: not eligible due to preemptionPolicy=Never."),
        new Case(
            "nodes without a status count with the absent reasons",
            3,
            "",
            List.of(rejected("No preemption victims found for incoming pod")),
            List.of(NOT_HELPFUL),
            "",
            "0/3 nodes are available: 1 No preemption victims found for incoming pod, 2 "
                + NOT_HELPFUL
                + "."),
        new Case(
            "an absent reason that is also explicit adds up",
            3,
            "",
            List.of(rejected(NOT_HELPFUL)),
            List.of(NOT_HELPFUL),
            "",
            "0/3 nodes are available: 3 " + NOT_HELPFUL + "."),
        new Case(
            "no reasons at all leave the bare count",
            2,
            "",
            List.of(),
            List.of(),
            "",
            "0/2 nodes are available:"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void rendersUpstreamsText(Case c) {
    assertThat(
            FitError.message(c.numAllNodes(), c.preFilter(), c.nodes(), c.absent(), c.postFilter()))
        .isEqualTo(c.want());
  }
}
