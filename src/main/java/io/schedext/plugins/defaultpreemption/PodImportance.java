package io.schedext.plugins.defaultpreemption;

import io.schedext.framework.PodInfo;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * How important a running pod is to keep, as upstream's {@code util.MoreImportantPod}: a higher
 * priority is more important; at equal priority the pod that started earlier is. A pod without
 * {@code status.startTime} counts as started {@code now} (upstream reads the wall clock at each
 * comparison; one instant per evaluation keeps the order stable).
 */
final class PodImportance {

  private PodImportance() {}

  /** The pod's {@code status.startTime}, or {@code now} when it has none (or it cannot be read). */
  static Instant startTime(PodInfo pod, Instant now) {
    var status = pod.pod().getStatus();
    String s = status == null ? null : status.getStartTime();
    if (s == null || s.isEmpty()) {
      return now;
    }
    try {
      return OffsetDateTime.parse(s).toInstant();
    } catch (DateTimeParseException e) {
      return now;
    }
  }

  /**
   * A copy of {@code pods} sorted most important first; pods that compare equal keep their order.
   */
  static List<PodInfo> mostImportantFirst(List<PodInfo> pods, Instant now) {
    record Keyed(PodInfo pod, int priority, Instant start) {}
    List<Keyed> keyed = new ArrayList<>(pods.size());
    for (PodInfo p : pods) {
      keyed.add(new Keyed(p, p.priority(), startTime(p, now)));
    }
    keyed.sort(Comparator.comparingInt(Keyed::priority).reversed().thenComparing(Keyed::start));
    List<PodInfo> out = new ArrayList<>(keyed.size());
    for (Keyed k : keyed) {
      out.add(k.pod());
    }
    return out;
  }

  /**
   * The earliest start time among the pods of the highest priority in {@code victims}, as
   * upstream's {@code GetEarliestPodStartTime}; null for no victims.
   */
  static Instant earliestStartOfHighestPriority(List<PodInfo> victims, Instant now) {
    if (victims.isEmpty()) {
      return null;
    }
    int maxPriority = victims.get(0).priority();
    Instant earliest = startTime(victims.get(0), now);
    for (PodInfo p : victims) {
      if (p.priority() == maxPriority) {
        Instant t = startTime(p, now);
        if (t.isBefore(earliest)) {
          earliest = t;
        }
      } else if (p.priority() > maxPriority) {
        maxPriority = p.priority();
        earliest = startTime(p, now);
      }
    }
    return earliest;
  }
}
