package io.schedext.framework;

/**
 * Claims what the pod will use on the chosen node before binding (e.g. volumes), and gives it back
 * on failure. {@link #unreserve} must be idempotent and may run even when {@link #reserve} did not.
 */
public interface ReservePlugin extends Plugin {

  /** Reserves resources for the pod on {@code nodeName}. */
  Status reserve(CycleState state, PodInfo pod, String nodeName);

  /** Releases what {@link #reserve} claimed. */
  void unreserve(CycleState state, PodInfo pod, String nodeName);
}
