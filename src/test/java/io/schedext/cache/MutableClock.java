package io.schedext.cache;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;

/** A clock the test moves by hand, so expiry is tested without waiting. Not thread-safe. */
final class MutableClock extends Clock {

  private Instant now;

  MutableClock(Instant start) {
    this.now = start;
  }

  void set(Instant instant) {
    now = instant;
  }

  void advance(Duration d) {
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
