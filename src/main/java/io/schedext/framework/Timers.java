package io.schedext.framework;

import java.time.Duration;

/**
 * Schedules one-shot callbacks; injected so tests fire timers by advancing a fake clock instead of
 * waiting.
 */
public interface Timers {

  /** A scheduled callback that can be cancelled. */
  interface Cancellable {

    /** Cancels the callback if it has not run. */
    void cancel();
  }

  /** Runs {@code task} once after {@code delay}. */
  Cancellable schedule(Duration delay, Runnable task);
}
