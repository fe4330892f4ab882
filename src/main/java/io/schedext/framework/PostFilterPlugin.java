package io.schedext.framework;

import java.util.Map;

/** Runs when no node passed Filter, to make the pod schedulable later (preemption). */
public interface PostFilterPlugin extends Plugin {

  /** Tries to make room for the pod given each node's filter status. */
  PostFilterResult postFilter(
      CycleState state, PodInfo pod, Map<String, Status> filteredNodeStatuses);
}
