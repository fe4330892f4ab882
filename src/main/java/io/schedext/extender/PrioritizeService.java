package io.schedext.extender;

import io.schedext.extender.wire.ExtenderArgs;
import io.schedext.extender.wire.HostPriority;
import io.schedext.extender.wire.HostPriorityList;
import io.schedext.framework.CycleState;
import io.schedext.framework.NodeInfo;
import io.schedext.framework.PodInfo;
import io.schedext.framework.ScoreResult;
import io.schedext.framework.Status;
import io.schedext.framework.runtime.Framework;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.function.BiConsumer;

/**
 * The prioritize verb: PreScore, Score, NormalizeScore and weights on the candidate nodes, each
 * node's weighted total scaled from 0–100 per plugin to the extender's 0–10. Scores on the
 * PreFilter state of the filter call of the same cycle when there is one ({@link
 * PreFilterHandoff}). Thread-safe.
 */
final class PrioritizeService {

  private final IncomingPods pods;
  private final PreFilterHandoff handoff;
  private final ExtenderMetrics metrics;
  private final boolean logsDecisions;

  /** The verb as the extender answers it, its decisions logged ({@link DecisionLog}). */
  PrioritizeService(IncomingPods pods, PreFilterHandoff handoff, ExtenderMetrics metrics) {
    this(pods, handoff, metrics, true);
  }

  /**
   * The verb, its decisions logged only when {@code logsDecisions}: the warm-up's calls are not
   * decisions anybody asked for.
   */
  PrioritizeService(
      IncomingPods pods, PreFilterHandoff handoff, ExtenderMetrics metrics, boolean logsDecisions) {
    this.pods = pods;
    this.handoff = handoff;
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
    CycleState state = handoff.take(fw, c.snapshot(), pod.pod());
    if (state == null) {
      state = fw.newCycleState(c.snapshot());
      fw.runPreFilterPlugins(state, pod);
    }
    ScoreResult r = score(fw, state, pod, c.nodes(), null);
    if (!r.status().isSuccess()) {
      throw new IllegalStateException(r.status().message());
    }
    long weightSum = weightSum(r);
    // Scored nodes are the known candidates, in order, then the unknown ones.
    int n = r.nodes().length + c.unknown().size();
    String[] hosts = new String[n];
    byte[][] encodedHosts = c.positions() == null ? null : new byte[n][];
    long[] scores = new long[n];
    int k = 0;
    for (; k < r.nodes().length; k++) {
      hosts[k] = r.nodes()[k].name();
      if (encodedHosts != null) {
        // Scored nodes are the candidates, in order: k is the candidate index.
        encodedHosts[k] = call.names().json(c.position(k));
      }
      scores[k] = toExtenderScore(r.totals()[k], weightSum);
    }
    for (String unknown : c.unknown().keySet()) {
      hosts[k] = unknown;
      scores[k++] = HostPriority.MIN_EXTENDER_PRIORITY;
    }
    List<HostPriority> out = new HostPriorityList(hosts, encodedHosts, scores, n);
    // The logger's level first: with it off, as it usually is, the warm-up's instance and the live
    // one take the same path, and neither throws the other's compiled code away.
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

  /**
   * PreScore then Score (with NormalizeScore and weights) of {@code pod} on {@code nodes}, on a
   * state PreFilter ran on. {@code preScores}, when not null, hears each PreScore plugin's status;
   * raw scores are kept when it is given.
   */
  static ScoreResult score(
      Framework fw,
      CycleState state,
      PodInfo pod,
      List<NodeInfo> nodes,
      BiConsumer<String, Status> preScores) {
    Status pre = fw.runPreScorePlugins(state, pod, nodes, preScores);
    if (!pre.isSuccess()) {
      return ScoreResult.failed(pre);
    }
    return fw.runScorePlugins(state, pod, nodes, preScores != null);
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
