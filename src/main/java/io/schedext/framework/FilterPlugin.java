package io.schedext.framework;

/**
 * Decides whether the pod can run on one node. Called concurrently for different nodes, and over
 * 1,000 nodes now and then twice for the same node of a cycle (only one answer is kept; the other
 * may come after the cycle moved on): read the cycle state, never write it, and change no other
 * shared state. May return only Success, Unschedulable or UnschedulableAndUnresolvable; anything
 * else counts as Error. Look at the given node info, not the snapshot: in simulations it is a
 * modified copy.
 */
public interface FilterPlugin extends Plugin {

  /** Returns Success when the pod fits on {@code node}, else a rejection with upstream's reason. */
  Status filter(CycleState state, PodInfo pod, NodeInfo node);
}
