package io.schedext.cluster;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import java.time.Clock;
import java.time.Instant;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Owns one informer's life cycle: start without blocking, retry after errors, report whether it has
 * synced and whether its watch is up, and since when it is down. The watch is sampled by {@link
 * WatchHealth#poll()} every second whether or not anyone asks, and a list/watch error fabric8
 * reports marks it down at once, so "down since" is the moment it dropped, not the moment a probe
 * first looked. Thread-safe.
 */
final class InformerHandle<T extends HasMetadata> {

  private static final Logger log = LoggerFactory.getLogger(InformerHandle.class);

  private final String kind;
  private final SharedIndexInformer<T> informer;
  private final Clock clock;
  private final AtomicLong errors = new AtomicLong();
  private final AtomicLong drops = new AtomicLong();
  private Instant downSince;

  /** Objects the handler has been handed ({@link #counting}). */
  private final AtomicLong added = new AtomicLong();

  /** The store's size when the informer was first seen synced; -1 before. */
  private volatile int listed = -1;

  /** True once the handler had been handed the first list ({@link #hasSynced()}). */
  private volatile boolean caughtUp;

  /** True once the current outage was logged, so an outage of many retries logs one line. */
  private boolean outageLogged;

  /**
   * True once the watch was seen up. fabric8 reports an informer synced as soon as its first list
   * is stored, and opens the watch just after: until then it is starting, not dropped (seen against
   * a real API server at every start).
   */
  private boolean watched;

  InformerHandle(String kind, SharedIndexInformer<T> informer, Clock clock) {
    this.kind = kind;
    this.informer = informer;
    this.clock = clock;
    informer.exceptionHandler(
        (started, t) -> {
          boolean first = markDown(clock.instant());
          if (!first) {
            errors.incrementAndGet();
          }
          if (first) {
            log.warn(
                "{} watch failed: {} (retrying; further failures of this outage are logged at debug)",
                kind,
                t.toString());
          } else {
            log.debug("{} watch failed again: {}", kind, t.toString());
          }
          return true;
        });
  }

  /**
   * Starts the informer; the stage completes when it has synced (exceptionally when it failed to
   * start).
   */
  CompletableFuture<Void> start() {
    return informer
        .start()
        .toCompletableFuture()
        .whenComplete(
            (v, t) -> {
              if (t != null) {
                log.error("{} informer failed to start: {}", kind, t.toString());
              } else {
                log.info(
                    "{} informer synced ({} objects)", kind, informer.getStore().list().size());
              }
            });
  }

  String kind() {
    return kind;
  }

  /**
   * Whether the informer has listed and its handler has been handed that list. fabric8 reports an
   * informer synced once the list is in the informer's own store, while the handler (the cache)
   * receives its objects afterwards on the client's executor: readiness taken from the store alone
   * was seen UP with 32 of 1,000 nodes in the cache. So the handler must also have added at least
   * as many objects as the store held when it was first seen synced; once true, it stays true.
   */
  boolean hasSynced() {
    if (caughtUp) {
      return true;
    }
    if (!informer.hasSynced()) {
      return false;
    }
    if (listed < 0) {
      listed = informer.getStore().list().size();
    }
    caughtUp = added.get() >= listed;
    return caughtUp;
  }

  /**
   * {@code handler} counting the objects it has been handed ({@link #hasSynced()}); register this
   * rather than {@code handler} itself.
   */
  ResourceEventHandler<T> counting(ResourceEventHandler<T> handler) {
    return new ForwardingHandler<>(handler) {
      @Override
      public void onAdd(T obj) {
        try {
          super.onAdd(obj);
        } finally {
          added.incrementAndGet();
        }
      }
    };
  }

  /** What one sample of the watch found. */
  enum Change {
    NONE,
    DROPPED,
    RECOVERED
  }

  /**
   * Samples the watch now: marks it down (from now, unless an error marked it earlier) or up again,
   * and says whether that changed. Only a watch seen up once counts: before the first sync, and
   * between the first list and the watch that follows it, the watch is starting, not down (a
   * failure fabric8 reports still marks it down at once).
   */
  synchronized Change sample() {
    if (!informer.hasSynced()) {
      return Change.NONE;
    }
    if (informer.isWatching()) {
      watched = true;
      if (downSince == null) {
        return Change.NONE;
      }
      downSince = null;
      outageLogged = false;
      return Change.RECOVERED;
    }
    if (!watched) {
      return Change.NONE;
    }
    return markDown(clock.instant()) ? Change.DROPPED : Change.NONE;
  }

  /**
   * Marks the watch down since {@code at} unless it already is; true when this starts an outage
   * (counted, and logged by the caller).
   */
  private synchronized boolean markDown(Instant at) {
    if (downSince != null) {
      return false;
    }
    downSince = at;
    outageLogged = true;
    drops.incrementAndGet();
    return true;
  }

  /** When the watch went down, or null while it is up (as of the last sample or error). */
  synchronized Instant downSince() {
    return downSince;
  }

  /**
   * Outages of the watch (each counted once) plus every further list/watch failure fabric8
   * reported, since start.
   */
  long errors() {
    return errors.get() + drops.get();
  }

  SharedIndexInformer<T> informer() {
    return informer;
  }

  void stop() {
    informer.stop();
  }
}
