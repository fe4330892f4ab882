package io.schedext.extender;

import io.fabric8.kubernetes.api.model.Node;
import io.schedext.extender.wire.ExtenderArgs;
import io.schedext.extender.wire.ExtenderFilterResult;
import io.schedext.extender.wire.NameArray;
import io.schedext.extender.wire.NodeItems;
import io.schedext.framework.Code;
import io.schedext.framework.CycleState;
import io.schedext.framework.runtime.Framework;
import io.schedext.framework.NodeInfo;
import io.schedext.framework.PodInfo;
import io.schedext.framework.PreFilterResult;
import io.schedext.framework.Status;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The filter verb: PreFilter, then Filter on every candidate node (with nominated pods, as upstream), answered in
 * the field the request used. Unschedulable → {@code FailedNodes}, UnschedulableAndUnresolvable (and names the cache
 * does not know) → {@code FailedAndUnresolvableNodes}, Error → {@code Error}. Thread-safe.
 */
final class FilterService {

  /** The reason given to nodes a PreFilter result left out (upstream's text). */
  static final String FILTERED_BY_PREFILTER = "node is filtered out by the prefilter result";

  private final IncomingPods pods;
  private final PreFilterHandoff handoff;
  private final ExtenderMetrics metrics;

  FilterService(IncomingPods pods, PreFilterHandoff handoff, ExtenderMetrics metrics) {
    this.pods = pods;
    this.handoff = handoff;
    this.metrics = metrics;
  }

  /** Answers a filter call: the fitting nodes in the request's own field, and the reasons for the others. */
  ExtenderFilterResult filter(Call call, ExtenderArgs args) {
    Framework fw = call.framework();
    PodInfo pod = pods.read(args.pod());
    Candidates c = Candidates.of(call, args, false);
    metrics.nodes("filter", c.nodes().size() + c.unknown().size());
    Map<String, String> failed = new LinkedHashMap<>();
    Map<String, String> unresolvable = new LinkedHashMap<>(c.unknown());
    List<NodeInfo> feasible = new ArrayList<>(c.nodes().size());
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
      if (!pre.allNodes()) {
        toFilter = new ArrayList<>(c.nodes().size());
        for (NodeInfo n : c.nodes()) {
          if (pre.nodeNames().contains(n.name())) {
            toFilter.add(n);
          } else {
            unresolvable.put(n.name(), FILTERED_BY_PREFILTER);
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
        // Most nodes often fail for one reason (affinity, taints): size the map once instead of growing it.
        failed = new LinkedHashMap<>(rejected * 4 / 3 + 1);
      }
      for (int i = 0; i < statuses.length; i++) {
        Status s = statuses[i];
        NodeInfo n = toFilter.get(i);
        if (s.isSuccess()) {
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
    if (DecisionLog.LOG.isDebugEnabled()) {
      Map<String, String> rejected = new LinkedHashMap<>(failed);
      rejected.putAll(unresolvable);
      DecisionLog.LOG.debug(
          "filter pod={} profile={} nodes={} feasible={} failed={} unresolvable={} error={} topReasons={}",
          pod.key(), fw.profileName(), c.nodes().size() + c.unknown().size(), feasible.size(), failed.size(),
          unresolvable.size(), error.isEmpty() ? "-" : error, DecisionLog.topReasons(rejected));
    }
    handoff.offer(fw, c.snapshot(), pod.pod(), state);
    return new ExtenderFilterResult(
        c.namesMode() ? null : nodeList(feasible, c.given()),
        c.namesMode() ? names(feasible) : null,
        failed, unresolvable, error);
  }

  /**
   * The filter reply while the cluster state is not ready: {@code error}, and an empty list in the field the request
   * used.
   */
  static ExtenderFilterResult notReady(ExtenderArgs args, String error) {
    Candidates.checkNodeFields(args);
    boolean names = args.nodes() == null;
    return new ExtenderFilterResult(names ? null : NodeItems.of(List.of()), names ? List.of() : null, Map.of(),
        Map.of(), error);
  }

  private static List<String> names(List<NodeInfo> nodes) {
    String[] out = new String[nodes.size()];
    for (int i = 0; i < out.length; i++) {
      out[i] = nodes.get(i).name();
    }
    return new NameArray(out);
  }

  private static NodeItems nodeList(List<NodeInfo> feasible, Map<String, Node> given) {
    List<Node> items = new ArrayList<>(feasible.size());
    for (NodeInfo n : feasible) {
      items.add(given.getOrDefault(n.name(), n.node()));
    }
    return NodeItems.of(items);
  }
}
