package io.schedext.extender;

import io.schedext.extender.wire.ExtenderArgs;
import io.schedext.extender.wire.HostPriority;
import io.schedext.extender.wire.HostPriorityList;
import io.schedext.framework.PodInfo;
import io.schedext.framework.ScoreResult;
import io.schedext.framework.runtime.Framework;
import io.schedext.scheduler.SchedulingCycle;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * The prioritize verb: the candidate nodes read from the request, the Score phase of the pod's
 * scheduling cycle on them ({@link SchedulingCycle#prioritizeNodes}), and each node's weighted
 * total scaled from 0–100 per plugin to the extender's 0–10. Thread-safe.
 */
final class PrioritizeService {

  private final IncomingPods pods;
  private final SchedulingCycle cycle;
  private final ExtenderMetrics metrics;
  private final boolean logsDecisions;

  /** The verb as the extender answers it, its decisions logged ({@link DecisionLog}). */
  PrioritizeService(IncomingPods pods, SchedulingCycle cycle, ExtenderMetrics metrics) {
    this(pods, cycle, metrics, true);
  }

  /**
   * The verb, its decisions logged only when {@code logsDecisions}: the calls of separate verbs
   * ({@link SeparateVerbs}) are not decisions anybody asked for.
   */
  PrioritizeService(
      IncomingPods pods, SchedulingCycle cycle, ExtenderMetrics metrics, boolean logsDecisions) {
    this.pods = pods;
    this.cycle = cycle;
    this.metrics = metrics;
    this.logsDecisions = logsDecisions;
  }

  /**
   * Answers a prioritize call: each known node's combined plugin score scaled to 0–10, unknown
   * names 0.
   */
  List<HostPriority> prioritize(Call call, ExtenderArgs args) {
    Framework fw = call.framework();
    PodInfo pod = pods.read(args.pod());
    Candidates c = Candidates.of(call, args, false);
    metrics.nodes("prioritize", c.nodes().size() + c.unknown().size());
    ScoreResult r = cycle.prioritizeNodes(fw, c.snapshot(), pod, c.nodes());
    if (r.status().isError()) {
      throw new IllegalStateException(r.status().message());
    }
    // A pod its PreFilter rejects fits no node, and no node is worth more than another: every one
    // scores the minimum, as unknown names do.
    boolean scored = r.status().isSuccess();
    long weightSum = weightSum(r);
    // The known candidates, in order (as scored), then the unknown ones.
    int n = c.nodes().size() + c.unknown().size();
    String[] hosts = new String[n];
    byte[][] encodedHosts = c.positions() == null ? null : new byte[n][];
    long[] scores = new long[n];
    int k = 0;
    for (; k < c.nodes().size(); k++) {
      hosts[k] = c.nodes().get(k).name();
      if (encodedHosts != null) {
        encodedHosts[k] = call.names().json(c.position(k));
      }
      scores[k] =
          scored ? toExtenderScore(r.totals()[k], weightSum) : HostPriority.MIN_EXTENDER_PRIORITY;
    }
    for (String unknown : c.unknown().keySet()) {
      hosts[k] = unknown;
      scores[k++] = HostPriority.MIN_EXTENDER_PRIORITY;
    }
    List<HostPriority> out = new HostPriorityList(hosts, encodedHosts, scores, n);
    // The logger's level first: with it off, as it usually is, a separate instance and the live one
    // take the same path, and neither throws the other's compiled code away.
    if (DecisionLog.LOG.isDebugEnabled() && logsDecisions) {
      List<HostPriority> best = new ArrayList<>(out);
      best.sort(Comparator.comparingLong(HostPriority::score).reversed());
      DecisionLog.LOG.debug(
          "prioritize pod={} profile={} nodes={} scored={} unknown={} top={}",
          pod.key(),
          fw.profileName(),
          out.size(),
          c.nodes().size(),
          c.unknown().size(),
          best.stream().limit(DecisionLog.TOP).map(h -> h.host() + "=" + h.score()).toList());
    }
    return out;
  }

  /** The sum of the score plugins' weights. */
  static long weightSum(ScoreResult r) {
    long sum = 0;
    for (int w : r.weights()) {
      sum += w;
    }
    return sum;
  }

  /**
   * Scales a weighted plugin total (Σ score×weight, each score 0–100) to the extender's 0–10,
   * rounding half up: {@code round(10 × total / (100 × Σweights))}. No score plugins: 0.
   */
  static long toExtenderScore(long total, long weightSum) {
    if (weightSum <= 0) {
      return HostPriority.MIN_EXTENDER_PRIORITY;
    }
    long denom = 100 * weightSum;
    long s = (total * HostPriority.MAX_EXTENDER_PRIORITY * 2 + denom) / (2 * denom);
    return Math.max(
        HostPriority.MIN_EXTENDER_PRIORITY, Math.min(HostPriority.MAX_EXTENDER_PRIORITY, s));
  }
}
