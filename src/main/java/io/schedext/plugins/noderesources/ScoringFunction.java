package io.schedext.plugins.noderesources;

import io.schedext.framework.NodeInfo;
import io.schedext.framework.ScorePlugin;
import java.math.BigInteger;
import java.util.function.LongBinaryOperator;

/**
 * Turns a node's allocatable and requested amounts of the configured resources into a 0–100 score.
 */
interface ScoringFunction {

  /** The score of {@code node} for a pod requesting {@code podRequests}; must not allocate. */
  long score(ResourceAllocation resources, NodeInfo node, long[] podRequests);

  /**
   * The weighted mean, with integer division, of {@code perResource(requested, allocatable)} over
   * the configured resources the node has (0 when it has none): how LeastAllocated and
   * MostAllocated combine their per-resource scores.
   */
  static long weightedMean(
      ResourceAllocation resources,
      NodeInfo node,
      long[] podRequests,
      LongBinaryOperator perResource) {
    long nodeScore = 0;
    long weightSum = 0;
    for (int i = 0; i < resources.size(); i++) {
      long allocatable = resources.allocatable(node, i, podRequests[i]);
      if (allocatable == 0) {
        continue;
      }
      long requested = resources.requested(node, i, podRequests[i]);
      nodeScore += perResource.applyAsLong(requested, allocatable) * resources.weight(i);
      weightSum += resources.weight(i);
    }
    return weightSum == 0 ? 0 : nodeScore / weightSum;
  }

  /**
   * {@code part × 100 / whole} rounded down, for {@code 0 ≤ part ≤ whole}, {@code whole > 0}, exact
   * over the whole long range. Upstream multiplies in int64 first, which wraps around for amounts
   * over about 9.2e16 (a node with more than 9.2e13 cores, or 80 PiB of memory) and gives a wrong
   * score; such amounts are computed exactly here.
   */
  static long percentOf(long part, long whole) {
    if (part <= Long.MAX_VALUE / ScorePlugin.MAX_NODE_SCORE) {
      return part * ScorePlugin.MAX_NODE_SCORE / whole;
    }
    return BigInteger.valueOf(part)
        .multiply(BigInteger.valueOf(ScorePlugin.MAX_NODE_SCORE))
        .divide(BigInteger.valueOf(whole))
        .longValueExact();
  }
}
