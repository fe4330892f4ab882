package io.schedext.profiles;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import com.fasterxml.jackson.databind.JsonNode;
import io.schedext.framework.PluginArgs;
import io.schedext.framework.Profile.PluginRef;
import io.schedext.framework.Profile.PluginSet;
import io.schedext.framework.Registry;
import io.schedext.testing.TestFrameworks;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Upstream's v1 defaulting: the default plugin set, mergePlugins (default_plugins_test.go) and args
 * defaulting.
 */
class ProfileDefaultsTest {

  private static final Registry REGISTRY = InTreeRegistry.create();

  record MergeCase(
      String name,
      Map<String, PluginSet> defaults,
      Map<String, PluginSet> custom,
      Map<String, PluginSet> want) {
    @Override
    public String toString() {
      return name;
    }
  }

  private static PluginRef p(String name) {
    return PluginRef.of(name);
  }

  private static PluginRef p(String name, int weight) {
    return new PluginRef(name, weight);
  }

  private static PluginSet set(List<PluginRef> enabled, String... disabled) {
    return new PluginSet(enabled, Arrays.asList(disabled));
  }

  private static Map<String, PluginSet> sets(Object... keysAndSets) {
    Map<String, PluginSet> m = new LinkedHashMap<>();
    for (int i = 0; i < keysAndSets.length; i += 2) {
      m.put((String) keysAndSets[i], (PluginSet) keysAndSets[i + 1]);
    }
    return m;
  }

  static Stream<MergeCase> mergeCases() {
    return Stream.of(
        new MergeCase(
            "a custom filter plugin is appended after the defaults",
            sets("filter", set(List.of(p("DefaultPlugin1"), p("DefaultPlugin2")))),
            sets("filter", set(List.of(p("CustomPlugin")))),
            sets(
                "filter",
                set(List.of(p("DefaultPlugin1"), p("DefaultPlugin2"), p("CustomPlugin"))))),
        new MergeCase(
            "disabling a default and enabling it again after a custom plugin moves it behind that plugin",
            sets("filter", set(List.of(p("DefaultPlugin1"), p("DefaultPlugin2")))),
            sets("filter", set(List.of(p("CustomPlugin"), p("DefaultPlugin2")), "DefaultPlugin2")),
            sets(
                "filter",
                set(
                    List.of(p("DefaultPlugin1"), p("CustomPlugin"), p("DefaultPlugin2")),
                    "DefaultPlugin2"))),
        new MergeCase(
            "disabling every default puts a custom plugin before the re-enabled defaults",
            sets("filter", set(List.of(p("DefaultPlugin1"), p("DefaultPlugin2")))),
            sets(
                "filter",
                set(List.of(p("CustomPlugin"), p("DefaultPlugin1"), p("DefaultPlugin2")), "*")),
            sets(
                "filter",
                set(List.of(p("CustomPlugin"), p("DefaultPlugin1"), p("DefaultPlugin2")), "*"))),
        new MergeCase(
            "disabling every default and enabling them in another order reorders them",
            sets("filter", set(List.of(p("DefaultPlugin1"), p("DefaultPlugin2")))),
            sets("filter", set(List.of(p("DefaultPlugin2"), p("DefaultPlugin1")), "*")),
            sets("filter", set(List.of(p("DefaultPlugin2"), p("DefaultPlugin1")), "*"))),
        new MergeCase(
            "no custom plugins leave the defaults as they are",
            sets("filter", set(List.of(p("DefaultPlugin1"), p("DefaultPlugin2")))),
            null,
            sets("filter", set(List.of(p("DefaultPlugin1"), p("DefaultPlugin2"))))),
        new MergeCase(
            "re-enabling defaults with weights changes the weights in place",
            sets("filter", set(List.of(p("Plugin1"), p("Plugin2"), p("Plugin3")))),
            sets("filter", set(List.of(p("Plugin1", 2), p("Plugin3", 3)))),
            sets("filter", set(List.of(p("Plugin1", 2), p("Plugin2"), p("Plugin3", 3))))),
        new MergeCase(
            "re-enabled defaults keep the default order, not the custom one",
            sets("filter", set(List.of(p("Plugin1"), p("Plugin2"), p("Plugin3")))),
            sets("filter", set(List.of(p("Plugin2", 2), p("Plugin1", 1)))),
            sets("filter", set(List.of(p("Plugin1", 1), p("Plugin2", 2), p("Plugin3"))))),
        new MergeCase(
            "a custom plugin listed twice replaces the default with its last entry and appends the first",
            sets("filter", set(List.of(p("Plugin1"), p("Plugin2"), p("Plugin3")))),
            sets(
                "filter",
                set(List.of(p("Plugin1"), p("Plugin2", 2), p("Plugin3"), p("Plugin2", 4)))),
            sets(
                "filter",
                set(List.of(p("Plugin1"), p("Plugin2", 4), p("Plugin3"), p("Plugin2", 2))))),
        new MergeCase(
            "a custom multiPoint plugin is appended after the default multiPoint plugins",
            sets("multiPoint", set(List.of(p("DefaultPlugin1"), p("DefaultPlugin2")))),
            sets("multiPoint", set(List.of(p("CustomPlugin")))),
            sets(
                "multiPoint",
                set(List.of(p("DefaultPlugin1"), p("DefaultPlugin2"), p("CustomPlugin"))))),
        new MergeCase(
            "a disabled multiPoint default is left out and a per-point disable is kept for the framework",
            sets("multiPoint", set(List.of(p("DefaultPlugin1"), p("DefaultPlugin2")))),
            sets(
                "multiPoint",
                set(List.of(p("CustomPlugin"), p("CustomPlugin2")), "DefaultPlugin2"),
                "score",
                set(List.of(), "CustomPlugin2")),
            sets(
                "multiPoint",
                set(
                    List.of(p("DefaultPlugin1"), p("CustomPlugin"), p("CustomPlugin2")),
                    "DefaultPlugin2"),
                "score",
                set(List.of(), "CustomPlugin2"))),
        new MergeCase(
            "a default multiPoint plugin enabled again with a weight takes that weight",
            sets("multiPoint", set(List.of(p("DefaultPlugin")))),
            sets("multiPoint", set(List.of(p("DefaultPlugin", 5)))),
            sets("multiPoint", set(List.of(p("DefaultPlugin", 5))))),
        new MergeCase(
            "plugins the default set disables stay disabled after the merge",
            sets("multiPoint", set(List.of(p("DefaultPlugin")), "DefaultPlugin2")),
            sets("multiPoint", set(List.of(p("CustomPlugin")))),
            sets(
                "multiPoint",
                set(List.of(p("DefaultPlugin"), p("CustomPlugin")), "DefaultPlugin2"))),
        new MergeCase(
            "a per-point disable in the default set survives a multiPoint merge",
            sets(
                "multiPoint",
                set(List.of(p("DefaultPlugin"))),
                "score",
                set(List.of(), "DefaultPlugin2")),
            sets("multiPoint", set(List.of(p("CustomPlugin")))),
            sets(
                "multiPoint",
                set(List.of(p("DefaultPlugin"), p("CustomPlugin"))),
                "score",
                set(List.of(), "DefaultPlugin2"))),
        new MergeCase(
            "a multiPoint set with only a disable removes that default",
            sets("multiPoint", set(List.of(p("DefaultPlugin")))),
            sets("multiPoint", set(List.of(), "DefaultPlugin")),
            sets("multiPoint", set(List.of(), "DefaultPlugin"))));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("mergeCases")
  void mergesAsUpstream(MergeCase c) {
    assertThat(ProfileDefaults.merge(c.defaults(), c.custom())).isEqualTo(c.want());
  }

  @Test
  void theDefaultSetIsUpstreamsCurrentMultiPointListWithItsWeights() {
    assertThat(ProfileDefaults.defaultPlugins())
        .isEqualTo(
            Map.of(
                "multiPoint",
                set(
                    List.of(
                        p("SchedulingGates"),
                        p("PrioritySort"),
                        p("NodeUnschedulable"),
                        p("NodeName"),
                        p("TaintToleration", 3),
                        p("NodeAffinity", 2),
                        p("NodePorts"),
                        p("NodeResourcesFit", 1),
                        p("VolumeRestrictions"),
                        p("NodeVolumeLimits"),
                        p("VolumeBinding"),
                        p("VolumeZone"),
                        p("PodTopologySpread", 2),
                        p("InterPodAffinity", 2),
                        p("DynamicResources"),
                        p("DefaultPreemption"),
                        p("NodeResourcesBalancedAllocation", 1),
                        p("ImageLocality", 1),
                        p("DefaultBinder")))));
  }

  record ArgsCase(String name, String plugin, String given, String want) {
    @Override
    public String toString() {
      return name;
    }
  }

  static Stream<ArgsCase> argsCases() {
    String cpuMemory = "[{\"name\":\"cpu\",\"weight\":1},{\"name\":\"memory\",\"weight\":1}]";
    return Stream.of(
        new ArgsCase(
            "NodeResourcesFit without args scores LeastAllocated over cpu and memory",
            "NodeResourcesFit",
            null,
            "{\"ignoredResources\":[],\"ignoredResourceGroups\":[],\"scoringStrategy\":{\"type\":"
                + "\"LeastAllocated\",\"resources\":"
                + cpuMemory
                + "}}"),
        new ArgsCase(
            "a strategy without resources gets cpu and memory, and a zero weight becomes 1",
            "NodeResourcesFit",
            "{\"scoringStrategy\":{\"type\":\"MostAllocated\"}}",
            "{\"ignoredResources\":[],\"ignoredResourceGroups\":[],\"scoringStrategy\":{\"type\":\"MostAllocated\","
                + "\"resources\":"
                + cpuMemory
                + "}}"),
        new ArgsCase(
            "kind and apiVersion inside args are dropped",
            "InterPodAffinity",
            "{\"kind\":\"InterPodAffinityArgs\",\"apiVersion\":\"kubescheduler.config.k8s.io/v1\","
                + "\"hardPodAffinityWeight\":5}",
            "{\"hardPodAffinityWeight\":5,\"ignorePreferredTermsOfExistingPods\":false}"),
        new ArgsCase(
            "InterPodAffinity defaults hardPodAffinityWeight to 1",
            "InterPodAffinity",
            "{}",
            "{\"hardPodAffinityWeight\":1,\"ignorePreferredTermsOfExistingPods\":false}"),
        new ArgsCase(
            "PodTopologySpread defaults to System defaulting",
            "PodTopologySpread",
            null,
            "{\"defaultConstraints\":[],\"defaultingType\":\"System\"}"),
        new ArgsCase(
            "VolumeBinding defaults the bind timeout to 600 s",
            "VolumeBinding",
            null,
            "{\"bindTimeoutSeconds\":600,\"shape\":[]}"),
        new ArgsCase(
            "NodeResourcesBalancedAllocation defaults to cpu and memory",
            "NodeResourcesBalancedAllocation",
            null,
            "{\"resources\":" + cpuMemory + "}"),
        new ArgsCase(
            "NodeAffinity's added affinity survives the round trip",
            "NodeAffinity",
            "{\"addedAffinity\":{\"requiredDuringSchedulingIgnoredDuringExecution\":{\"nodeSelectorTerms\":"
                + "[{\"matchExpressions\":[{\"key\":\"zone\",\"operator\":\"In\",\"values\":[\"a\"]}]}]}}}",
            "{\"addedAffinity\":{\"requiredDuringSchedulingIgnoredDuringExecution\":{\"nodeSelectorTerms\":"
                + "[{\"matchExpressions\":[{\"key\":\"zone\",\"operator\":\"In\",\"values\":[\"a\"]}]}]}}}"),
        new ArgsCase(
            "args of a plugin without a v1 args kind are kept as given",
            "NodeLabel",
            "{\"kind\":\"NodeLabelArgs\",\"presentLabels\":[\"a\"]}",
            "{\"presentLabels\":[\"a\"]}"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("argsCases")
  void defaultsArgsAsUpstream(ArgsCase c) {
    JsonNode given = c.given() == null ? null : TestFrameworks.json(c.given());
    assertThat(ProfileDefaults.effectiveArgs(REGISTRY.argsType(c.plugin()), given))
        .isEqualTo(TestFrameworks.json(c.want()));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("argsCases")
  void effectiveArgsDecodeToWhatThePluginWouldHaveUsed(ArgsCase c) {
    Class<?> type = REGISTRY.argsType(c.plugin());
    JsonNode given = c.given() == null ? TestFrameworks.json("{}") : TestFrameworks.json(c.given());
    JsonNode effective = ProfileDefaults.effectiveArgs(type, given);
    if (type != null) {
      assertThat(PluginArgs.of(c.plugin(), effective).as(type))
          .isEqualTo(PluginArgs.of(c.plugin(), given).as(type));
    }
    assertThat(ProfileDefaults.effectiveArgs(type, effective)).isEqualTo(effective);
  }

  record ArgsErrorCase(String name, String plugin, String given, String field, String detail) {
    @Override
    public String toString() {
      return name;
    }
  }

  static Stream<ArgsErrorCase> argsErrorCases() {
    return Stream.of(
        new ArgsErrorCase(
            "an unknown field is a strict decoding error listing the known fields",
            "NodeResourcesFit",
            "{\"scoringStrategy\":{\"typ\":\"MostAllocated\"}}",
            ".scoringStrategy.typ",
            "unknown field; allowed fields: requestedToCapacityRatio, resources, type"),
        new ArgsErrorCase(
            "a misspelt top-level field is reported at the top",
            "InterPodAffinity",
            "{\"hardPodAffinityWeigth\":5}",
            ".hardPodAffinityWeigth",
            "unknown field; allowed fields: hardPodAffinityWeight, ignorePreferredTermsOfExistingPods"),
        new ArgsErrorCase(
            "a field of the wrong type names the field",
            "VolumeBinding",
            "{\"bindTimeoutSeconds\":\"soon\"}",
            ".bindTimeoutSeconds",
            "Cannot deserialize value of type `java.lang.Long` from String \"soon\": not a valid `java.lang.Long` "
                + "value"),
        new ArgsErrorCase(
            "args that are not a mapping are refused",
            "NodeLabel",
            "\"presentLabels\"",
            "",
            "Invalid value: \"presentLabels\": must be a mapping"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("argsErrorCases")
  void refusesArgsThatDoNotDecode(ArgsErrorCase c) {
    ProfileDefaults.ArgsException e =
        catchThrowableOfType(
            ProfileDefaults.ArgsException.class,
            () ->
                ProfileDefaults.effectiveArgs(
                    REGISTRY.argsType(c.plugin()), TestFrameworks.json(c.given())));
    assertThat(List.of(e.field(), e.detail())).containsExactly(c.field(), c.detail());
  }
}
