package io.schedext.plugins.defaultpreemption;

import io.schedext.framework.PodInfo;
import io.schedext.framework.Status;
import java.util.List;

/**
 * What {@link Evaluator#selectVictimsOnNode} found for one node.
 *
 * @param victims the pods to evict, most important first; empty unless the status is Success
 * @param numPdbViolations how many of the victims violate a PodDisruptionBudget
 * @param status Success when the pod fits once the victims are gone; otherwise why the node cannot
 *     help
 */
record VictimSelection(List<PodInfo> victims, int numPdbViolations, Status status) {

  /** A selection that failed with {@code status}. */
  static VictimSelection failed(Status status) {
    return new VictimSelection(List.of(), 0, status);
  }
}
