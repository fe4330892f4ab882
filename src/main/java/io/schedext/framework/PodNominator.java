package io.schedext.framework;

import java.util.List;

/** Knows which pending pods are nominated to which node (their {@code status.nominatedNodeName}). Thread-safe. */
public interface PodNominator {

  /** A nominator that knows of no nominated pods. */
  PodNominator NONE = nodeName -> List.of();

  /** The pods nominated to {@code nodeName}. */
  List<PodInfo> nominatedPodsForNode(String nodeName);
}
