package io.schedext.plugins.volumebinding;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * A clock that only moves when PreBind's wait sleeps on it: each sleep advances it, first running
 * (in time order) the actions scheduled up to the new time, then the after-each-sleep hook (e.g. an
 * informer catching up).
 */
final class FakeTime extends Clock implements Sleeper {

  static final Instant START = Instant.parse("2026-01-01T00:00:00Z");

  private record Action(Instant at, int order, Runnable run) {}

  private Instant now = START;
  private final List<Action> actions = new ArrayList<>();
  private Runnable afterEachSleep = () -> {};
  private int sleeps;

  /** Runs {@code action} when the clock reaches {@code sinceStart}. */
  synchronized FakeTime at(Duration sinceStart, Runnable action) {
    actions.add(new Action(START.plus(sinceStart), actions.size(), action));
    return this;
  }

  /** Runs {@code hook} at the end of every sleep. */
  synchronized FakeTime afterEachSleep(Runnable hook) {
    this.afterEachSleep = hook;
    return this;
  }

  /** Time passed since the start. */
  synchronized Duration elapsed() {
    return Duration.between(START, now);
  }

  /** How many times something slept. */
  synchronized int sleeps() {
    return sleeps;
  }

  @Override
  public void sleep(Duration duration) {
    Instant target;
    List<Action> due = new ArrayList<>();
    synchronized (this) {
      sleeps++;
      target = now.plus(duration);
      for (Action a : actions) {
        if (!a.at().isAfter(target)) {
          due.add(a);
        }
      }
      actions.removeAll(due);
    }
    due.sort(Comparator.comparing(Action::at).thenComparing(Action::order));
    for (Action a : due) {
      synchronized (this) {
        now = a.at().isAfter(now) ? a.at() : now;
      }
      a.run().run();
    }
    synchronized (this) {
      now = target;
    }
    afterEachSleep.run();
  }

  @Override
  public synchronized Instant instant() {
    return now;
  }

  @Override
  public ZoneId getZone() {
    return ZoneOffset.UTC;
  }

  @Override
  public Clock withZone(ZoneId zone) {
    return this;
  }
}
