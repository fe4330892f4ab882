package io.schedext.plugins.noderesources;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.schedext.framework.FrameworkException;
import io.schedext.framework.PluginArgs;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The arguments of both resource plugins: v1 defaults and upstream's validation messages (the
 * weight rows of the strategy tests and validation_pluginargs_test.go).
 */
class ArgsTest {

  private static final String REGEX_ERROR =
      "must consist of alphanumeric characters, '-', '_' or '.', and must start"
          + " and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for"
          + " validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')";

  record Case(String name, String plugin, String json, String wantError) {
    @Override
    public String toString() {
      return name;
    }
  }

  static Case fit(String name, String json, String wantError) {
    return new Case(name, Fit.NAME, json, wantError);
  }

  static Case balanced(String name, String json, String wantError) {
    return new Case(name, BalancedAllocation.NAME, json, wantError);
  }

  static Stream<Case> cases() {
    return Stream.of(
        fit("empty arguments are valid", "{}", null),
        fit(
            "every strategy type is accepted",
            "{\"scoringStrategy\":{\"type\":\"MostAllocated\"}}",
            null),
        fit(
            "a negative weight is rejected",
            "{\"scoringStrategy\":{\"type\":\"LeastAllocated\",\"resources\":[{\"name\":\"memory\",\"weight\":-1},"
                + "{\"name\":\"cpu\",\"weight\":1}]}}",
            "scoringStrategy.resources[0].weight: Invalid value: -1: resource weight of memory not in valid range"
                + " (0, 100]"),
        fit(
            "a zero weight defaults to 1 as in the v1 API",
            "{\"scoringStrategy\":{\"type\":\"LeastAllocated\",\"resources\":[{\"name\":\"memory\",\"weight\":1},"
                + "{\"name\":\"cpu\",\"weight\":0}]}}",
            null),
        fit(
            "a weight above 100 is rejected",
            "{\"scoringStrategy\":{\"type\":\"MostAllocated\",\"resources\":[{\"name\":\"memory\",\"weight\":1},"
                + "{\"name\":\"cpu\",\"weight\":101}]}}",
            "scoringStrategy.resources[1].weight: Invalid value: 101: resource weight of cpu not in valid range"
                + " (0, 100]"),
        fit(
            "an unknown strategy type lists the supported ones",
            "{\"scoringStrategy\":{\"type\":\"Random\"}}",
            "scoringStrategy.type: Unsupported value: \"Random\": supported values: \"LeastAllocated\","
                + " \"MostAllocated\", \"RequestedToCapacityRatio\""),
        fit(
            "a strategy without a type is not defaulted",
            "{\"scoringStrategy\":{\"resources\":[]}}",
            "scoringStrategy.type: Unsupported value: \"\": supported values: \"LeastAllocated\","
                + " \"MostAllocated\", \"RequestedToCapacityRatio\""),
        fit(
            "RequestedToCapacityRatio needs a shape",
            "{\"scoringStrategy\":{\"type\":\"RequestedToCapacityRatio\"}}",
            "scoringStrategy.shape: Required value: at least one point must be specified"),
        fit(
            "an empty shape is rejected",
            "{\"scoringStrategy\":{\"type\":\"RequestedToCapacityRatio\",\"requestedToCapacityRatio\":{\"shape\":[]}}}",
            "scoringStrategy.shape: Required value: at least one point must be specified"),
        fit(
            "shape points must increase in utilization",
            "{\"scoringStrategy\":{\"type\":\"RequestedToCapacityRatio\",\"requestedToCapacityRatio\":{\"shape\":["
                + "{\"utilization\":50,\"score\":1},{\"utilization\":50,\"score\":2}]}}}",
            "scoringStrategy.shape[1].utilization: Invalid value: 50: values must be sorted in increasing order"),
        fit(
            "every out-of-range point is reported, bracketed",
            "{\"scoringStrategy\":{\"type\":\"RequestedToCapacityRatio\",\"requestedToCapacityRatio\":{\"shape\":["
                + "{\"utilization\":-1,\"score\":11}]}}}",
            "[scoringStrategy.shape[0].utilization: Invalid value: -1: not in valid range [0, 100],"
                + " scoringStrategy.shape[0].score: Invalid value: 11: not in valid range [0, 10]]"),
        fit(
            "a resource group must not contain a slash",
            "{\"ignoredResourceGroups\":[\"example.com/aaa\"]}",
            "ignoredResourceGroups[0]: Invalid value: \"example.com/aaa\": resource group name can't contain '/'"),
        fit(
            "an ignored resource must be a qualified name",
            "{\"ignoredResources\":[\"-bad\"]}",
            "ignoredResources[0]: Invalid value: \"-bad\": name part " + REGEX_ERROR),
        fit(
            "an ignored resource with an empty prefix is rejected",
            "{\"ignoredResources\":[\"/gpu\"]}",
            "ignoredResources[0]: Invalid value: \"/gpu\": prefix part must be non-empty"),
        fit(
            "valid ignored resources and groups are accepted",
            "{\"ignoredResources\":[\"example.com/aaa\"],\"ignoredResourceGroups\":[\"example.com\"]}",
            null),
        balanced("empty balanced allocation arguments are valid", "{}", null),
        balanced(
            "balanced allocation weights default to 1",
            "{\"resources\":[{\"name\":\"cpu\"},{\"name\":\"memory\",\"weight\":0}]}",
            null),
        balanced(
            "balanced allocation rejects duplicates and weights other than 1",
            "{\"resources\":[{\"name\":\"cpu\",\"weight\":2},{\"name\":\"cpu\",\"weight\":1}]}",
            "[resources[0].weight: Invalid value: 2: must be 1, resources[1].name: Duplicate value: \"cpu\"]"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void create(Case c) {
    PluginArgs args = Fixtures.args(c.plugin(), c.json());
    Runnable create =
        c.plugin().equals(Fit.NAME)
            ? () -> Fit.create(args, null)
            : () -> BalancedAllocation.create(args, null);
    if (c.wantError() == null) {
      assertThatCode(create::run).doesNotThrowAnyException();
    } else {
      assertThatThrownBy(create::run)
          .isInstanceOf(FrameworkException.class)
          .hasMessage(c.wantError());
    }
  }

  @Test
  void fitDefaultsAreLeastAllocatedOverCpuAndMemory() {
    NodeResourcesFitArgs a = NodeResourcesFitArgs.defaults();
    assertThat(a.scoringStrategy())
        .isEqualTo(
            new NodeResourcesFitArgs.ScoringStrategy(
                "LeastAllocated",
                List.of(new ResourceSpec("cpu", 1), new ResourceSpec("memory", 1)),
                null));
    assertThat(a.ignoredResources()).isEmpty();
    assertThat(a.ignoredResourceGroups()).isEmpty();
  }

  @Test
  void balancedDefaultsAreCpuAndMemory() {
    assertThat(new NodeResourcesBalancedAllocationArgs(List.of()).resources())
        .containsExactly(new ResourceSpec("cpu", 1), new ResourceSpec("memory", 1));
  }

  @Test
  void aStrategyWithoutResourcesGetsTheDefaultSet() {
    NodeResourcesFitArgs a =
        Fixtures.args(Fit.NAME, "{\"scoringStrategy\":{\"type\":\"MostAllocated\"}}")
            .as(NodeResourcesFitArgs.class);
    assertThat(a.scoringStrategy().resources())
        .containsExactly(new ResourceSpec("cpu", 1), new ResourceSpec("memory", 1));
  }
}
