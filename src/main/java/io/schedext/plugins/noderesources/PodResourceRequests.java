package io.schedext.plugins.noderesources;

import io.schedext.framework.StateData;

/**
 * The pod's request per configured resource, written by PreScore and read by Score. Never mutated
 * after PreScore, so {@link #copy()} shares it.
 *
 * @param values the requests, in the order of the plugin's configured resources
 */
record PodResourceRequests(long[] values) implements StateData {

  /** True when the pod requests none of the configured resources. */
  boolean requestsNothing() {
    for (long v : values) {
      if (v != 0) {
        return false;
      }
    }
    return true;
  }

  @Override
  public StateData copy() {
    return this;
  }
}
