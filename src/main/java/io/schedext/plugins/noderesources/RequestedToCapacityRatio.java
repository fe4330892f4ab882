package io.schedext.plugins.noderesources;

import io.schedext.framework.NodeInfo;
import io.schedext.framework.ScorePlugin;
import io.schedext.plugins.noderesources.NodeResourcesFitArgs.UtilizationShapePoint;
import java.util.List;

/**
 * The RequestedToCapacityRatio strategy: each resource's utilization (requested × 100 / capacity,
 * 100 when over-committed) is mapped through a piecewise linear shape whose 0–10 scores are scaled
 * ×10; resources scoring 0 are left out, and the weighted mean is rounded half away from zero.
 */
final class RequestedToCapacityRatio implements ScoringFunction {

  private static final long MAX_UTILIZATION = 100;
  private static final long MAX_CUSTOM_PRIORITY_SCORE = 10;

  private final long[] utilization;
  private final long[] score;

  RequestedToCapacityRatio(List<UtilizationShapePoint> shape) {
    utilization = new long[shape.size()];
    score = new long[shape.size()];
    for (int i = 0; i < shape.size(); i++) {
      utilization[i] = shape.get(i).utilization();
      score[i] = shape.get(i).score() * (ScorePlugin.MAX_NODE_SCORE / MAX_CUSTOM_PRIORITY_SCORE);
    }
  }

  @Override
  public long score(ResourceAllocation resources, NodeInfo node, long[] podRequests) {
    long nodeScore = 0;
    long weightSum = 0;
    for (int i = 0; i < resources.size(); i++) {
      long allocatable = resources.allocatable(node, i, podRequests[i]);
      if (allocatable == 0) {
        continue;
      }
      long requested = resources.requested(node, i, podRequests[i]);
      long resourceScore =
          requested > allocatable
              ? brokenLinear(utilization, score, MAX_UTILIZATION)
              : brokenLinear(utilization, score, ScoringFunction.percentOf(requested, allocatable));
      if (resourceScore > 0) {
        nodeScore += resourceScore * resources.weight(i);
        weightSum += resources.weight(i);
      }
    }
    if (weightSum == 0) {
      return 0;
    }
    return Math.round((double) nodeScore / (double) weightSum);
  }

  /**
   * Upstream's {@code BuildBrokenLinearFunction}: the first score up to the first point, linear
   * interpolation (integer arithmetic) between points, the last score after the last point.
   */
  static long brokenLinear(long[] utilization, long[] score, long p) {
    for (int i = 0; i < utilization.length; i++) {
      if (p <= utilization[i]) {
        if (i == 0) {
          return score[0];
        }
        return score[i - 1]
            + (score[i] - score[i - 1])
                * (p - utilization[i - 1])
                / (utilization[i] - utilization[i - 1]);
      }
    }
    return score[score.length - 1];
  }
}
