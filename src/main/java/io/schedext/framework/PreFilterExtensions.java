package io.schedext.framework;

/**
 * Incremental updates of a PreFilter plugin's cycle state when the framework simulates adding a
 * nominated pod or removing a preemption victim on a node. Called on a copied state; must not touch
 * the node info.
 */
public interface PreFilterExtensions {

  /** Updates the state as if {@code podToAdd} ran on {@code node}. */
  Status addPod(CycleState state, PodInfo podToSchedule, PodInfo podToAdd, NodeInfo node);

  /** Updates the state as if {@code podToRemove} no longer ran on {@code node}. */
  Status removePod(CycleState state, PodInfo podToSchedule, PodInfo podToRemove, NodeInfo node);
}
