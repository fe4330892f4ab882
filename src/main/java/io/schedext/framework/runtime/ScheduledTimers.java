package io.schedext.framework.runtime;

import io.schedext.framework.Timers;
import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

/** {@link Timers} on one daemon scheduler thread. Thread-safe. */
public final class ScheduledTimers implements Timers, AutoCloseable {

  private final ScheduledExecutorService executor =
      Executors.newSingleThreadScheduledExecutor(
          r -> {
            Thread t = new Thread(r, "permit-timers");
            t.setDaemon(true);
            return t;
          });

  @Override
  public Cancellable schedule(Duration delay, Runnable task) {
    ScheduledFuture<?> f = executor.schedule(task, delay.toNanos(), TimeUnit.NANOSECONDS);
    return () -> f.cancel(false);
  }

  @Override
  public void close() {
    executor.shutdownNow();
  }
}
