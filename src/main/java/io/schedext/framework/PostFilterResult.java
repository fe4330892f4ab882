package io.schedext.framework;

import java.util.List;

/**
 * What a PostFilter plugin returns.
 *
 * @param status Success when it made the pod schedulable (with a nominated node), else why not
 * @param nominatedNodeName the node the pod should be retried on, or null
 * @param victims the pods that would be evicted on that node (empty when none)
 */
public record PostFilterResult(Status status, String nominatedNodeName, List<PodInfo> victims) {

  /** A result carrying only a status. */
  public static PostFilterResult of(Status status) {
    return new PostFilterResult(status, null, List.of());
  }
}
