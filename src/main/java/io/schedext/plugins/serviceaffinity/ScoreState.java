package io.schedext.plugins.serviceaffinity;

import io.schedext.framework.StateData;
import io.schedext.kube.Selector;

/**
 * What ServiceAffinity's PreScore computes for Score: the selector of the first service selecting
 * the pod, or null when no service selects it. Immutable.
 */
final class ScoreState implements StateData {

  /** The first matching service's selector, or null. */
  final Selector firstServiceSelector;

  ScoreState(Selector firstServiceSelector) {
    this.firstServiceSelector = firstServiceSelector;
  }

  @Override
  public ScoreState copy() {
    return this;
  }
}
