package io.schedext.testing;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;

/** A clock tests move by hand. Thread-safe. */
public final class MutableClock extends Clock {

  private volatile Instant now;

  /** A clock reading {@code start}. */
  public MutableClock(Instant start) {
    this.now = start;
  }

  /** Sets the clock to {@code instant}. */
  public void set(Instant instant) {
    now = instant;
  }

  /** Moves the clock forward. */
  public void advance(Duration d) {
    now = now.plus(d);
  }

  @Override
  public Instant instant() {
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
