package io.schedext.cluster;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import java.time.Clock;
import java.time.Instant;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Owns one informer's life cycle: start without blocking, retry after errors, report whether it has synced and
 * whether its watch is up, and since when it is down. Thread-safe.
 */
final class InformerHandle<T extends HasMetadata> {

  private static final Logger log = LoggerFactory.getLogger(InformerHandle.class);

  private final String kind;
  private final SharedIndexInformer<T> informer;
  private final Clock clock;
  private final AtomicLong errors = new AtomicLong();
  private volatile Instant downSince;

  InformerHandle(String kind, SharedIndexInformer<T> informer, Clock clock) {
    this.kind = kind;
    this.informer = informer;
    this.clock = clock;
    informer.exceptionHandler((started, t) -> {
      errors.incrementAndGet();
      log.warn("{} informer: {} (retrying)", kind, t.toString());
      return true;
    });
  }

  /** Starts the informer; the stage completes when it has synced (exceptionally when it failed to start). */
  CompletableFuture<Void> start() {
    return informer.start().toCompletableFuture().whenComplete((v, t) -> {
      if (t != null) {
        log.error("{} informer failed to start: {}", kind, t.toString());
      } else {
        log.info("{} informer synced ({} objects)", kind, informer.getStore().list().size());
      }
    });
  }

  String kind() {
    return kind;
  }

  boolean hasSynced() {
    return informer.hasSynced();
  }

  /** True when the watch is up; records since when it is not. */
  boolean isWatching() {
    boolean watching = informer.isWatching();
    if (watching) {
      downSince = null;
    } else if (downSince == null) {
      downSince = clock.instant();
    }
    return watching;
  }

  /** When the watch went down, or null while it is up. */
  Instant downSince() {
    isWatching();
    return downSince;
  }

  long errors() {
    return errors.get();
  }

  SharedIndexInformer<T> informer() {
    return informer;
  }

  void stop() {
    informer.stop();
  }
}
