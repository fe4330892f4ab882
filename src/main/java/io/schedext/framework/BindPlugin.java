package io.schedext.framework;

/** Binds a pod to a node; returns Skip to leave the pod to the next bind plugin. */
public interface BindPlugin extends Plugin {

  /** Binds the pod to {@code nodeName}: Success, Skip, or Error. */
  Status bind(CycleState state, PodInfo pod, String nodeName);
}
