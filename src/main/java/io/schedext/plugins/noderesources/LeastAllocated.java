package io.schedext.plugins.noderesources;

import io.schedext.framework.NodeInfo;

/**
 * The LeastAllocated strategy: favours nodes with more free capacity. Per resource (capacity −
 * requested) × 100 / capacity (0 when over-committed), then the weighted mean with integer
 * division.
 */
final class LeastAllocated implements ScoringFunction {

  static final LeastAllocated INSTANCE = new LeastAllocated();

  private LeastAllocated() {}

  @Override
  public long score(ResourceAllocation resources, NodeInfo node, long[] podRequests) {
    return ScoringFunction.weightedMean(
        resources, node, podRequests, LeastAllocated::leastRequestedScore);
  }

  static long leastRequestedScore(long requested, long capacity) {
    if (capacity == 0 || requested > capacity) {
      return 0;
    }
    return ScoringFunction.percentOf(capacity - requested, capacity);
  }
}
