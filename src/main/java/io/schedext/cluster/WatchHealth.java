package io.schedext.cluster;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Whether the informers' state can be trusted: every informer synced, no watch down for longer than
 * the grace period, timed from the moment it dropped, and (with an {@link ApiProbe}) the API server
 * not silent for longer than that either: a stalled connection leaves every watch looking up.
 * {@link #poll()} samples every watch and the probe (the source runs it every second, so an outage
 * is timed whether or not anything asks for readiness) and logs one line when watches drop (one for
 * all that dropped since the last sample) or recover and when readiness changes. Thread-safe.
 */
final class WatchHealth {

  private static final Logger log = LoggerFactory.getLogger(WatchHealth.class);

  private final Clock clock;
  private final Duration syncGrace;
  private final List<InformerHandle<?>> informers = new CopyOnWriteArrayList<>();
  private volatile ApiProbe probe;
  private String lastReason;

  WatchHealth(Clock clock, Duration syncGrace) {
    this.clock = clock;
    this.syncGrace = syncGrace;
  }

  void add(InformerHandle<?> handle) {
    informers.add(handle);
  }

  List<InformerHandle<?>> informers() {
    return informers;
  }

  /** Asks {@code probe} at every {@link #poll()} whether the API server answers at all. */
  void probe(ApiProbe probe) {
    this.probe = probe;
  }

  /**
   * Samples every watch now, logs what changed, and returns why the state is not ready (empty:
   * ready).
   */
  synchronized String poll() {
    ApiProbe p = probe;
    if (p != null) {
      p.poll();
    }
    // An API server that restarts drops every watch at once: one line for all of them, not one
    // per kind.
    List<String> dropped = new ArrayList<>();
    List<String> recovered = new ArrayList<>();
    Instant firstDrop = null;
    for (InformerHandle<?> h : informers) {
      switch (h.sample()) {
        case DROPPED -> {
          dropped.add(h.kind());
          Instant since = h.downSince();
          firstDrop = firstDrop == null || since.isBefore(firstDrop) ? since : firstDrop;
        }
        case RECOVERED -> recovered.add(h.kind());
        case NONE -> {}
      }
    }
    if (dropped.size() == 1) {
      log.warn(
          "{} watch dropped at {}; readiness turns DOWN at {} unless it recovers",
          dropped.get(0),
          firstDrop,
          firstDrop.plus(syncGrace));
    } else if (!dropped.isEmpty()) {
      log.warn(
          "{} watches dropped at {}: {}; readiness turns DOWN at {} unless they recover",
          dropped.size(),
          firstDrop,
          dropped,
          firstDrop.plus(syncGrace));
    }
    if (recovered.size() == 1) {
      log.info("{} watch recovered", recovered.get(0));
    } else if (!recovered.isEmpty()) {
      log.info("{} watches recovered: {}", recovered.size(), recovered);
    }
    String reason = notReadyReason();
    if (lastReason != null && !reason.equals(lastReason)) {
      if (reason.isEmpty()) {
        log.info("Cluster state ready");
      } else if (lastReason.isEmpty()) {
        log.warn("Cluster state not ready: {}", reason);
      }
    }
    lastReason = reason;
    return reason;
  }

  /** Why the state is not ready as of the last samples (empty: ready). */
  String notReadyReason() {
    if (informers.isEmpty()) {
      return "not started";
    }
    List<String> unsynced = new ArrayList<>();
    List<String> down = new ArrayList<>();
    Instant now = clock.instant();
    for (InformerHandle<?> h : informers) {
      if (!h.hasSynced()) {
        unsynced.add(h.kind());
        continue;
      }
      Instant since = h.downSince();
      if (since != null && Duration.between(since, now).compareTo(syncGrace) > 0) {
        down.add(h.kind() + " (since " + since + ")");
      }
    }
    List<String> reasons = new ArrayList<>();
    if (!unsynced.isEmpty()) {
      reasons.add("informers not synced yet: " + unsynced);
    }
    if (!down.isEmpty()) {
      reasons.add("watches down for longer than " + syncGrace + ": " + down);
    }
    ApiProbe p = probe;
    Instant unanswered = p == null ? null : p.unansweredSince();
    if (unanswered != null && Duration.between(unanswered, now).compareTo(syncGrace) > 0) {
      reasons.add(
          "API server not answering for longer than " + syncGrace + " (since " + unanswered + ")");
    }
    return String.join("; ", reasons);
  }

  /** The kinds whose watch is down (within the grace period or not), as of the last samples. */
  List<String> down() {
    List<String> out = new ArrayList<>();
    for (InformerHandle<?> h : informers) {
      if (h.hasSynced() && h.downSince() != null) {
        out.add(h.kind());
      }
    }
    return out;
  }

  /**
   * Watch outages and further list/watch failures of every informer, and times the API server
   * stopped answering, since start.
   */
  long errors() {
    ApiProbe p = probe;
    long n = p == null ? 0 : p.outages();
    for (InformerHandle<?> h : informers) {
      n += h.errors();
    }
    return n;
  }
}
