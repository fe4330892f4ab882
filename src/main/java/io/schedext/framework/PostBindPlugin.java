package io.schedext.framework;

/** Informational hook after a successful bind; cannot fail. */
public interface PostBindPlugin extends Plugin {

  /** Called once the pod is bound to {@code nodeName}. */
  void postBind(CycleState state, PodInfo pod, String nodeName);
}
