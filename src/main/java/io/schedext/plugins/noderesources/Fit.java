package io.schedext.plugins.noderesources;

import io.schedext.framework.CycleState;
import io.schedext.framework.FilterPlugin;
import io.schedext.framework.Handle;
import io.schedext.framework.NodeInfo;
import io.schedext.framework.PluginArgs;
import io.schedext.framework.PodInfo;
import io.schedext.framework.PreFilterPlugin;
import io.schedext.framework.PreFilterResult;
import io.schedext.framework.PreScorePlugin;
import io.schedext.framework.ScorePlugin;
import io.schedext.framework.StateData;
import io.schedext.framework.Status;
import io.schedext.plugins.Names;
import io.schedext.plugins.noderesources.NodeResourcesFitArgs.ScoringStrategy;
import java.util.List;
import java.util.Set;

/**
 * Checks that a node has room for the pod's requests (pod count, cpu, memory, ephemeral storage,
 * extended and other scalar resources) and ranks nodes by one of three strategies over the
 * configured resources: LeastAllocated, MostAllocated or RequestedToCapacityRatio. Upstream's
 * {@code NodeResourcesFit}. Thread-safe.
 */
public final class Fit implements PreFilterPlugin, FilterPlugin, PreScorePlugin, ScorePlugin {

  /** The registered name. */
  public static final String NAME = Names.NODE_RESOURCES_FIT;

  static final String PRE_FILTER_STATE_KEY = "PreFilter" + NAME;
  static final String PRE_SCORE_STATE_KEY = "PreScore" + NAME;

  private final Set<String> ignoredResources;
  private final Set<String> ignoredResourceGroups;
  private final ResourceAllocation resources;
  private final ScoringFunction scorer;

  private Fit(
      Set<String> ignoredResources,
      Set<String> ignoredResourceGroups,
      ResourceAllocation resources,
      ScoringFunction scorer) {
    this.ignoredResources = ignoredResources;
    this.ignoredResourceGroups = ignoredResourceGroups;
    this.resources = resources;
    this.scorer = scorer;
  }

  @Override
  public String name() {
    return NAME;
  }

  /** Computes the pod's effective request once for every Filter call of the cycle. */
  @Override
  public PreFilterResult preFilter(CycleState state, PodInfo pod) {
    state.write(PRE_FILTER_STATE_KEY, FitRequest.of(pod, ignoredResources, ignoredResourceGroups));
    return PreFilterResult.success();
  }

  /**
   * Rejects the node with one reason per insufficient resource ("Too many pods", "Insufficient
   * cpu", ...); UnschedulableAndUnresolvable when some request exceeds the node's total
   * allocatable.
   */
  @Override
  public Status filter(CycleState state, PodInfo pod, NodeInfo node) {
    return state.read(PRE_FILTER_STATE_KEY, FitRequest.class).check(node);
  }

  /** Computes the pod's request per scored resource (cpu and memory with the non-zero defaults). */
  @Override
  public Status preScore(CycleState state, PodInfo pod, List<NodeInfo> nodes) {
    state.write(PRE_SCORE_STATE_KEY, new PodResourceRequests(resources.podRequests(pod)));
    return Status.success();
  }

  /** The strategy's 0–100 score; works without PreScore by computing the pod's requests itself. */
  @Override
  public long score(CycleState state, PodInfo pod, NodeInfo node) {
    StateData s = state.readOrNull(PRE_SCORE_STATE_KEY);
    long[] podRequests =
        s instanceof PodResourceRequests r ? r.values() : resources.podRequests(pod);
    return scorer.score(resources, node, podRequests);
  }

  /**
   * The factory registered under {@link Names#NODE_RESOURCES_FIT}; decodes {@link
   * NodeResourcesFitArgs} and throws {@link io.schedext.framework.FrameworkException} with
   * upstream's validation messages when they are invalid.
   */
  public static Fit create(PluginArgs args, Handle handle) {
    NodeResourcesFitArgs a =
        args == null ? NodeResourcesFitArgs.defaults() : args.as(NodeResourcesFitArgs.class);
    ArgsValidation.validate(a);
    ScoringStrategy strategy = a.scoringStrategy();
    ScoringFunction scorer =
        switch (strategy.type()) {
          case NodeResourcesFitArgs.MOST_ALLOCATED -> MostAllocated.INSTANCE;
          case NodeResourcesFitArgs.REQUESTED_TO_CAPACITY_RATIO ->
              new RequestedToCapacityRatio(strategy.requestedToCapacityRatio().shape());
          default -> LeastAllocated.INSTANCE;
        };
    return new Fit(
        Set.copyOf(a.ignoredResources()),
        Set.copyOf(a.ignoredResourceGroups()),
        new ResourceAllocation(strategy.resources(), false),
        scorer);
  }
}
