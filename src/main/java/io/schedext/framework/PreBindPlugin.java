package io.schedext.framework;

/**
 * Prepares the cluster before binding (e.g. binds volumes); runs serially, the first failure
 * aborts.
 */
public interface PreBindPlugin extends Plugin {

  /** Prepares the binding of the pod to {@code nodeName}. */
  Status preBind(CycleState state, PodInfo pod, String nodeName);
}
