package io.schedext.extender;

import io.fabric8.kubernetes.api.model.Node;
import io.schedext.extender.wire.ExtenderArgs;
import io.schedext.extender.wire.ExtenderFilterResult;
import io.schedext.extender.wire.NameArray;
import io.schedext.extender.wire.NodeItems;
import io.schedext.extender.wire.RecentNames;
import io.schedext.framework.NodeInfo;
import io.schedext.framework.PodInfo;
import io.schedext.framework.runtime.Framework;
import io.schedext.scheduler.SchedulingCycle;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The filter verb: the candidate nodes read from the request, the Filter phase of the pod's
 * scheduling cycle on them ({@link SchedulingCycle#findNodesThatFit}), and its outcome answered in
 * the field the request used. Unschedulable → {@code FailedNodes}, UnschedulableAndUnresolvable
 * (and names the cache does not know) → {@code FailedAndUnresolvableNodes}, Error → {@code Error}.
 * Thread-safe.
 */
final class FilterService {

  private final IncomingPods pods;
  private final SchedulingCycle cycle;
  private final RecentNames replied;
  private final ExtenderMetrics metrics;
  private final boolean logsDecisions;

  /**
   * The verb as the extender answers it, its decisions logged ({@link DecisionLog}); the names of
   * each reply in names mode are kept in {@code replied} (the codec's, see {@link
   * WireCodec#recentNames()}).
   */
  FilterService(
      IncomingPods pods, SchedulingCycle cycle, RecentNames replied, ExtenderMetrics metrics) {
    this(pods, cycle, replied, metrics, true);
  }

  /**
   * The verb, its decisions logged only when {@code logsDecisions}: the calls of separate verbs
   * ({@link SeparateVerbs}) are not decisions anybody asked for.
   */
  FilterService(
      IncomingPods pods,
      SchedulingCycle cycle,
      RecentNames replied,
      ExtenderMetrics metrics,
      boolean logsDecisions) {
    this.pods = pods;
    this.cycle = cycle;
    this.replied = replied;
    this.metrics = metrics;
    this.logsDecisions = logsDecisions;
  }

  /**
   * Answers a filter call: the fitting nodes in the request's own field, and the reasons for the
   * others.
   */
  ExtenderFilterResult filter(Call call, ExtenderArgs args) {
    Framework fw = call.framework();
    PodInfo pod = pods.read(args.pod());
    Candidates c = Candidates.of(call, args, false);
    metrics.nodes("filter", c.nodes().size() + c.unknown().size());
    SchedulingCycle.Feasibility fit =
        cycle.findNodesThatFit(fw, c.snapshot(), pod, c.nodes(), new LinkedHashMap<>(c.unknown()));
    List<NodeInfo> feasible = fit.nodes();
    Map<String, String> failed = fit.failed();
    Map<String, String> unresolvable = fit.unresolvable();
    String error = fit.error();
    // The logger's level first: with it off, as it usually is, a separate instance and the live one
    // take the same path, and neither throws the other's compiled code away.
    if (DecisionLog.LOG.isDebugEnabled() && logsDecisions) {
      Map<String, String> rejected = new LinkedHashMap<>(failed);
      rejected.putAll(unresolvable);
      DecisionLog.LOG.debug(
          "filter pod={} profile={} nodes={} feasible={} failed={} unresolvable={} error={} topReasons={}",
          pod.key(),
          fw.profileName(),
          c.nodes().size() + c.unknown().size(),
          feasible.size(),
          failed.size(),
          unresolvable.size(),
          error.isEmpty() ? "-" : error,
          DecisionLog.topReasons(rejected));
    }
    return new ExtenderFilterResult(
        c.namesMode() ? null : nodeList(feasible, c.given()),
        c.namesMode() ? names(feasible, fit.at(), c, call, replied) : null,
        failed,
        unresolvable,
        error);
  }

  /**
   * The filter reply while the cluster state is not ready: {@code error}, and an empty list in the
   * field the request used.
   */
  static ExtenderFilterResult notReady(ExtenderArgs args, String error) {
    Candidates.checkNodeFields(args);
    boolean names = args.nodes() == null;
    return new ExtenderFilterResult(
        names ? null : NodeItems.of(List.of()),
        names ? List.of() : null,
        Map.of(),
        Map.of(),
        error);
  }

  /**
   * The names of the feasible nodes, with their encodings from the call's name index where it has
   * them; kept in {@code replied} when the index has every one of them, for the prioritize call
   * that repeats them.
   */
  private static List<String> names(
      List<NodeInfo> feasible, int[] feasibleAt, Candidates c, Call call, RecentNames replied) {
    String[] out = new String[feasible.size()];
    byte[][] encoded = c.positions() == null ? null : new byte[out.length][];
    int[] positions = c.positions() == null ? null : new int[out.length];
    for (int i = 0; i < out.length; i++) {
      out[i] = feasible.get(i).name();
      if (encoded != null) {
        positions[i] = c.position(feasibleAt[i]);
        encoded[i] = call.names().json(positions[i]);
      }
    }
    if (positions != null) {
      replied.keep(call.names(), positions);
    }
    return new NameArray(out, encoded);
  }

  private static NodeItems nodeList(List<NodeInfo> feasible, Map<String, Node> given) {
    List<Node> items = new ArrayList<>(feasible.size());
    for (NodeInfo n : feasible) {
      items.add(given.getOrDefault(n.name(), n.node()));
    }
    return NodeItems.of(items);
  }

  /** Where this service reads its calls' pods. */
  IncomingPods pods() {
    return pods;
  }
}
