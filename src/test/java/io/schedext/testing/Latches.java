package io.schedext.testing;

import java.util.concurrent.CountDownLatch;

/**
 * Waiting on latches from inside work that cannot throw checked exceptions (tasks, plugins,
 * handlers).
 */
public final class Latches {

  private Latches() {}

  /** Waits until {@code latch} is open; an interrupt ends the wait and stays set on the thread. */
  public static void await(CountDownLatch latch) {
    try {
      latch.await();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
