package io.schedext.extender;

import io.fabric8.kubernetes.api.model.Node;
import io.schedext.extender.wire.ExtenderArgs;
import io.schedext.extender.wire.ExtenderFilterResult;
import io.schedext.extender.wire.NameArray;
import io.schedext.extender.wire.NodeItems;
import io.schedext.extender.wire.RecentNames;
import io.schedext.framework.Code;
import io.schedext.framework.CycleState;
import io.schedext.framework.NodeInfo;
import io.schedext.framework.PodInfo;
import io.schedext.framework.PreFilterResult;
import io.schedext.framework.Status;
import io.schedext.framework.runtime.Framework;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The filter verb: PreFilter, then Filter on every candidate node (with nominated pods, as
 * upstream), answered in the field the request used. Unschedulable → {@code FailedNodes},
 * UnschedulableAndUnresolvable (and names the cache does not know) → {@code
 * FailedAndUnresolvableNodes}, Error → {@code Error}. Thread-safe.
 */
final class FilterService {

  private final IncomingPods pods;
  private final PreFilterHandoff handoff;
  private final RecentNames replied;
  private final ExtenderMetrics metrics;
  private final boolean logsDecisions;

  /**
   * The verb as the extender answers it, its decisions logged ({@link DecisionLog}); the names of
   * each reply in names mode are kept in {@code replied} (the codec's, see {@link
   * WireCodec#recentNames()}).
   */
  FilterService(
      IncomingPods pods, PreFilterHandoff handoff, RecentNames replied, ExtenderMetrics metrics) {
    this(pods, handoff, replied, metrics, true);
  }

  /**
   * The verb, its decisions logged only when {@code logsDecisions}: the warm-up's calls are not
   * decisions anybody asked for.
   */
  FilterService(
      IncomingPods pods,
      PreFilterHandoff handoff,
      RecentNames replied,
      ExtenderMetrics metrics,
      boolean logsDecisions) {
    this.pods = pods;
    this.handoff = handoff;
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
    Map<String, String> failed = new LinkedHashMap<>();
    Map<String, String> unresolvable = new LinkedHashMap<>(c.unknown());
    List<NodeInfo> feasible = new ArrayList<>(c.nodes().size());
    // Each feasible node's place among the candidates, for its name's encoding.
    int[] feasibleAt = new int[c.nodes().size()];
    String error = "";
    CycleState state = fw.newCycleState(c.snapshot());
    PreFilterResult pre = fw.runPreFilterPlugins(state, pod);
    Status preStatus = pre.status();
    if (preStatus.isError()) {
      error = preStatus.message();
    } else if (!preStatus.isSuccess()) {
      Map<String, String> into = preStatus.code() == Code.UNSCHEDULABLE ? failed : unresolvable;
      for (NodeInfo n : c.nodes()) {
        into.put(n.name(), preStatus.message());
      }
    } else {
      List<NodeInfo> toFilter = c.nodes();
      // The candidate index of each node filtered; null while they are the candidates themselves.
      int[] candidateAt = null;
      if (!pre.allNodes()) {
        toFilter = new ArrayList<>(c.nodes().size());
        candidateAt = new int[c.nodes().size()];
        String excluded = pre.excludedReason();
        for (int i = 0; i < c.nodes().size(); i++) {
          NodeInfo n = c.nodes().get(i);
          if (pre.nodeNames().contains(n.name())) {
            candidateAt[toFilter.size()] = i;
            toFilter.add(n);
          } else {
            unresolvable.put(n.name(), excluded);
          }
        }
      }
      Status[] statuses = fw.runFilterPluginsOnNodes(state, pod, toFilter);
      int rejected = 0;
      for (Status st : statuses) {
        if (!st.isSuccess()) {
          rejected++;
        }
      }
      if (failed.isEmpty() && rejected > 12) {
        // Most nodes often fail for one reason (affinity, taints): size the map once instead of
        // growing it.
        failed = new LinkedHashMap<>(rejected * 4 / 3 + 1);
      }
      for (int i = 0; i < statuses.length; i++) {
        Status s = statuses[i];
        NodeInfo n = toFilter.get(i);
        if (s.isSuccess()) {
          feasibleAt[feasible.size()] = candidateAt == null ? i : candidateAt[i];
          feasible.add(n);
        } else if (s.isError()) {
          error = s.message();
          break;
        } else if (s.code() == Code.UNSCHEDULABLE) {
          failed.put(n.name(), s.message());
        } else {
          unresolvable.put(n.name(), s.message());
        }
      }
    }
    if (!error.isEmpty()) {
      feasible.clear();
    }
    for (String name : unresolvable.keySet()) {
      failed.remove(name);
    }
    // The logger's level first: with it off, as it usually is, the warm-up's instance and the live
    // one take the same path, and neither throws the other's compiled code away.
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
    handoff.offer(fw, c.snapshot(), pod.pod(), state);
    return new ExtenderFilterResult(
        c.namesMode() ? null : nodeList(feasible, c.given()),
        c.namesMode() ? names(feasible, feasibleAt, c, call, replied) : null,
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
