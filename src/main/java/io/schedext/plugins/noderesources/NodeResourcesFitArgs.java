package io.schedext.plugins.noderesources;

import java.util.List;

/**
 * The arguments of {@link Fit}, as upstream's v1 {@code NodeResourcesFitArgs} with its defaults
 * applied: no scoring strategy means LeastAllocated over cpu and memory (weight 1 each); a strategy
 * without resources gets that resource set; a zero weight becomes 1. The strategy type is not
 * defaulted (an empty type fails validation, as upstream).
 *
 * @param ignoredResources extended resources whose requests Filter does not check
 * @param ignoredResourceGroups extended resource groups (the part before "/") whose requests Filter
 *     does not check
 * @param scoringStrategy how Score ranks nodes
 */
public record NodeResourcesFitArgs(
    List<String> ignoredResources,
    List<String> ignoredResourceGroups,
    ScoringStrategy scoringStrategy) {

  /** The LeastAllocated strategy type. */
  public static final String LEAST_ALLOCATED = "LeastAllocated";

  /** The MostAllocated strategy type. */
  public static final String MOST_ALLOCATED = "MostAllocated";

  /** The RequestedToCapacityRatio strategy type. */
  public static final String REQUESTED_TO_CAPACITY_RATIO = "RequestedToCapacityRatio";

  /** Applies the v1 defaults. */
  public NodeResourcesFitArgs {
    ignoredResources = ignoredResources == null ? List.of() : List.copyOf(ignoredResources);
    ignoredResourceGroups =
        ignoredResourceGroups == null ? List.of() : List.copyOf(ignoredResourceGroups);
    scoringStrategy =
        scoringStrategy == null
            ? new ScoringStrategy(LEAST_ALLOCATED, ResourceSpec.DEFAULT_RESOURCES, null)
            : scoringStrategy;
  }

  /** The arguments with every field defaulted. */
  public static NodeResourcesFitArgs defaults() {
    return new NodeResourcesFitArgs(null, null, null);
  }

  /**
   * How the Score extension ranks nodes.
   *
   * @param type LeastAllocated, MostAllocated or RequestedToCapacityRatio
   * @param resources the resources scored and their weights
   * @param requestedToCapacityRatio the shape used by RequestedToCapacityRatio
   */
  public record ScoringStrategy(
      String type,
      List<ResourceSpec> resources,
      RequestedToCapacityRatioParam requestedToCapacityRatio) {

    /** Applies the v1 defaults. */
    public ScoringStrategy {
      type = type == null ? "" : type;
      resources =
          resources == null || resources.isEmpty()
              ? ResourceSpec.DEFAULT_RESOURCES
              : List.copyOf(resources);
    }
  }

  /**
   * The scoring function shape of RequestedToCapacityRatio.
   *
   * @param shape points of a piecewise linear function, in increasing utilization
   */
  public record RequestedToCapacityRatioParam(List<UtilizationShapePoint> shape) {

    /** Replaces a missing shape by an empty one (which fails validation). */
    public RequestedToCapacityRatioParam {
      shape = shape == null ? List.of() : List.copyOf(shape);
    }
  }

  /**
   * One point of the RequestedToCapacityRatio function.
   *
   * @param utilization the utilization in percent, 0–100
   * @param score the score at that utilization, 0–10
   */
  public record UtilizationShapePoint(int utilization, int score) {}
}
