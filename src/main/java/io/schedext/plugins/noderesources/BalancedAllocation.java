package io.schedext.plugins.noderesources;

import io.schedext.framework.CycleState;
import io.schedext.framework.Handle;
import io.schedext.framework.NodeInfo;
import io.schedext.framework.PluginArgs;
import io.schedext.framework.PodInfo;
import io.schedext.framework.PreScorePlugin;
import io.schedext.framework.ScorePlugin;
import io.schedext.framework.StateData;
import io.schedext.framework.Status;
import io.schedext.plugins.Names;
import java.util.List;

/**
 * Favours nodes whose resource use stays balanced with the pod on them: the score is (1 − standard
 * deviation of the used fractions) × 100, truncated, over the configured resources the node has
 * (real requests, no non-zero defaults, each fraction capped at 1). Pods that request none of the
 * configured resources are skipped. Upstream's {@code NodeResourcesBalancedAllocation}.
 * Thread-safe.
 */
public final class BalancedAllocation implements PreScorePlugin, ScorePlugin {

  /** The registered name. */
  public static final String NAME = Names.NODE_RESOURCES_BALANCED_ALLOCATION;

  static final String PRE_SCORE_STATE_KEY = "PreScore" + NAME;

  private final ResourceAllocation resources;

  private BalancedAllocation(ResourceAllocation resources) {
    this.resources = resources;
  }

  @Override
  public String name() {
    return NAME;
  }

  /**
   * Computes the pod's request per configured resource; Skip for a pod that requests none of them,
   * so that a burst of best-effort pods is not packed onto the same balanced node.
   */
  @Override
  public Status preScore(CycleState state, PodInfo pod, List<NodeInfo> nodes) {
    PodResourceRequests requests = new PodResourceRequests(resources.podRequests(pod));
    if (requests.requestsNothing()) {
      return Status.skip();
    }
    state.write(PRE_SCORE_STATE_KEY, requests);
    return Status.success();
  }

  /**
   * The balance score; without PreScore it computes the requests itself and gives best-effort pods
   * 0.
   */
  @Override
  public long score(CycleState state, PodInfo pod, NodeInfo node) {
    StateData s = state.readOrNull(PRE_SCORE_STATE_KEY);
    long[] podRequests;
    if (s instanceof PodResourceRequests r) {
      podRequests = r.values();
    } else {
      PodResourceRequests computed = new PodResourceRequests(resources.podRequests(pod));
      if (computed.requestsNothing()) {
        return 0;
      }
      podRequests = computed.values();
    }
    return balance(node, podRequests);
  }

  /**
   * (1 − std) × 100, truncated, over the fractions used / allocatable (capped at 1) of the
   * resources the node has, with the pod's requests: two fractions give |f1 − f2| / 2, more give
   * the population standard deviation, fewer give 0. Two passes instead of a fraction array keep it
   * allocation-free while summing in upstream's order.
   */
  private long balance(NodeInfo node, long[] podRequests) {
    int count = 0;
    double total = 0;
    double first = 0;
    double second = 0;
    for (int i = 0; i < resources.size(); i++) {
      double f = fraction(node, i, podRequests[i]);
      if (Double.isNaN(f)) {
        continue;
      }
      if (count == 0) {
        first = f;
      } else if (count == 1) {
        second = f;
      }
      total += f;
      count++;
    }
    double std = 0;
    if (count == 2) {
      std = Math.abs((first - second) / 2);
    } else if (count > 2) {
      double mean = total / count;
      double sum = 0;
      for (int i = 0; i < resources.size(); i++) {
        double f = fraction(node, i, podRequests[i]);
        if (!Double.isNaN(f)) {
          sum = sum + (f - mean) * (f - mean);
        }
      }
      std = Math.sqrt(sum / count);
    }
    return (long) ((1 - std) * (double) MAX_NODE_SCORE);
  }

  /**
   * The used fraction of resource {@code i} with the pod, at most 1; NaN when the resource is left
   * out (the node has none, or it is a scalar the pod does not request).
   */
  private double fraction(NodeInfo node, int i, long podRequest) {
    long allocatable = resources.allocatable(node, i, podRequest);
    if (allocatable == 0) {
      return Double.NaN;
    }
    long used = resources.requested(node, i, podRequest);
    return Math.min((double) used / (double) allocatable, 1);
  }

  /**
   * The factory registered under {@link Names#NODE_RESOURCES_BALANCED_ALLOCATION}; decodes {@link
   * NodeResourcesBalancedAllocationArgs} and throws {@link
   * io.schedext.framework.FrameworkException} with upstream's validation messages when they are
   * invalid.
   */
  public static BalancedAllocation create(PluginArgs args, Handle handle) {
    NodeResourcesBalancedAllocationArgs a =
        args == null
            ? new NodeResourcesBalancedAllocationArgs(null)
            : args.as(NodeResourcesBalancedAllocationArgs.class);
    ArgsValidation.validate(a);
    return new BalancedAllocation(new ResourceAllocation(a.resources(), true));
  }
}
