package io.schedext.framework.runtime;

import io.schedext.framework.Timers;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * {@link Timers} that only record what was scheduled; the test fires them by hand. Not thread-safe.
 */
final class FakeTimers implements Timers {

  /** One scheduled callback. */
  static final class Scheduled implements Cancellable {
    final Duration delay;
    final Runnable task;
    boolean cancelled;
    boolean fired;

    Scheduled(Duration delay, Runnable task) {
      this.delay = delay;
      this.task = task;
    }

    @Override
    public void cancel() {
      cancelled = true;
    }

    /** Runs the callback as the timer thread would, unless it was cancelled. */
    void fire() {
      if (!cancelled && !fired) {
        fired = true;
        task.run();
      }
    }
  }

  final List<Scheduled> scheduled = new ArrayList<>();

  @Override
  public Cancellable schedule(Duration delay, Runnable task) {
    Scheduled s = new Scheduled(delay, task);
    scheduled.add(s);
    return s;
  }

  List<Duration> delays() {
    return scheduled.stream().map(s -> s.delay).toList();
  }
}
