package io.schedext.profiles;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import io.schedext.cluster.ObjectStore;
import io.schedext.framework.Profile;
import io.schedext.framework.Registry;
import io.schedext.framework.runtime.Framework;
import io.schedext.framework.runtime.Frameworks;
import io.schedext.testing.TestFrameworks;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Loading KubeSchedulerConfiguration files: validation messages, and the profiles that come out.
 */
class SchedulerConfigLoaderTest {

  private static final Registry REGISTRY = InTreeRegistry.create();
  private static final String HEAD =
      "apiVersion: kubescheduler.config.k8s.io/v1\nkind: KubeSchedulerConfiguration\n";
  private static final String REMOVED =
      ": was invalid in version \"kubescheduler.config.k8s.io/v1\" "
          + "(KubeSchedulerConfiguration is version \"kubescheduler.config.k8s.io/v1\")";

  static KubeSchedulerConfiguration load(String yaml) {
    return new SchedulerConfigLoader(REGISTRY).load(ConfigDocument.parse("test.yaml", yaml));
  }

  static Frameworks build(String yaml) {
    return FrameworkView.build(load(yaml), "");
  }

  static FrameworkView view(String yaml, String profile) {
    return FrameworkView.of(build(yaml).get(profile));
  }

  record ErrorCase(String name, String yaml, String message) {
    @Override
    public String toString() {
      return name;
    }
  }

  static Stream<ErrorCase> errorCases() {
    String registered =
        REGISTRY.names().stream().map(n -> "\"" + n + "\"").collect(Collectors.joining(", "));
    return Stream.of(
        new ErrorCase("an empty file is refused", "", "test.yaml: the file is empty"),
        new ErrorCase(
            "text that is not YAML is refused with the parser's words and line",
            "profiles: [a\n",
            "test.yaml: not valid YAML or JSON: while parsing a flow sequence in 'reader', line 1, column 11: "
                + "profiles: [a expected ',' or ']', but got <stream end> in 'reader', line 2, column 1:"),
        new ErrorCase(
            "a Policy is pointed at extender.policy.file",
            "kind: Policy\napiVersion: v1\n",
            "test.yaml: kind: this is a legacy Policy; give it as extender.policy.file"),
        new ErrorCase(
            "a file without kind is refused",
            "apiVersion: kubescheduler.config.k8s.io/v1\n",
            "test.yaml: kind: Required value"),
        new ErrorCase(
            "another kind is refused",
            "kind: Pod\napiVersion: v1\n",
            "test.yaml: kind: Unsupported value: \"Pod\": supported values: \"KubeSchedulerConfiguration\""),
        new ErrorCase(
            "an API version other than v1 and v1beta3 is refused",
            "apiVersion: kubescheduler.config.k8s.io/v1beta2\nkind: KubeSchedulerConfiguration\n",
            "test.yaml: apiVersion: Unsupported value: \"kubescheduler.config.k8s.io/v1beta2\": supported values: "
                + "\"kubescheduler.config.k8s.io/v1\", \"kubescheduler.config.k8s.io/v1beta3\""),
        new ErrorCase(
            "an unknown top-level field is a strict decoding error",
            HEAD + "profile: []\n",
            "test.yaml: profile: unknown field; allowed fields: apiVersion, kind, parallelism, leaderElection, "
                + "clientConnection, healthzBindAddress, metricsBindAddress, enableProfiling, "
                + "enableContentionProfiling, percentageOfNodesToScore, podInitialBackoffSeconds, "
                + "podMaxBackoffSeconds, profiles, extenders, delayCacheUntilActive"),
        new ErrorCase(
            "percentageOfNodesToScore above 100 is refused",
            HEAD + "percentageOfNodesToScore: 150\n",
            "test.yaml: percentageOfNodesToScore: Invalid value: 150: not in valid range [0-100]"),
        new ErrorCase(
            "profiles must be a list",
            HEAD + "profiles: {schedulerName: a}\n",
            "test.yaml: profiles: Invalid value: {\"schedulerName\":\"a\"}: must be a list"),
        new ErrorCase(
            "an unknown profile field is a strict decoding error",
            HEAD + "profiles:\n- schedulerName: a\n  plugin: {}\n",
            "test.yaml: profiles[0].plugin: unknown field; allowed fields: schedulerName, percentageOfNodesToScore, "
                + "plugins, pluginConfig"),
        new ErrorCase(
            "a scheduler name must be a string",
            HEAD + "profiles:\n- schedulerName: [a]\n",
            "test.yaml: profiles[0].schedulerName: Invalid value: [\"a\"]: must be a string"),
        new ErrorCase(
            "with several profiles each needs a name",
            HEAD + "profiles:\n- schedulerName: a\n- plugins: {}\n",
            "test.yaml: profiles[1].schedulerName: Required value"),
        new ErrorCase(
            "two profiles may not share a name",
            HEAD + "profiles:\n- schedulerName: a\n- schedulerName: a\n",
            "test.yaml: profiles[1].schedulerName: Duplicate value: \"a\" (also profiles[0].schedulerName)"),
        new ErrorCase(
            "an unknown extension point lists the supported ones",
            HEAD + "profiles:\n- plugins:\n    preFiltr: {enabled: [{name: NodeName}]}\n",
            "test.yaml: profiles[0].plugins.preFiltr: unknown extension point; supported values: multiPoint, "
                + "preEnqueue, queueSort, preFilter, filter, postFilter, preScore, score, reserve, permit, preBind, "
                + "bind, postBind"),
        new ErrorCase(
            "an unknown plugin lists the registered ones",
            HEAD
                + "profiles:\n- plugins:\n    filter: {enabled: [{name: NodeName}, {name: Foo}]}\n",
            "test.yaml: profiles[0].plugins.filter.enabled[1].name: Unsupported value: \"Foo\": supported values: "
                + registered),
        new ErrorCase(
            "a plugin removed from v1 is refused as kube-scheduler does",
            HEAD + "profiles:\n- plugins:\n    multiPoint: {enabled: [{name: EBSLimits}]}\n",
            "test.yaml: profiles[0].plugins.multiPoint.enabled[0]: Invalid value: \"EBSLimits\""
                + REMOVED),
        new ErrorCase(
            "a plugin entry needs a name",
            HEAD + "profiles:\n- plugins:\n    score: {enabled: [{weight: 2}]}\n",
            "test.yaml: profiles[0].plugins.score.enabled[0].name: Required value"),
        new ErrorCase(
            "a negative weight is refused",
            HEAD
                + "profiles:\n- plugins:\n    score: {enabled: [{name: ImageLocality, weight: -1}]}\n",
            "test.yaml: profiles[0].plugins.score.enabled[0].weight: Invalid value: -1: "
                + "not in valid range [0-2147483647]"),
        new ErrorCase(
            "a weight must be a number",
            HEAD
                + "profiles:\n- plugins:\n    score: {enabled: [{name: ImageLocality, weight: heavy}]}\n",
            "test.yaml: profiles[0].plugins.score.enabled[0].weight: Invalid value: \"heavy\": must be an integer"),
        new ErrorCase(
            "a plugin enabled twice at one point is refused",
            HEAD
                + "profiles:\n- plugins:\n    score: {enabled: [{name: ImageLocality}, {name: ImageLocality}]}\n",
            "test.yaml: profiles[0].plugins.score.enabled[1]: Duplicate value: \"ImageLocality\""),
        new ErrorCase(
            "a plugin configured twice is refused",
            HEAD
                + "profiles:\n- pluginConfig:\n  - {name: NodeResourcesFit}\n  - {name: NodeResourcesFit}\n",
            "test.yaml: profiles[0].pluginConfig[1]: Duplicate value: \"NodeResourcesFit\""),
        new ErrorCase(
            "args of a plugin removed from v1 are refused",
            HEAD + "profiles:\n- pluginConfig:\n  - {name: GCEPDLimits, args: {}}\n",
            "test.yaml: profiles[0].pluginConfig[0]: Invalid value: \"GCEPDLimits\"" + REMOVED),
        new ErrorCase(
            "an unknown field in args is a strict decoding error",
            HEAD
                + "profiles:\n- pluginConfig:\n  - name: NodeResourcesFit\n    args: {scoringStrategy: {typ: X}}\n",
            "test.yaml: profiles[0].pluginConfig[0].args.scoringStrategy.typ: unknown field; allowed fields: "
                + "requestedToCapacityRatio, resources, type"),
        new ErrorCase(
            "args the plugin rejects name the args and the plugin's field",
            HEAD
                + "profiles:\n- pluginConfig:\n  - name: NodeResourcesFit\n    args: {scoringStrategy: {type: Foo}}\n",
            "test.yaml: profiles[0].pluginConfig[0].args: scoringStrategy.type: Unsupported value: \"Foo\": "
                + "supported values: \"LeastAllocated\", \"MostAllocated\", \"RequestedToCapacityRatio\""),
        new ErrorCase(
            "an out-of-range plugin arg is reported with the plugin's message",
            HEAD
                + "profiles:\n- pluginConfig:\n  - name: InterPodAffinity\n    args: {hardPodAffinityWeight: 101}\n",
            "test.yaml: profiles[0].pluginConfig[0].args: hardPodAffinityWeight: Invalid value: 101: "
                + "not in valid range [0, 100]"),
        new ErrorCase(
            "a plugin enabled at a point it does not implement lists the plugins that do",
            HEAD + "profiles:\n- plugins:\n    score: {enabled: [{name: NodeName}]}\n",
            "test.yaml: profiles[0].plugins.score.enabled[0]: Invalid value: \"NodeName\": the plugin does not "
                + "implement Score; plugins that do: TaintToleration, NodeAffinity, NodeResourcesFit, "
                + "PodTopologySpread, InterPodAffinity, NodeResourcesBalancedAllocation, ImageLocality, "
                + "ServiceAffinity, NodeLabel, SelectorSpread"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("errorCases")
  void refusesInvalidConfiguration(ErrorCase c) {
    assertThat(catchThrowable(() -> build(c.yaml())))
        .isInstanceOf(ConfigFileException.class)
        .hasMessage(c.message());
  }

  @Test
  void aFileWithoutProfilesServesUpstreamsDefaultProfile() {
    assertThat(FrameworkView.of(load(HEAD)))
        .isEqualTo(FrameworkView.of(SchedulerConfigLoader.builtIn("default-scheduler", REGISTRY)));
  }

  @Test
  void aSingleUnnamedProfileIsTheDefaultSchedulerAndV1beta3IsAccepted() {
    KubeSchedulerConfiguration p =
        load(
            "apiVersion: kubescheduler.config.k8s.io/v1beta3\n"
                + "kind: KubeSchedulerConfiguration\nprofiles:\n- plugins: {}\n");
    assertThat(p.profiles()).extracting(Profile::name).containsExactly("default-scheduler");
  }

  @Test
  void kubeSchedulerSettingsAreAcceptedAndPercentageOfNodesToScoreIsRecorded() {
    KubeSchedulerConfiguration p =
        load(
            HEAD
                + "percentageOfNodesToScore: 50\nparallelism: 8\nleaderElection: "
                + "{leaderElect: true}\nextenders:\n- {urlPrefix: http://x/scheduler, filterVerb: filter}\n");
    assertThat(p.percentageOfNodesToScore()).isEqualTo(50);
    assertThat(FrameworkView.of(p))
        .isEqualTo(FrameworkView.of(SchedulerConfigLoader.builtIn("default-scheduler", REGISTRY)));
  }

  @Test
  void queueSortAndPreEnqueuePluginsAreAcceptedAndDroppedWhileDefaultPreemptionRunsWithItsArgs() {
    String yaml =
        HEAD
            + "profiles:\n- plugins:\n    queueSort: {enabled: [{name: PrioritySort}]}\n"
            + "    preEnqueue: {enabled: [{name: SchedulingGates}]}\n"
            + "    postFilter: {enabled: [{name: DefaultPreemption}]}\n"
            + "  pluginConfig:\n  - {name: DefaultPreemption, args: {minCandidateNodesAbsolute: 10}}\n";
    FrameworkView loaded = FrameworkView.of(load(yaml)).get(0);
    FrameworkView builtIn =
        FrameworkView.of(SchedulerConfigLoader.builtIn("default-scheduler", REGISTRY)).get(0);
    // Enabled at postFilter as well as by multiPoint, DefaultPreemption moves ahead of the plugins
    // only multiPoint enables there (upstream's expandMultiPointPlugins): DynamicResources.
    java.util.Map<String, List<String>> expected = new java.util.LinkedHashMap<>(builtIn.plugins());
    expected.put("postFilter", List.of("DefaultPreemption", "DynamicResources"));
    assertThat(loaded.plugins()).isEqualTo(expected);
    assertThat(loaded.args().get("DefaultPreemption").get("minCandidateNodesAbsolute").asInt())
        .isEqualTo(10);
    assertThat(loaded.args().get("DefaultPreemption").get("minCandidateNodesPercentage").asInt())
        .isEqualTo(10);
  }

  @Test
  void disablingEveryFilterLeavesOnlyTheEnabledOneThereAndTheOtherPointsAlone() {
    FrameworkView v =
        view(
            HEAD
                + "profiles:\n- plugins:\n    filter:\n      disabled: [{name: '*'}]\n"
                + "      enabled: [{name: NodeName}]\n",
            "default-scheduler");
    FrameworkView defaults =
        FrameworkView.of(SchedulerConfigLoader.builtIn("default-scheduler", REGISTRY)).get(0);
    assertThat(v.plugins().get("filter")).containsExactly("NodeName");
    assertThat(v.plugins().get("preFilter")).isEqualTo(defaults.plugins().get("preFilter"));
    assertThat(v.weights()).isEqualTo(defaults.weights());
  }

  @Test
  void weightsSetInMultiPointOrAtScoreOverrideTheDefaultsAndAnExplicitScorePluginRunsFirst() {
    FrameworkView v =
        view(
            HEAD
                + "profiles:\n- plugins:\n    multiPoint: {enabled: [{name: TaintToleration, "
                + "weight: 7}]}\n    score: {enabled: [{name: ImageLocality, weight: 4}]}\n",
            "default-scheduler");
    assertThat(v.weights())
        .containsExactly(
            Map.entry("ImageLocality", 4),
            Map.entry("TaintToleration", 7),
            Map.entry("NodeAffinity", 2),
            Map.entry("NodeResourcesFit", 1),
            Map.entry("PodTopologySpread", 2),
            Map.entry("InterPodAffinity", 2),
            Map.entry("NodeResourcesBalancedAllocation", 1));
  }

  @Test
  void aDefaultDisabledAtAPointAndEnabledThereAgainRunsAfterTheMultiPointPlugins() {
    FrameworkView v =
        view(
            HEAD
                + "profiles:\n- plugins:\n    score:\n      disabled: [{name: TaintToleration}]\n"
                + "      enabled: [{name: TaintToleration, weight: 9}]\n",
            "default-scheduler");
    assertThat(v.weights())
        .containsExactly(
            Map.entry("NodeAffinity", 2),
            Map.entry("NodeResourcesFit", 1),
            Map.entry("PodTopologySpread", 2),
            Map.entry("InterPodAffinity", 2),
            Map.entry("NodeResourcesBalancedAllocation", 1),
            Map.entry("ImageLocality", 1),
            Map.entry("TaintToleration", 9));
  }

  @Test
  void withEveryDefaultDisabledAtAPointTheEnabledListRunsInItsOwnOrder() {
    FrameworkView v =
        view(
            HEAD
                + "profiles:\n- plugins:\n    filter:\n      disabled: [{name: '*'}]\n"
                + "      enabled: [{name: NodeLabel}, {name: NodePorts}, {name: NodeName}]\n",
            "default-scheduler");
    assertThat(v.plugins().get("filter")).containsExactly("NodeLabel", "NodePorts", "NodeName");
  }

  @Test
  void argsOfAPluginTheProfileDoesNotRunAreDroppedAsUpstreamIgnoresThem() {
    FrameworkView v =
        view(
            HEAD
                + "profiles:\n- plugins:\n    multiPoint: {disabled: [{name: PodTopologySpread}]}\n"
                + "  pluginConfig:\n  - {name: PodTopologySpread, args: {defaultingType: List}}\n"
                + "  - {name: NotAPlugin, args: {x: 1}}\n",
            "default-scheduler");
    assertThat(v.args()).doesNotContainKeys("PodTopologySpread", "NotAPlugin");
    assertThat(v.plugins().get("filter")).doesNotContain("PodTopologySpread");
  }

  @Test
  void legacyPluginsRunWithTheirArgsOnTopOfTheDefaults() {
    FrameworkView v =
        view(
            HEAD
                + "profiles:\n- schedulerName: legacy\n  plugins:\n    multiPoint:\n"
                + "      enabled: [{name: NodeLabel, weight: 3}]\n  pluginConfig:\n"
                + "  - {name: NodeLabel, args: {presentLabels: [disktype]}}\n",
            "legacy");
    assertThat(v.plugins().get("filter"))
        .endsWith("InterPodAffinity", "DynamicResources", "NodeLabel");
    assertThat(v.weights()).containsEntry("NodeLabel", 3);
    assertThat(v.args().get("NodeLabel").toString())
        .isEqualTo("{\"presentLabels\":[\"disktype\"]}");
  }

  @Test
  void theFirstProfileServesSchedulerUnlessDefaultProfileNamesAnother() {
    String yaml = HEAD + "profiles:\n- schedulerName: a\n- schedulerName: b\n";
    assertThat(FrameworkView.build(load(yaml), "").defaultName()).isEqualTo("a");
    assertThat(FrameworkView.build(load(yaml), "b").defaultName()).isEqualTo("b");
    assertThat(catchThrowable(() -> FrameworkView.build(load(yaml), "c")))
        .isInstanceOf(ConfigFileException.class)
        .hasMessage(
            "extender.scheduling.default-profile: Unsupported value: \"c\": supported values: \"a\", \"b\" "
                + "(the profiles of test.yaml)");
  }

  @Test
  void aConfigurationFileAndAPolicyFileTogetherAreRefused() {
    assertThat(
            catchThrowable(() -> FrameworkBuilder.configuration("a.yaml", "p.json", "", REGISTRY)))
        .isInstanceOf(ConfigFileException.class)
        .hasMessage(
            "extender.config.file (a.yaml) and extender.policy.file "
                + "(p.json) are both set; a Policy translates into a profile, so give one of them");
  }

  @Test
  void withoutFilesTheBuiltInProfileTakesTheDefaultProfileName() {
    KubeSchedulerConfiguration p = FrameworkBuilder.configuration("", "", "mine", REGISTRY);
    assertThat(p.profiles()).extracting(Profile::name).containsExactly("mine");
    assertThat(FrameworkBuilder.configuration("", "", "", REGISTRY).profiles())
        .extracting(Profile::name)
        .containsExactly("default-scheduler");
  }

  @Test
  void aMissingFileIsNamed() {
    assertThat(
            catchThrowable(
                () -> FrameworkBuilder.configuration("/nonexistent/s.yaml", "", "", REGISTRY)))
        .isInstanceOf(ConfigFileException.class)
        .hasMessage("cannot read /nonexistent/s.yaml: no such file");
  }

  @Test
  void theBuiltInProfileRunsWhatTheDefaultProfileUsedTo() {
    FrameworkView before =
        FrameworkView.of(
            Framework.create(
                ProfileDefaults.profile("default-scheduler", REGISTRY.names()),
                REGISTRY,
                TestFrameworks.services(new ObjectStore())));
    FrameworkView now =
        FrameworkView.of(SchedulerConfigLoader.builtIn("default-scheduler", REGISTRY)).get(0);
    assertThat(List.of(now.plugins(), now.weights()))
        .isEqualTo(List.of(before.plugins(), before.weights()));
  }
}
