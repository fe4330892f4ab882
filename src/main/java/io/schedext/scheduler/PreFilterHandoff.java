package io.schedext.scheduler;

import io.fabric8.kubernetes.api.model.Pod;
import io.schedext.cache.Snapshot;
import io.schedext.framework.CycleState;
import io.schedext.framework.runtime.Framework;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Carries the PreFilter state of a filter call to the prioritize call of the same scheduling cycle.
 * kube-scheduler calls filter and then prioritize for a pod in one cycle, and upstream runs
 * PreFilter once per cycle; so a prioritize for the same pod (same UID and resource version, or
 * equal), profile and snapshot (no cache change in between) scores on that state instead of running
 * PreFilter again. Holds one entry, the last filter call's; anything else is a miss, and a miss
 * costs one PreFilter run. Thread-safe.
 */
final class PreFilterHandoff {

  /** The state one filter call left, with what it was computed for. */
  private record Entry(Framework framework, Snapshot snapshot, Pod pod, CycleState state) {}

  private final AtomicReference<Entry> last = new AtomicReference<>();

  /**
   * Offers the PreFilter {@code state} a filter call computed for {@code pod} on {@code snapshot}.
   */
  void offer(Framework framework, Snapshot snapshot, Pod pod, CycleState state) {
    last.set(new Entry(framework, snapshot, pod, state));
  }

  /**
   * A copy of the offered state to score {@code pod} on, sharing its PreFilter data, when the last
   * offer was for this framework, this very snapshot and the same pod; else null.
   */
  CycleState take(Framework framework, Snapshot snapshot, Pod pod) {
    Entry e = last.get();
    if (e == null
        || e.framework() != framework
        || e.snapshot() != snapshot
        || !samePod(e.pod(), pod)) {
      return null;
    }
    return e.state().sharedCopy();
  }

  private static boolean samePod(Pod a, Pod b) {
    if (a == b) {
      return true;
    }
    String uidA = a.getMetadata().getUid();
    if (uidA == null || !uidA.equals(b.getMetadata().getUid())) {
      return false;
    }
    String rvA = a.getMetadata().getResourceVersion();
    String rvB = b.getMetadata().getResourceVersion();
    if (rvA != null && !rvA.isEmpty() && rvA.equals(rvB)) {
      return true;
    }
    return a.equals(b);
  }
}
