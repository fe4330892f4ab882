package io.schedext.plugins.noderesources;

import io.schedext.framework.NodeInfo;

/** Turns a node's allocatable and requested amounts of the configured resources into a 0–100 score. */
interface ScoringFunction {

  /** The score of {@code node} for a pod requesting {@code podRequests}; must not allocate. */
  long score(ResourceAllocation resources, NodeInfo node, long[] podRequests);

  /**
   * The weighted mean, with integer division, of {@code perResource(requested, allocatable)} over the configured
   * resources the node has (0 when it has none): how LeastAllocated and MostAllocated combine their per-resource
   * scores.
   */
  static long weightedMean(
      ResourceAllocation resources, NodeInfo node, long[] podRequests, java.util.function.LongBinaryOperator perResource) {
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
}
