package io.schedext.plugins.noderesources;

import io.schedext.framework.NodeInfo;

/**
 * The MostAllocated strategy: favours fuller nodes (bin packing). Per resource requested × 100 /
 * capacity, with the request capped at capacity, then the weighted mean with integer division.
 */
final class MostAllocated implements ScoringFunction {

  static final MostAllocated INSTANCE = new MostAllocated();

  private MostAllocated() {}

  @Override
  public long score(ResourceAllocation resources, NodeInfo node, long[] podRequests) {
    return ScoringFunction.weightedMean(
        resources, node, podRequests, MostAllocated::mostRequestedScore);
  }

  static long mostRequestedScore(long requested, long capacity) {
    if (capacity == 0) {
      return 0;
    }
    // Requests can exceed capacity because pods without requests count the non-zero defaults.
    return ScoringFunction.percentOf(Math.min(requested, capacity), capacity);
  }
}
