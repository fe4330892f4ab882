package io.schedext.plugins.noderesources;

import io.schedext.framework.NodeInfo;

/** Turns a node's allocatable and requested amounts of the configured resources into a 0–100 score. */
interface ScoringFunction {

  /** The score of {@code node} for a pod requesting {@code podRequests}; must not allocate. */
  long score(ResourceAllocation resources, NodeInfo node, long[] podRequests);
}
