package io.schedext.extender;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import com.github.benmanes.caffeine.cache.Ticker;
import io.fabric8.kubernetes.api.model.Pod;
import java.time.Duration;

/**
 * The pods recently sent to filter, prioritize or preempt, by UID, so that a following bind can
 * find a pod the cluster source does not know yet. Bounded in size and age. Thread-safe.
 *
 * <p>kube-scheduler sends the same pod to filter and then to prioritize in one cycle, and again on
 * every retry. A pod already kept at the same {@code resourceVersion}, for less than half its time,
 * is not written again: a write is the cache's expensive path (it runs the upkeep), a read is not.
 */
public final class SeenPods {

  /** A kept pod and when it was kept, by the ticker. */
  private record Seen(Pod pod, long keptAtNanos) {}

  private final Cache<String, Seen> pods;
  private final Ticker ticker;
  private final long refreshAfterNanos;

  /** Keeps up to {@code maxPods} pods for {@code ttl}, timed by {@code ticker}. */
  public SeenPods(int maxPods, Duration ttl, Ticker ticker) {
    // Upkeep (eviction, expiry) runs on the writing thread, a few entries at a time: by default
    // Caffeine hands it to the common pool, which woke a pool thread for nearly every filter and
    // prioritize call (each writes its pod here) on the CPUs kube-scheduler waits on.
    this.pods =
        Caffeine.newBuilder()
            .maximumSize(maxPods)
            .expireAfterWrite(ttl)
            .ticker(ticker)
            .executor(Runnable::run)
            .build();
    this.ticker = ticker;
    this.refreshAfterNanos = ttl.toNanos() / 2;
  }

  /** Remembers {@code pod} (ignored when it has no UID). */
  public void remember(Pod pod) {
    if (pod.getMetadata() == null) {
      return;
    }
    String uid = pod.getMetadata().getUid();
    if (uid == null || uid.isEmpty()) {
      return;
    }
    long now = ticker.read();
    Seen kept = pods.getIfPresent(uid);
    if (kept != null
        && sameVersion(kept.pod(), pod)
        && now - kept.keptAtNanos() < refreshAfterNanos) {
      return;
    }
    pods.put(uid, new Seen(pod, now));
  }

  /** The pod with {@code uid}, or null. */
  public Pod get(String uid) {
    Seen kept = pods.getIfPresent(uid);
    return kept == null ? null : kept.pod();
  }

  /** True when both pods carry the same, non-empty {@code resourceVersion}. */
  private static boolean sameVersion(Pod kept, Pod pod) {
    String version = pod.getMetadata().getResourceVersion();
    return version != null
        && !version.isEmpty()
        && version.equals(kept.getMetadata().getResourceVersion());
  }
}
