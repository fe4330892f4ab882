package io.schedext.extender;

import io.fabric8.kubernetes.api.model.Pod;
import java.time.Duration;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.LongSupplier;

/**
 * The pods recently sent to filter, prioritize or preempt, by UID, so that a following bind can
 * find a pod the cluster source does not know yet. Bounded in size and age: the oldest pods go
 * first, and a pod is forgotten once its time is up. Thread-safe.
 *
 * <p>Cheap on kube-scheduler's critical path, where every filter call brings a pod: a lookup is a
 * map read, and keeping a pod a map write plus a few steps along a ring of UIDs in the order they
 * were kept (a general-purpose cache's upkeep cost some 60 µs per write in the real loop). kube-
 * scheduler sends the same pod to filter and then to prioritize, and again on every retry: a pod
 * already kept at the same {@code resourceVersion}, for less than half its time, is only read.
 */
public final class SeenPods {

  /** A kept pod, when it was kept, and its place in the order of keeping. */
  private record Seen(Pod pod, long keptAtNanos, long seq) {}

  private final ConcurrentHashMap<String, Seen> byUid = new ConcurrentHashMap<>();
  private final long ttlNanos;
  private final long refreshAfterNanos;
  private final LongSupplier nanoTime;

  /** The UID kept at each place of the order, at {@code seq % capacity}; guarded by this. */
  private final String[] order;

  /** The place the next pod is kept at; guarded by this. */
  private long next;

  /** The oldest place not yet let go; guarded by this. */
  private long oldest;

  /** Keeps up to {@code maxPods} pods for {@code ttl}, timed by {@code nanoTime}. */
  public SeenPods(int maxPods, Duration ttl, LongSupplier nanoTime) {
    if (maxPods < 1) {
      throw new IllegalArgumentException("maxPods must be positive: " + maxPods);
    }
    this.order = new String[maxPods];
    this.ttlNanos = ttl.toNanos();
    this.refreshAfterNanos = ttlNanos / 2;
    this.nanoTime = nanoTime;
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
    long now = nanoTime.getAsLong();
    Seen kept = byUid.get(uid);
    if (kept != null
        && sameVersion(kept.pod(), pod)
        && now - kept.keptAtNanos() < refreshAfterNanos) {
      return;
    }
    synchronized (this) {
      // Pods are kept in time order, so the expired ones are the oldest: let go of those, and of
      // the oldest one when the order is full.
      while (oldest < next && (next - oldest >= order.length || expired(oldest, now))) {
        letGo(oldest++);
      }
      long seq = next++;
      order[slot(seq)] = uid;
      byUid.put(uid, new Seen(pod, now, seq));
    }
  }

  /** The pod with {@code uid}, or null. */
  public Pod get(String uid) {
    Seen kept = byUid.get(uid);
    return kept == null || nanoTime.getAsLong() - kept.keptAtNanos() >= ttlNanos
        ? null
        : kept.pod();
  }

  /** The number of pods held, expired ones not yet let go included. */
  public int size() {
    return byUid.size();
  }

  /**
   * True when the pod kept at place {@code seq} is past its time, or that place was taken over (its
   * UID kept again later, at a newer place).
   */
  private boolean expired(long seq, long now) {
    Seen s = byUid.get(order[slot(seq)]);
    return s == null || s.seq() != seq || now - s.keptAtNanos() >= ttlNanos;
  }

  /** Frees place {@code seq}, forgetting its pod unless its UID was kept again since. */
  private void letGo(long seq) {
    int slot = slot(seq);
    String uid = order[slot];
    order[slot] = null;
    if (uid != null) {
      byUid.computeIfPresent(uid, (k, s) -> s.seq() == seq ? null : s);
    }
  }

  private int slot(long seq) {
    return (int) (seq % order.length);
  }

  /** True when both pods carry the same, non-empty {@code resourceVersion}. */
  private static boolean sameVersion(Pod kept, Pod pod) {
    String version = pod.getMetadata().getResourceVersion();
    return version != null
        && !version.isEmpty()
        && version.equals(kept.getMetadata().getResourceVersion());
  }
}
