package io.schedext.plugins.defaultpreemption;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.schedext.cluster.ObjectStore;
import io.schedext.framework.FrameworkException;
import io.schedext.framework.PluginArgs;
import io.schedext.plugins.Names;
import io.schedext.testing.TestFrameworks;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The args' defaults, upstream's validation texts, and the number of candidates they ask the dry
 * run for.
 */
class DefaultPreemptionArgsTest {

  record Case(String name, String json, String wantError, int nodes, int wantCandidates) {
    @Override
    public String toString() {
      return name;
    }
  }

  static Stream<Case> cases() {
    return Stream.of(
        new Case(
            "defaults ask for 10% of the nodes but at least 100, so every node of a small cluster",
            "{}", null, 50, 50),
        new Case("defaults on 5000 nodes ask for 500 (10%)", "{}", null, 5000, 500),
        new Case(
            "defaults on 800 nodes ask for the absolute 100 as 10% is only 80",
            "{}", null, 800, 100),
        new Case(
            "40% of 5 nodes is 2",
            "{\"minCandidateNodesPercentage\":40,\"minCandidateNodesAbsolute\":1}", null, 5, 2),
        new Case(
            "the absolute floor wins over a smaller percentage",
            "{\"minCandidateNodesPercentage\":10,\"minCandidateNodesAbsolute\":3}",
            null,
            5,
            3),
        new Case(
            "a percentage of 0 leaves the absolute number",
            "{\"minCandidateNodesPercentage\":0,\"minCandidateNodesAbsolute\":1}",
            null,
            5,
            1),
        new Case(
            "a percentage above 100 is rejected",
            "{\"minCandidateNodesPercentage\":101}",
            "minCandidateNodesPercentage: Invalid value: 101: not in valid range [0, 100]",
            0,
            0),
        new Case(
            "a negative percentage is rejected",
            "{\"minCandidateNodesPercentage\":-1}",
            "minCandidateNodesPercentage: Invalid value: -1: not in valid range [0, 100]",
            0,
            0),
        new Case(
            "a negative absolute number is rejected",
            "{\"minCandidateNodesAbsolute\":-1}",
            "minCandidateNodesAbsolute: Invalid value: -1: not in valid range [0, inf)",
            0,
            0),
        new Case(
            "both zero is rejected on both fields",
            "{\"minCandidateNodesPercentage\":0,\"minCandidateNodesAbsolute\":0}",
            "[minCandidateNodesPercentage: Invalid value: 0: cannot be zero at the same time as "
                + "minCandidateNodesAbsolute, minCandidateNodesAbsolute: Invalid value: 0: cannot be zero at the "
                + "same time as minCandidateNodesPercentage]",
            0,
            0));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void create(Case c) {
    PluginArgs args = PluginArgs.of(Names.DEFAULT_PREEMPTION, TestFrameworks.json(c.json()));
    var handle = TestFrameworks.handle(new ObjectStore());
    if (c.wantError() != null) {
      assertThatThrownBy(() -> DefaultPreemption.create(args, handle))
          .isInstanceOf(FrameworkException.class)
          .hasMessage(c.wantError());
      return;
    }
    assertThat(DefaultPreemption.create(args, handle).calculateNumCandidates(c.nodes()))
        .isEqualTo(c.wantCandidates());
  }
}
