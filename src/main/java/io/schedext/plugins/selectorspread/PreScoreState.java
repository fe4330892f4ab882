package io.schedext.plugins.selectorspread;

import io.schedext.framework.StateData;
import io.schedext.kube.Selector;

/**
 * What SelectorSpread's PreScore computes for Score: the selector of "pods like the incoming one".
 * Immutable.
 */
final class PreScoreState implements StateData {

  /**
   * The pod's default selector (Services, then its controller); matches nothing useful when empty.
   */
  final Selector selector;

  PreScoreState(Selector selector) {
    this.selector = selector;
  }

  @Override
  public PreScoreState copy() {
    return this;
  }
}
