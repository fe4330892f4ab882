package io.schedext.plugins.volumebinding;

import java.time.Duration;

/**
 * Waits between PreBind's binding checks; injected so tests advance a fake clock instead of
 * sleeping.
 */
@FunctionalInterface
public interface Sleeper {

  /** Sleeps on the calling thread. */
  Sleeper SYSTEM = d -> Thread.sleep(d.toMillis());

  /**
   * Returns after {@code duration} has passed; throws {@link InterruptedException} when interrupted
   * first.
   */
  void sleep(Duration duration) throws InterruptedException;
}
