package io.schedext.profiles;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.schedext.framework.ExtensionPoint;
import io.schedext.framework.Profile.PluginRef;
import io.schedext.framework.Profile.PluginSet;
import io.schedext.plugins.Names;
import io.schedext.plugins.noderesources.NodeResourcesFitArgs;
import io.schedext.plugins.podtopologyspread.PodTopologySpreadArgs;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Which plugins, at which extension points and with which args, each Policy predicate and priority
 * becomes: v1.22's legacy registry ({@code pkg/scheduler/framework/plugins/legacy_registry.go}).
 * Where a v1.22 plugin no longer exists the closest current one stands in: the three resource
 * priorities become NodeResourcesFit scoring strategies, the cloud volume-count predicates become
 * NodeVolumeLimits (which counts migrated in-tree volumes), and NodePreferAvoidPodsPriority is
 * dropped. Stateless.
 */
final class PolicyPlugins {

  /** The order v1.22 ran predicates in; plugins are appended in this order. */
  static final List<String> PREDICATE_ORDER =
      List.of(
          "CheckNodeUnschedulable",
          "GeneralPredicates",
          "HostName",
          "PodFitsHostPorts",
          "MatchNodeSelector",
          "PodFitsResources",
          "NoDiskConflict",
          "PodToleratesNodeTaints",
          "CheckNodeLabelPresence",
          "CheckServiceAffinity",
          "MaxEBSVolumeCount",
          "MaxGCEPDVolumeCount",
          "MaxCSIVolumeCountPred",
          "MaxAzureDiskVolumeCount",
          "MaxCinderVolumeCount",
          "CheckVolumeBinding",
          "NoVolumeZoneConflict",
          "EvenPodsSpread",
          "MatchInterPodAffinity");

  /** Predicates every Policy gets. */
  static final Set<String> MANDATORY_PREDICATES =
      Set.of("PodToleratesNodeTaints", "CheckNodeUnschedulable");

  /** Predicates of a Policy without a {@code predicates} field. */
  static final Set<String> DEFAULT_PREDICATES =
      Set.of(
          "NoVolumeZoneConflict",
          "MaxEBSVolumeCount",
          "MaxGCEPDVolumeCount",
          "MaxAzureDiskVolumeCount",
          "MaxCSIVolumeCountPred",
          "MatchInterPodAffinity",
          "NoDiskConflict",
          "GeneralPredicates",
          "PodToleratesNodeTaints",
          "CheckVolumeBinding",
          "CheckNodeUnschedulable",
          "EvenPodsSpread");

  /** Priorities (and weights) of a Policy without a {@code priorities} field. */
  static final Map<String, Long> DEFAULT_PRIORITIES =
      Map.of(
          "SelectorSpreadPriority",
          1L,
          "InterPodAffinityPriority",
          1L,
          "LeastRequestedPriority",
          1L,
          "BalancedResourceAllocation",
          1L,
          "NodePreferAvoidPodsPriority",
          10000L,
          "NodeAffinityPriority",
          1L,
          "TaintTolerationPriority",
          1L,
          "ImageLocalityPriority",
          1L,
          "EvenPodsSpreadPriority",
          2L);

  /** Predicates whose v1.22 plugin is gone; NodeVolumeLimits stands in. */
  static final Set<String> VOLUME_COUNT_PREDICATES =
      Set.of(
          "MaxEBSVolumeCount",
          "MaxGCEPDVolumeCount",
          "MaxAzureDiskVolumeCount",
          "MaxCinderVolumeCount");

  /** The priority whose plugin (NodePreferAvoidPods) was removed in 1.24; dropped. */
  static final String NODE_PREFER_AVOID_PODS = "NodePreferAvoidPodsPriority";

  private static final ExtensionPoint PRE_FILTER = ExtensionPoint.PRE_FILTER;
  private static final ExtensionPoint FILTER = ExtensionPoint.FILTER;
  private static final ExtensionPoint PRE_SCORE = ExtensionPoint.PRE_SCORE;
  private static final ExtensionPoint SCORE = ExtensionPoint.SCORE;

  /**
   * Adds a predicate's or priority's plugins to {@code out}; {@code weight} is the priority weight.
   */
  @FunctionalInterface
  interface Producer {
    void produce(PolicyArgs args, long weight, Builder out);
  }

  /** The producer of every predicate v1.22 knew by name. */
  static final Map<String, Producer> PREDICATES =
      Map.ofEntries(
          Map.entry(
              "GeneralPredicates",
              (a, w, out) -> {
                out.add(FILTER, Names.NODE_RESOURCES_FIT)
                    .add(PRE_FILTER, Names.NODE_RESOURCES_FIT)
                    .add(FILTER, Names.NODE_NAME)
                    .add(FILTER, Names.NODE_PORTS)
                    .add(PRE_FILTER, Names.NODE_PORTS)
                    .add(FILTER, Names.NODE_AFFINITY)
                    .add(PRE_FILTER, Names.NODE_AFFINITY);
              }),
          Map.entry(
              "PodToleratesNodeTaints", (a, w, out) -> out.add(FILTER, Names.TAINT_TOLERATION)),
          Map.entry(
              "PodFitsResources",
              (a, w, out) ->
                  out.add(FILTER, Names.NODE_RESOURCES_FIT)
                      .add(PRE_FILTER, Names.NODE_RESOURCES_FIT)),
          Map.entry("HostName", (a, w, out) -> out.add(FILTER, Names.NODE_NAME)),
          Map.entry(
              "PodFitsHostPorts",
              (a, w, out) -> out.add(FILTER, Names.NODE_PORTS).add(PRE_FILTER, Names.NODE_PORTS)),
          Map.entry(
              "MatchNodeSelector",
              (a, w, out) ->
                  out.add(FILTER, Names.NODE_AFFINITY).add(PRE_FILTER, Names.NODE_AFFINITY)),
          Map.entry(
              "CheckNodeUnschedulable", (a, w, out) -> out.add(FILTER, Names.NODE_UNSCHEDULABLE)),
          Map.entry(
              "CheckVolumeBinding",
              (a, w, out) ->
                  out.add(PRE_FILTER, Names.VOLUME_BINDING)
                      .add(FILTER, Names.VOLUME_BINDING)
                      .add(ExtensionPoint.RESERVE, Names.VOLUME_BINDING)
                      .add(ExtensionPoint.PRE_BIND, Names.VOLUME_BINDING)),
          Map.entry("NoDiskConflict", (a, w, out) -> out.add(FILTER, Names.VOLUME_RESTRICTIONS)),
          Map.entry("NoVolumeZoneConflict", (a, w, out) -> out.add(FILTER, Names.VOLUME_ZONE)),
          Map.entry(
              "MaxCSIVolumeCountPred", (a, w, out) -> out.add(FILTER, Names.NODE_VOLUME_LIMITS)),
          Map.entry("MaxEBSVolumeCount", (a, w, out) -> out.add(FILTER, Names.NODE_VOLUME_LIMITS)),
          Map.entry(
              "MaxGCEPDVolumeCount", (a, w, out) -> out.add(FILTER, Names.NODE_VOLUME_LIMITS)),
          Map.entry(
              "MaxAzureDiskVolumeCount", (a, w, out) -> out.add(FILTER, Names.NODE_VOLUME_LIMITS)),
          Map.entry(
              "MaxCinderVolumeCount", (a, w, out) -> out.add(FILTER, Names.NODE_VOLUME_LIMITS)),
          Map.entry(
              "MatchInterPodAffinity",
              (a, w, out) ->
                  out.add(FILTER, Names.INTER_POD_AFFINITY)
                      .add(PRE_FILTER, Names.INTER_POD_AFFINITY)),
          Map.entry(
              "CheckNodeLabelPresence",
              (a, w, out) -> {
                out.add(FILTER, Names.NODE_LABEL);
                a.nodeLabelArgs().ifPresent(args -> out.args(Names.NODE_LABEL, args));
              }),
          Map.entry(
              "CheckServiceAffinity",
              (a, w, out) -> {
                out.add(FILTER, Names.SERVICE_AFFINITY);
                a.serviceAffinityArgs().ifPresent(args -> out.args(Names.SERVICE_AFFINITY, args));
                out.add(PRE_FILTER, Names.SERVICE_AFFINITY);
              }),
          Map.entry(
              "EvenPodsSpread",
              (a, w, out) ->
                  out.add(PRE_FILTER, Names.POD_TOPOLOGY_SPREAD)
                      .add(FILTER, Names.POD_TOPOLOGY_SPREAD)));

  /**
   * The producer of every priority v1.22 knew by name (custom priorities map onto the last three).
   */
  static final Map<String, Producer> PRIORITIES =
      Map.ofEntries(
          // With DefaultPodTopologySpread (on by default from 1.20), SelectorSpreadPriority is
          // PodTopologySpread with the system default constraints.
          Map.entry(
              "SelectorSpreadPriority",
              (a, w, out) -> {
                out.add(SCORE, Names.POD_TOPOLOGY_SPREAD, w)
                    .add(PRE_SCORE, Names.POD_TOPOLOGY_SPREAD);
                out.args(
                    Names.POD_TOPOLOGY_SPREAD, defaulting(PodTopologySpreadArgs.SYSTEM_DEFAULTING));
              }),
          Map.entry(
              "TaintTolerationPriority",
              (a, w, out) ->
                  out.add(PRE_SCORE, Names.TAINT_TOLERATION).add(SCORE, Names.TAINT_TOLERATION, w)),
          Map.entry(
              "NodeAffinityPriority",
              (a, w, out) ->
                  out.add(PRE_SCORE, Names.NODE_AFFINITY).add(SCORE, Names.NODE_AFFINITY, w)),
          Map.entry(
              "ImageLocalityPriority", (a, w, out) -> out.add(SCORE, Names.IMAGE_LOCALITY, w)),
          Map.entry(
              "InterPodAffinityPriority",
              (a, w, out) -> {
                out.add(PRE_SCORE, Names.INTER_POD_AFFINITY)
                    .add(SCORE, Names.INTER_POD_AFFINITY, w);
                if (a.hardPodAffinityWeight() != null) {
                  out.args(
                      Names.INTER_POD_AFFINITY,
                      JsonNodeFactory.instance
                          .objectNode()
                          .put("hardPodAffinityWeight", a.hardPodAffinityWeight()));
                }
              }),
          Map.entry(NODE_PREFER_AVOID_PODS, (a, w, out) -> out.dropped(NODE_PREFER_AVOID_PODS)),
          Map.entry(
              "MostRequestedPriority",
              (a, w, out) ->
                  out.fitStrategy(
                      "MostRequestedPriority", strategy(NodeResourcesFitArgs.MOST_ALLOCATED), w)),
          Map.entry(
              "BalancedResourceAllocation",
              (a, w, out) -> out.add(SCORE, Names.NODE_RESOURCES_BALANCED_ALLOCATION, w)),
          Map.entry(
              "LeastRequestedPriority",
              (a, w, out) ->
                  out.fitStrategy(
                      "LeastRequestedPriority", strategy(NodeResourcesFitArgs.LEAST_ALLOCATED), w)),
          Map.entry(
              "RequestedToCapacityRatio",
              (a, w, out) ->
                  out.fitStrategy(
                      "RequestedToCapacityRatio",
                      a.requestedToCapacityRatio()
                          .orElseThrow(
                              () ->
                                  new IllegalArgumentException(
                                      "priority RequestedToCapacityRatio needs requestedToCapacityRatioArguments")),
                      w)),
          // n LabelPreference priorities of weight w score as one NodeLabel plugin of weight n*w.
          Map.entry(
              Names.NODE_LABEL,
              (a, w, out) -> {
                ObjectNode args =
                    a.nodeLabelArgs()
                        .orElseThrow(
                            () ->
                                new IllegalArgumentException(
                                    "priority NodeLabel needs a labelPreference argument"));
                long n =
                    args.path("presentLabelsPreference").size()
                        + args.path("absentLabelsPreference").size();
                out.add(SCORE, Names.NODE_LABEL, Math.multiplyExact(w, n))
                    .args(Names.NODE_LABEL, args);
              }),
          // n ServiceAntiAffinity priorities of weight w score as one ServiceAffinity plugin of
          // weight n*w.
          Map.entry(
              Names.SERVICE_AFFINITY,
              (a, w, out) -> {
                ObjectNode args =
                    a.serviceAffinityArgs()
                        .orElseThrow(
                            () ->
                                new IllegalArgumentException(
                                    "priority ServiceAffinity needs a serviceAntiAffinity argument"));
                long n = args.path("antiAffinityLabelsPreference").size();
                out.add(SCORE, Names.SERVICE_AFFINITY, Math.multiplyExact(w, n))
                    .args(Names.SERVICE_AFFINITY, args);
              }),
          Map.entry(
              "EvenPodsSpreadPriority",
              (a, w, out) -> {
                out.add(PRE_SCORE, Names.POD_TOPOLOGY_SPREAD)
                    .add(SCORE, Names.POD_TOPOLOGY_SPREAD, w);
                out.argsIfAbsent(
                    Names.POD_TOPOLOGY_SPREAD, defaulting(PodTopologySpreadArgs.LIST_DEFAULTING));
              }));

  private PolicyPlugins() {}

  /** PodTopologySpread args that only name a defaulting type ({@code List} or {@code System}). */
  private static ObjectNode defaulting(String type) {
    return JsonNodeFactory.instance.objectNode().put("defaultingType", type);
  }

  /**
   * A NodeResourcesFit scoring strategy of {@code type} over cpu and memory, weight 1 each
   * (v1.22's).
   */
  private static ObjectNode strategy(String type) {
    ObjectNode s = JsonNodeFactory.instance.objectNode().put("type", type);
    ArrayNode resources = s.putArray("resources");
    resources.addObject().put("name", "cpu").put("weight", 1);
    resources.addObject().put("name", "memory").put("weight", 1);
    return s;
  }

  /**
   * The plugins and args a Policy produces, built up producer by producer as v1.22's {@code
   * appendToPluginSet}: a plugin already at a point keeps its place and its first weight (v1.22
   * meant to keep the larger weight, but updated a copy). Not thread-safe.
   */
  static final class Builder {

    private final Map<ExtensionPoint, List<PluginRef>> points = new LinkedHashMap<>();
    private final Map<String, JsonNode> args = new LinkedHashMap<>();
    private final List<String> dropped = new ArrayList<>();
    private String fitStrategyFrom;

    /**
     * Enables {@code plugin} at {@code point} with no weight (see {@link #add(ExtensionPoint,
     * String, long)}).
     */
    Builder add(ExtensionPoint point, String plugin) {
      return add(point, plugin, 0);
    }

    /**
     * Enables {@code plugin} at {@code point} with {@code weight}, unless it is there already (it
     * keeps its place and weight); a weight beyond an int is refused.
     */
    Builder add(ExtensionPoint point, String plugin, long weight) {
      List<PluginRef> refs = points.computeIfAbsent(point, p -> new ArrayList<>());
      if (refs.stream().noneMatch(r -> r.name().equals(plugin))) {
        if (weight > Integer.MAX_VALUE) {
          throw new IllegalArgumentException(
              "plugin "
                  + plugin
                  + " would get weight "
                  + weight
                  + ", more than the largest score weight the extender supports ("
                  + Integer.MAX_VALUE
                  + ")");
        }
        refs.add(new PluginRef(plugin, (int) weight));
      }
      return this;
    }

    /** Sets {@code plugin}'s args, replacing any set before. */
    Builder args(String plugin, JsonNode value) {
      args.put(plugin, value);
      return this;
    }

    /** Sets {@code plugin}'s args unless some were set before. */
    Builder argsIfAbsent(String plugin, JsonNode value) {
      args.putIfAbsent(plugin, value);
      return this;
    }

    /**
     * Scores with NodeResourcesFit under {@code strategy}; v1.22 ran a plugin per strategy, so only
     * one fits.
     */
    Builder fitStrategy(String priority, ObjectNode strategy, long weight) {
      if (fitStrategyFrom != null) {
        throw new IllegalArgumentException(
            "priorities "
                + fitStrategyFrom
                + " and "
                + priority
                + " both score with "
                + "NodeResourcesFit, which takes one scoring strategy; keep one of LeastRequestedPriority, "
                + "MostRequestedPriority and RequestedToCapacityRatio");
      }
      fitStrategyFrom = priority;
      ObjectNode fitArgs = JsonNodeFactory.instance.objectNode();
      fitArgs.set("scoringStrategy", strategy);
      return add(SCORE, Names.NODE_RESOURCES_FIT, weight).args(Names.NODE_RESOURCES_FIT, fitArgs);
    }

    /**
     * Records a predicate or priority the translation leaves out, for the log line that names them.
     */
    Builder dropped(String what) {
      dropped.add(what);
      return this;
    }

    /** The plugin sets by configuration name ({@code filter}, ...). */
    Map<String, PluginSet> sets() {
      Map<String, PluginSet> out = new LinkedHashMap<>();
      points.forEach(
          (p, refs) -> out.put(ProfileDefaults.setName(p), new PluginSet(refs, List.of())));
      return out;
    }

    /** The args by plugin. */
    Map<String, JsonNode> args() {
      return args;
    }

    /** What was dropped because the extender has no plugin for it. */
    List<String> dropped() {
      return dropped;
    }
  }
}
