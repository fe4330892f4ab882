package io.schedext.extender;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import com.github.benmanes.caffeine.cache.Ticker;
import io.fabric8.kubernetes.api.model.Pod;
import java.time.Duration;

/**
 * The pods recently sent to filter, prioritize or preempt, by UID, so that a following bind can
 * find a pod the cluster source does not know yet. Bounded in size and age. Thread-safe.
 */
public final class SeenPods {

  private final Cache<String, Pod> pods;

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
  }

  /** Remembers {@code pod} (ignored when it has no UID). */
  public void remember(Pod pod) {
    if (pod.getMetadata() != null
        && pod.getMetadata().getUid() != null
        && !pod.getMetadata().getUid().isEmpty()) {
      pods.put(pod.getMetadata().getUid(), pod);
    }
  }

  /** The pod with {@code uid}, or null. */
  public Pod get(String uid) {
    return pods.getIfPresent(uid);
  }
}
