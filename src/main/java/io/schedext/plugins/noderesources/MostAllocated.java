package io.schedext.plugins.noderesources;

import io.schedext.framework.NodeInfo;
import io.schedext.framework.ScorePlugin;

/**
 * The MostAllocated strategy: favours fuller nodes (bin packing). Per resource requested × 100 / capacity, with the
 * request capped at capacity, then the weighted mean with integer division.
 */
final class MostAllocated implements ScoringFunction {

  static final MostAllocated INSTANCE = new MostAllocated();

  private MostAllocated() {}

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
      nodeScore += mostRequestedScore(requested, allocatable) * resources.weight(i);
      weightSum += resources.weight(i);
    }
    return weightSum == 0 ? 0 : nodeScore / weightSum;
  }

  static long mostRequestedScore(long requested, long capacity) {
    if (capacity == 0) {
      return 0;
    }
    // Requests can exceed capacity because pods without requests count the non-zero defaults.
    return Math.min(requested, capacity) * ScorePlugin.MAX_NODE_SCORE / capacity;
  }
}
