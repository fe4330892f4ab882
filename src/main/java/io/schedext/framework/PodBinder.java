package io.schedext.framework;

/**
 * Writes a binding of a pod to a node to wherever the cluster state lives (API server or the
 * embedded cluster).
 */
public interface PodBinder {

  /**
   * Binds the pod to {@code nodeName}. Idempotent: a pod already bound to that node is success.
   * Throws {@link FrameworkException} with a message fit for the extender's {@code Error} field
   * otherwise.
   */
  void bind(PodInfo pod, String nodeName);
}
