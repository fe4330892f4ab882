package io.schedext.profiles;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import io.schedext.framework.Registry;
import io.schedext.testing.TestFrameworks;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * v1.22's Policy translation, predicate by predicate and priority by priority, and its validation
 * messages.
 */
class PolicyTranslatorTest {

  private static final String FIT = "NodeResourcesFit";
  private static final String NU = "NodeUnschedulable";
  private static final String TT = "TaintToleration";
  private static final String PTS = "PodTopologySpread";
  private static final String IPA = "InterPodAffinity";
  private static final String NA = "NodeAffinity";
  private static final List<String> BIND = List.of("DefaultBinder");
  private static final Registry REGISTRY = InTreeRegistry.create();
  private static final String CPU_MEMORY =
      "[{\"name\":\"cpu\",\"weight\":1},{\"name\":\"memory\",\"weight\":1}]";

  static FrameworkView translate(String predicates, String priorities) {
    return translate(
        "{\"kind\":\"Policy\",\"apiVersion\":\"v1\",\"predicates\":"
            + predicates
            + ",\"priorities\":"
            + priorities
            + "}");
  }

  static FrameworkView translate(String policy) {
    KubeSchedulerConfiguration p =
        new PolicyTranslator(REGISTRY)
            .translate(ConfigDocument.parse("test.json", policy), "default-scheduler");
    return FrameworkView.of(p).get(0);
  }

  /** Plugin lists by point, from alternating point names and lists. */
  private static Map<String, List<String>> points(Object... pointsAndLists) {
    Map<String, List<String>> m = new LinkedHashMap<>();
    for (int i = 0; i < pointsAndLists.length; i += 2) {
      @SuppressWarnings("unchecked")
      List<String> names = (List<String>) pointsAndLists[i + 1];
      m.put((String) pointsAndLists[i], names);
    }
    return m;
  }

  record PredicateCase(String name, String predicate, Map<String, List<String>> want) {
    @Override
    public String toString() {
      return name;
    }
  }

  static Stream<PredicateCase> predicateCases() {
    return Stream.of(
        new PredicateCase(
            "GeneralPredicates is resources, host name, ports and node selector",
            "{\"name\":\"GeneralPredicates\"}",
            points(
                "preFilter",
                List.of(FIT, "NodePorts", NA),
                "filter",
                List.of(NU, FIT, "NodeName", "NodePorts", NA, TT),
                "bind",
                BIND)),
        new PredicateCase(
            "PodFitsResources is NodeResourcesFit",
            "{\"name\":\"PodFitsResources\"}",
            points("preFilter", List.of(FIT), "filter", List.of(NU, FIT, TT), "bind", BIND)),
        new PredicateCase(
            "HostName is NodeName",
            "{\"name\":\"HostName\"}",
            points("filter", List.of(NU, "NodeName", TT), "bind", BIND)),
        new PredicateCase(
            "PodFitsHostPorts is NodePorts",
            "{\"name\":\"PodFitsHostPorts\"}",
            points(
                "preFilter",
                List.of("NodePorts"),
                "filter",
                List.of(NU, "NodePorts", TT),
                "bind",
                BIND)),
        new PredicateCase(
            "the old name PodFitsPorts still means PodFitsHostPorts",
            "{\"name\":\"PodFitsPorts\"}",
            points(
                "preFilter",
                List.of("NodePorts"),
                "filter",
                List.of(NU, "NodePorts", TT),
                "bind",
                BIND)),
        new PredicateCase(
            "MatchNodeSelector is NodeAffinity",
            "{\"name\":\"MatchNodeSelector\"}",
            points("preFilter", List.of(NA), "filter", List.of(NU, NA, TT), "bind", BIND)),
        new PredicateCase(
            "NoDiskConflict is VolumeRestrictions",
            "{\"name\":\"NoDiskConflict\"}",
            points("filter", List.of(NU, "VolumeRestrictions", TT), "bind", BIND)),
        new PredicateCase(
            "PodToleratesNodeTaints is mandatory anyway",
            "{\"name\":\"PodToleratesNodeTaints\"}",
            points("filter", List.of(NU, TT), "bind", BIND)),
        new PredicateCase(
            "CheckNodeUnschedulable is mandatory anyway",
            "{\"name\":\"CheckNodeUnschedulable\"}",
            points("filter", List.of(NU, TT), "bind", BIND)),
        new PredicateCase(
            "CheckNodeLabelPresence by name is NodeLabel without labels",
            "{\"name\":\"CheckNodeLabelPresence\"}",
            points("filter", List.of(NU, TT, "NodeLabel"), "bind", BIND)),
        new PredicateCase(
            "CheckServiceAffinity by name is ServiceAffinity without labels",
            "{\"name\":\"CheckServiceAffinity\"}",
            points(
                "preFilter",
                List.of("ServiceAffinity"),
                "filter",
                List.of(NU, TT, "ServiceAffinity"),
                "bind",
                BIND)),
        new PredicateCase(
            "MaxCSIVolumeCountPred is NodeVolumeLimits",
            "{\"name\":\"MaxCSIVolumeCountPred\"}",
            points("filter", List.of(NU, TT, "NodeVolumeLimits"), "bind", BIND)),
        new PredicateCase(
            "MaxEBSVolumeCount runs as NodeVolumeLimits",
            "{\"name\":\"MaxEBSVolumeCount\"}",
            points("filter", List.of(NU, TT, "NodeVolumeLimits"), "bind", BIND)),
        new PredicateCase(
            "MaxGCEPDVolumeCount runs as NodeVolumeLimits",
            "{\"name\":\"MaxGCEPDVolumeCount\"}",
            points("filter", List.of(NU, TT, "NodeVolumeLimits"), "bind", BIND)),
        new PredicateCase(
            "MaxAzureDiskVolumeCount runs as NodeVolumeLimits",
            "{\"name\":\"MaxAzureDiskVolumeCount\"}",
            points("filter", List.of(NU, TT, "NodeVolumeLimits"), "bind", BIND)),
        new PredicateCase(
            "MaxCinderVolumeCount runs as NodeVolumeLimits",
            "{\"name\":\"MaxCinderVolumeCount\"}",
            points("filter", List.of(NU, TT, "NodeVolumeLimits"), "bind", BIND)),
        new PredicateCase(
            "CheckVolumeBinding is VolumeBinding at the points the extender's plugin implements",
            "{\"name\":\"CheckVolumeBinding\"}",
            points(
                "preFilter",
                List.of("VolumeBinding"),
                "filter",
                List.of(NU, TT, "VolumeBinding"),
                "reserve",
                List.of("VolumeBinding"),
                "preBind",
                List.of("VolumeBinding"),
                "bind",
                BIND)),
        new PredicateCase(
            "NoVolumeZoneConflict is VolumeZone",
            "{\"name\":\"NoVolumeZoneConflict\"}",
            points("filter", List.of(NU, TT, "VolumeZone"), "bind", BIND)),
        new PredicateCase(
            "EvenPodsSpread is PodTopologySpread",
            "{\"name\":\"EvenPodsSpread\"}",
            points("preFilter", List.of(PTS), "filter", List.of(NU, TT, PTS), "bind", BIND)),
        new PredicateCase(
            "MatchInterPodAffinity is InterPodAffinity",
            "{\"name\":\"MatchInterPodAffinity\"}",
            points("preFilter", List.of(IPA), "filter", List.of(NU, TT, IPA), "bind", BIND)),
        new PredicateCase(
            "a custom serviceAffinity predicate is ServiceAffinity",
            "{\"name\":\"Region\",\"argument\":{\"serviceAffinity\":{\"labels\":[\"region\"]}}}",
            points(
                "preFilter",
                List.of("ServiceAffinity"),
                "filter",
                List.of(NU, TT, "ServiceAffinity"),
                "bind",
                BIND)),
        new PredicateCase(
            "a custom labelsPresence predicate is NodeLabel",
            "{\"name\":\"NoGpu\",\"argument\":{\"labelsPresence\":{\"labels\":[\"gpu\"],\"presence\":false}}}",
            points("filter", List.of(NU, TT, "NodeLabel"), "bind", BIND)));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("predicateCases")
  void translatesEachPredicate(PredicateCase c) {
    FrameworkView v = translate("[" + c.predicate() + "]", "[]");
    assertThat(v.plugins()).isEqualTo(c.want());
    assertThat(v.weights()).isEmpty();
  }

  @Test
  void predicatesRunInV122sOrderWhateverThePolicyOrder() {
    FrameworkView v =
        translate(
            "[{\"name\":\"MatchInterPodAffinity\"},{\"name\":\"NoVolumeZoneConflict\"},"
                + "{\"name\":\"HostName\"},{\"name\":\"PodFitsResources\"}]",
            "[]");
    assertThat(v.plugins().get("filter"))
        .containsExactly(NU, "NodeName", FIT, TT, "VolumeZone", IPA);
  }

  @Test
  void customPredicatesAddUpInOneArgsPerPlugin() {
    FrameworkView v =
        translate(
            "[{\"name\":\"Region\",\"argument\":{\"serviceAffinity\":{\"labels\":[\"region\"]}}},"
                + "{\"name\":\"Rack\",\"argument\":{\"serviceAffinity\":{\"labels\":[\"rack\"]}}},"
                + "{\"name\":\"Os\",\"argument\":{\"labelsPresence\":{\"labels\":[\"os\"],\"presence\":true}}},"
                + "{\"name\":\"NoGpu\",\"argument\":{\"labelsPresence\":{\"labels\":[\"gpu\",\"tpu\"]}}}]",
            "[]");
    assertThat(v.args())
        .isEqualTo(
            Map.of(
                "ServiceAffinity",
                    TestFrameworks.json("{\"affinityLabels\":[\"region\",\"rack\"]}"),
                "NodeLabel",
                    TestFrameworks.json(
                        "{\"presentLabels\":[\"os\"],\"absentLabels\":[\"gpu\",\"tpu\"]}")));
  }

  record PriorityCase(
      String name,
      String priority,
      Map<String, List<String>> want,
      Map<String, Integer> weights,
      Map<String, String> args) {
    @Override
    public String toString() {
      return name;
    }
  }

  static Stream<PriorityCase> priorityCases() {
    List<String> filters = List.of(NU, TT);
    return Stream.of(
        new PriorityCase(
            "SelectorSpreadPriority is PodTopologySpread with the system default constraints",
            "{\"name\":\"SelectorSpreadPriority\",\"weight\":2}",
            points(
                "filter", filters, "preScore", List.of(PTS), "score", List.of(PTS), "bind", BIND),
            Map.of(PTS, 2),
            Map.of(PTS, "{\"defaultConstraints\":[],\"defaultingType\":\"System\"}")),
        new PriorityCase(
            "the old name ServiceSpreadingPriority means SelectorSpreadPriority",
            "{\"name\":\"ServiceSpreadingPriority\",\"weight\":1}",
            points(
                "filter", filters, "preScore", List.of(PTS), "score", List.of(PTS), "bind", BIND),
            Map.of(PTS, 1),
            Map.of(PTS, "{\"defaultConstraints\":[],\"defaultingType\":\"System\"}")),
        new PriorityCase(
            "EvenPodsSpreadPriority is PodTopologySpread with the pods' own constraints only",
            "{\"name\":\"EvenPodsSpreadPriority\",\"weight\":3}",
            points(
                "filter", filters, "preScore", List.of(PTS), "score", List.of(PTS), "bind", BIND),
            Map.of(PTS, 3),
            Map.of(PTS, "{\"defaultConstraints\":[],\"defaultingType\":\"List\"}")),
        new PriorityCase(
            "TaintTolerationPriority is TaintToleration's score",
            "{\"name\":\"TaintTolerationPriority\",\"weight\":4}",
            points("filter", filters, "preScore", List.of(TT), "score", List.of(TT), "bind", BIND),
            Map.of(TT, 4),
            Map.of()),
        new PriorityCase(
            "NodeAffinityPriority is NodeAffinity's score",
            "{\"name\":\"NodeAffinityPriority\",\"weight\":1}",
            points("filter", filters, "preScore", List.of(NA), "score", List.of(NA), "bind", BIND),
            Map.of(NA, 1),
            Map.of(NA, "{}")),
        new PriorityCase(
            "ImageLocalityPriority is ImageLocality",
            "{\"name\":\"ImageLocalityPriority\",\"weight\":1}",
            points("filter", filters, "score", List.of("ImageLocality"), "bind", BIND),
            Map.of("ImageLocality", 1),
            Map.of()),
        new PriorityCase(
            "InterPodAffinityPriority is InterPodAffinity's score",
            "{\"name\":\"InterPodAffinityPriority\",\"weight\":2}",
            points(
                "filter", filters, "preScore", List.of(IPA), "score", List.of(IPA), "bind", BIND),
            Map.of(IPA, 2),
            Map.of(
                IPA, "{\"hardPodAffinityWeight\":1,\"ignorePreferredTermsOfExistingPods\":false}")),
        new PriorityCase(
            "NodePreferAvoidPodsPriority is dropped with its removed plugin",
            "{\"name\":\"NodePreferAvoidPodsPriority\",\"weight\":10000}",
            points("filter", filters, "bind", BIND),
            Map.of(),
            Map.of()),
        new PriorityCase(
            "EqualPriority is skipped as v1.22 did",
            "{\"name\":\"EqualPriority\",\"weight\":1}",
            points("filter", filters, "bind", BIND),
            Map.of(),
            Map.of()),
        new PriorityCase(
            "LeastRequestedPriority is NodeResourcesFit scoring LeastAllocated",
            "{\"name\":\"LeastRequestedPriority\",\"weight\":1}",
            points("filter", filters, "score", List.of(FIT), "bind", BIND),
            Map.of(FIT, 1),
            Map.of(
                FIT,
                "{\"ignoredResources\":[],\"ignoredResourceGroups\":[],\"scoringStrategy\":{\"type\":"
                    + "\"LeastAllocated\",\"resources\":"
                    + CPU_MEMORY
                    + "}}")),
        new PriorityCase(
            "MostRequestedPriority is NodeResourcesFit scoring MostAllocated",
            "{\"name\":\"MostRequestedPriority\",\"weight\":5}",
            points("filter", filters, "score", List.of(FIT), "bind", BIND),
            Map.of(FIT, 5),
            Map.of(
                FIT,
                "{\"ignoredResources\":[],\"ignoredResourceGroups\":[],\"scoringStrategy\":{\"type\":"
                    + "\"MostAllocated\",\"resources\":"
                    + CPU_MEMORY
                    + "}}")),
        new PriorityCase(
            "BalancedResourceAllocation is NodeResourcesBalancedAllocation",
            "{\"name\":\"BalancedResourceAllocation\",\"weight\":1}",
            points(
                "filter",
                filters,
                "score",
                List.of("NodeResourcesBalancedAllocation"),
                "bind",
                BIND),
            Map.of("NodeResourcesBalancedAllocation", 1),
            Map.of("NodeResourcesBalancedAllocation", "{\"resources\":" + CPU_MEMORY + "}")),
        new PriorityCase(
            "a custom requestedToCapacityRatio priority is NodeResourcesFit with that strategy",
            "{\"name\":\"Ratio\",\"weight\":3,\"argument\":{\"requestedToCapacityRatioArguments\":{\"shape\":"
                + "[{\"utilization\":0,\"score\":10},{\"utilization\":100,\"score\":0}],\"resources\":"
                + "[{\"name\":\"cpu\",\"weight\":2},{\"name\":\"example.com/gpu\"}]}}}",
            points("filter", filters, "score", List.of(FIT), "bind", BIND),
            Map.of(FIT, 3),
            Map.of(
                FIT,
                "{\"ignoredResources\":[],\"ignoredResourceGroups\":[],\"scoringStrategy\":{\"type\":"
                    + "\"RequestedToCapacityRatio\",\"resources\":[{\"name\":\"cpu\",\"weight\":2},{\"name\":"
                    + "\"example.com/gpu\",\"weight\":1}],\"requestedToCapacityRatio\":{\"shape\":[{\"utilization\":0,"
                    + "\"score\":10},{\"utilization\":100,\"score\":0}]}}}")),
        new PriorityCase(
            "two labelPreference priorities are one NodeLabel score of twice the weight",
            "{\"name\":\"Ssd\",\"weight\":2,\"argument\":{\"labelPreference\":{\"label\":\"ssd\",\"presence\":true}}},"
                + "{\"name\":\"NotDraining\",\"weight\":2,\"argument\":{\"labelPreference\":{\"label\":\"draining\"}}}",
            points("filter", filters, "score", List.of("NodeLabel"), "bind", BIND),
            Map.of("NodeLabel", 4),
            Map.of(
                "NodeLabel",
                "{\"presentLabelsPreference\":[\"ssd\"],\"absentLabelsPreference\":[\"draining\"]}")),
        new PriorityCase(
            "a serviceAntiAffinity priority is ServiceAffinity's score",
            "{\"name\":\"Zone\",\"weight\":3,\"argument\":{\"serviceAntiAffinity\":{\"label\":\"zone\"}}}",
            points("filter", filters, "score", List.of("ServiceAffinity"), "bind", BIND),
            Map.of("ServiceAffinity", 3),
            Map.of("ServiceAffinity", "{\"antiAffinityLabelsPreference\":[\"zone\"]}")));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("priorityCases")
  void translatesEachPriority(PriorityCase c) {
    FrameworkView v = translate("[]", "[" + c.priority() + "]");
    Map<String, Object> args = new LinkedHashMap<>();
    c.args().forEach((k, json) -> args.put(k, TestFrameworks.json(json)));
    assertThat(List.of(v.plugins(), v.weights(), v.args()))
        .isEqualTo(List.of(c.want(), c.weights(), args));
  }

  @Test
  void priorityPluginsFollowPriorityNamesAndASharedPluginKeepsItsFirstWeight() {
    FrameworkView v =
        translate(
            "[]",
            "[{\"name\":\"TaintTolerationPriority\",\"weight\":1},"
                + "{\"name\":\"SelectorSpreadPriority\",\"weight\":5},{\"name\":\"EvenPodsSpreadPriority\",\"weight\":1},"
                + "{\"name\":\"ImageLocalityPriority\",\"weight\":2}]");
    assertThat(v.plugins().get("score")).containsExactly(PTS, "ImageLocality", TT);
    assertThat(v.weights()).containsEntry(PTS, 1);
    assertThat(v.args().get(PTS))
        .isEqualTo(
            TestFrameworks.json("{\"defaultConstraints\":[],\"defaultingType\":" + "\"System\"}"));
  }

  @Test
  void hardPodAffinitySymmetricWeightBecomesInterPodAffinityArgs() {
    FrameworkView v =
        translate(
            "{\"kind\":\"Policy\",\"apiVersion\":\"v1\",\"predicates\":[],\"priorities\":"
                + "[{\"name\":\"InterPodAffinityPriority\",\"weight\":1}],\"hardPodAffinitySymmetricWeight\":7}");
    assertThat(v.args().get(IPA).get("hardPodAffinityWeight").asInt()).isEqualTo(7);
  }

  @Test
  void fieldNamesMatchIgnoringCaseAsGoDecodedThem() {
    FrameworkView v =
        translate(
            "{\"Kind\":\"Policy\",\"APIVersion\":\"v1\",\"Predicates\":[{\"Name\":\"HostName\"}],"
                + "\"Priorities\":[{\"NAME\":\"ImageLocalityPriority\",\"Weight\":2}]}");
    assertThat(v.plugins().get("filter")).containsExactly(NU, "NodeName", TT);
    assertThat(v.weights()).containsExactly(Map.entry("ImageLocality", 2));
  }

  @Test
  void aPolicyWithoutPredicatesOrPrioritiesGetsV122sDefaults() {
    FrameworkView v = translate("{\"kind\":\"Policy\",\"apiVersion\":\"v1\"}");
    assertThat(v.plugins().get("filter"))
        .containsExactly(
            NU,
            FIT,
            "NodeName",
            "NodePorts",
            NA,
            "VolumeRestrictions",
            TT,
            "NodeVolumeLimits",
            "VolumeBinding",
            "VolumeZone",
            PTS,
            IPA);
    assertThat(v.weights())
        .containsExactly(
            Map.entry("NodeResourcesBalancedAllocation", 1),
            Map.entry(PTS, 2),
            Map.entry("ImageLocality", 1),
            Map.entry(IPA, 1),
            Map.entry(FIT, 1),
            Map.entry(NA, 1),
            Map.entry(TT, 1));
  }

  record ErrorCase(String name, String policy, String message) {
    @Override
    public String toString() {
      return name;
    }
  }

  private static String policy(String predicates, String priorities) {
    return "{\"kind\":\"Policy\",\"apiVersion\":\"v1\",\"predicates\":"
        + predicates
        + ",\"priorities\":"
        + priorities
        + "}";
  }

  static Stream<ErrorCase> errorCases() {
    String labelPreference = "\"argument\":{\"labelPreference\":{\"label\":\"x\"}}";
    String ratio =
        "\"argument\":{\"requestedToCapacityRatioArguments\":{\"shape\":[{\"utilization\":0,\"score\":0}]}}";
    return Stream.of(
        new ErrorCase(
            "a file without kind is refused",
            "{\"apiVersion\":\"v1\"}",
            "test.json: kind: Required value"),
        new ErrorCase(
            "a KubeSchedulerConfiguration is pointed at extender.config.file",
            "{\"kind\":\"KubeSchedulerConfiguration\"}",
            "test.json: kind: this is a KubeSchedulerConfiguration; give it as extender.config.file"),
        new ErrorCase(
            "an API version other than v1 is refused",
            "{\"kind\":\"Policy\",\"apiVersion\":\"v2\"}",
            "test.json: apiVersion: Unsupported value: \"v2\": supported values: \"v1\""),
        new ErrorCase(
            "a priority without a weight is refused",
            policy("[]", "[{\"name\":\"ImageLocalityPriority\"}]"),
            "test.json: priorities: priority ImageLocalityPriority should have a positive weight applied to it or "
                + "it has overflown"),
        new ErrorCase(
            "a priority weight that could overflow the total score is refused",
            policy("[]", "[{\"name\":\"ImageLocalityPriority\",\"weight\":92233720368547758}]"),
            "test.json: priorities: priority ImageLocalityPriority should have a positive weight applied to it or "
                + "it has overflown"),
        new ErrorCase(
            "labelPreference priorities of different weights are refused, every error at once",
            policy(
                "[]",
                "[{\"name\":\"a\",\"weight\":1,"
                    + labelPreference
                    + "},{\"name\":\"b\",\"weight\":2,"
                    + labelPreference
                    + "},{\"name\":\"c\",\"weight\":-1}]"),
            "test.json: priorities: [LabelPreference  priority \"b\" has a different weight with \"a\", priority c "
                + "should have a positive weight applied to it or it has overflown]"),
        new ErrorCase(
            "a second requestedToCapacityRatio priority is refused",
            policy(
                "[]",
                "[{\"name\":\"a\",\"weight\":1,"
                    + ratio
                    + "},{\"name\":\"b\",\"weight\":1,"
                    + ratio
                    + "}]"),
            "test.json: priorities: priority \"b\" redeclares custom priority \"RequestedToCapacityRatio\", from: "
                + "\"a\""),
        new ErrorCase(
            "a priority argument without any argument set is refused",
            policy("[]", "[{\"name\":\"a\",\"weight\":1,\"argument\":{}}]"),
            "test.json: priorities: no priority arguments set for priority a"),
        new ErrorCase(
            "a priority argument with two arguments set is refused",
            policy(
                "[]",
                "[{\"name\":\"a\",\"weight\":1,\"argument\":{\"labelPreference\":{\"label\":\"x\"},"
                    + "\"serviceAntiAffinity\":{\"label\":\"y\"}}}]"),
            "test.json: priorities: exactly 1 priority argument is required, numArgs: 2, priority a"),
        new ErrorCase(
            "a predicate argument must set exactly one argument",
            policy("[{\"name\":\"a\",\"argument\":{}}]", "[]"),
            "test.json: predicates[0].argument: exactly 1 predicate argument is required, numArgs: 0, predicate a"),
        new ErrorCase(
            "a predicate needs a name",
            policy("[{}]", "[]"),
            "test.json: predicates[0].name: Required value"),
        new ErrorCase(
            "a labelPreference needs a label",
            policy(
                "[]",
                "[{\"name\":\"a\",\"weight\":1,\"argument\":{\"labelPreference\":{\"presence\":true}}}]"),
            "test.json: priorities[0].argument.labelPreference.label: Required value"),
        new ErrorCase(
            "hardPodAffinitySymmetricWeight above 100 is refused",
            "{\"kind\":\"Policy\",\"apiVersion\":\"v1\",\"hardPodAffinitySymmetricWeight\":101}",
            "test.json: hardPodAffinitySymmetricWeight: Invalid value: 101: not in valid range [0-100]"),
        new ErrorCase(
            "two resource priorities cannot share NodeResourcesFit's one strategy",
            policy(
                "[]",
                "[{\"name\":\"LeastRequestedPriority\",\"weight\":1},"
                    + "{\"name\":\"MostRequestedPriority\",\"weight\":1}]"),
            "test.json: priorities: priorities LeastRequestedPriority and MostRequestedPriority both score with "
                + "NodeResourcesFit, which takes one scoring strategy; keep one of LeastRequestedPriority, "
                + "MostRequestedPriority and RequestedToCapacityRatio"),
        new ErrorCase(
            "a ratio shape NodeResourcesFit rejects names the Policy's argument",
            policy(
                "[]",
                "[{\"name\":\"a\",\"weight\":1,\"argument\":{\"requestedToCapacityRatioArguments\":"
                    + "{\"shape\":[{\"utilization\":0,\"score\":11}]}}}]"),
            "test.json: priorities[0].argument.requestedToCapacityRatioArguments: scoringStrategy.shape[0].score: "
                + "Invalid value: 11: not in valid range [0, 10]"),
        new ErrorCase(
            "unknown predicates and priorities are listed together with the known names",
            policy(
                "[{\"name\":\"Foo\"},{\"name\":\"HostName\"}]",
                "[{\"name\":\"Bar\",\"weight\":1}]"),
            "test.json: predicates[0].name: predicate type not found for \"Foo\", priorities[0].name: priority type "
                + "not found for \"Bar\"; known predicates: CheckNodeLabelPresence, CheckNodeUnschedulable, "
                + "CheckServiceAffinity, CheckVolumeBinding, EvenPodsSpread, GeneralPredicates, HostName, "
                + "MatchInterPodAffinity, MatchNodeSelector, MaxAzureDiskVolumeCount, MaxCSIVolumeCountPred, "
                + "MaxCinderVolumeCount, MaxEBSVolumeCount, MaxGCEPDVolumeCount, NoDiskConflict, "
                + "NoVolumeZoneConflict, PodFitsHostPorts, PodFitsResources, PodToleratesNodeTaints, PodFitsPorts "
                + "(or a custom predicate with a serviceAffinity or labelsPresence argument); known priorities: "
                + "BalancedResourceAllocation, EqualPriority, EvenPodsSpreadPriority, ImageLocalityPriority, "
                + "InterPodAffinityPriority, LeastRequestedPriority, MostRequestedPriority, NodeAffinityPriority, "
                + "NodeLabel, NodePreferAvoidPodsPriority, RequestedToCapacityRatio, SelectorSpreadPriority, "
                + "ServiceAffinity, ServiceSpreadingPriority, TaintTolerationPriority (or a custom priority with a "
                + "serviceAntiAffinity, labelPreference or requestedToCapacityRatioArguments argument)"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("errorCases")
  void refusesInvalidPolicies(ErrorCase c) {
    assertThat(catchThrowable(() -> translate(c.policy())))
        .isInstanceOf(ConfigFileException.class)
        .hasMessage(c.message());
  }
}
