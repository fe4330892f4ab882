package io.schedext.framework;

/**
 * A value a plugin keeps in {@link CycleState}; {@link #copy()} must deep-copy anything mutable.
 */
public interface StateData {

  /** Returns a copy safe to change independently; immutable data may return {@code this}. */
  StateData copy();
}
