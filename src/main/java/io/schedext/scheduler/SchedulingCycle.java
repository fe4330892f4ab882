package io.schedext.scheduler;

import io.schedext.cache.Snapshot;
import io.schedext.framework.Code;
import io.schedext.framework.CycleState;
import io.schedext.framework.NodeInfo;
import io.schedext.framework.PodInfo;
import io.schedext.framework.PreFilterResult;
import io.schedext.framework.ScoreResult;
import io.schedext.framework.Status;
import io.schedext.framework.runtime.Framework;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BiConsumer;

/**
 * One pod's scheduling cycle over the nodes kube-scheduler hands the extender, as upstream's {@code
 * schedule_one.go}: {@link #findNodesThatFit} (PreFilter, then Filter with nominated pods on every
 * node the PreFilter result leaves) and {@link #prioritizeNodes} (PreScore, Score, NormalizeScore
 * and weights on the nodes that fit). kube-scheduler asks for the two phases in two calls; the
 * PreFilter state of the first is handed to the second of the same cycle ({@link
 * PreFilterHandoff}), so PreFilter runs once per cycle as upstream. Knows nothing of HTTP or of the
 * wire format. Thread-safe.
 */
public final class SchedulingCycle {

  /** The reason given for a node name the cache does not know (a format of the name). */
  public static final String UNKNOWN_NODE = "node \"%s\" is not in the extender's cache";

  private final PreFilterHandoff handoff = new PreFilterHandoff();
  private final PodsInDoubt inDoubt;

  /** Scheduling cycles of calls that never bind: no pod is ever in doubt. */
  public SchedulingCycle() {
    this(PodsInDoubt.none());
  }

  /**
   * Scheduling cycles that offer a pod whose Binding is in doubt ({@code inDoubt}, which the
   * binding cycle records) only the node it stays assumed on, without its own assumed copy there.
   */
  public SchedulingCycle(PodsInDoubt inDoubt) {
    this.inDoubt = inDoubt;
  }

  /**
   * What the Filter phase decided for the candidate nodes.
   *
   * @param nodes the nodes that fit, in candidate order
   * @param at each fitting node's index among the candidates
   * @param failed nodes rejected as Unschedulable → reason (preemption may help)
   * @param unresolvable nodes rejected as UnschedulableAndUnresolvable → reason, with those the
   *     caller rejected beforehand; a node is never in both maps
   * @param error the message of an Error status (no node fits then), or ""
   */
  public record Feasibility(
      List<NodeInfo> nodes,
      int[] at,
      Map<String, String> failed,
      Map<String, String> unresolvable,
      String error) {}

  /**
   * The Filter phase of {@code pod} over {@code candidates} on {@code snapshot}: PreFilter (a
   * rejection rejects every candidate with its code; a narrowing leaves the other nodes
   * UnschedulableAndUnresolvable, naming the narrowing plugins), then Filter with nominated pods on
   * the rest in parallel. {@code rejected} holds the caller's own UnschedulableAndUnresolvable
   * nodes (names it does not know) and becomes the result's map. The PreFilter state is kept for
   * the prioritize call of the same cycle.
   *
   * <p>A pod whose last Binding has an unknown outcome stays assumed on its node ({@link
   * PodsInDoubt}): it may be there already, and a bind elsewhere is refused until that is settled.
   * Its cycle offers it that node alone (the others are UnschedulableAndUnresolvable for that
   * reason), filtered without the pod's own assumed copy, as the node would be were the pod not
   * there: bound there again, the pod settles its doubt at once (the API server answers 409 if the
   * first Binding landed). When that node is not among the candidates or does not fit, the cycle is
   * the usual one. Upstream never meets this state: its cache forgets a pod whose bind failed.
   */
  public Feasibility findNodesThatFit(
      Framework fw,
      Snapshot snapshot,
      PodInfo pod,
      List<NodeInfo> candidates,
      LinkedHashMap<String, String> rejected) {
    String doubtful = inDoubt.nodeOf(pod.uid());
    return doubtful == null
        ? fit(fw, snapshot, pod, candidates, rejected)
        : fitInDoubt(fw, snapshot, pod, candidates, rejected, doubtful);
  }

  private Feasibility fitInDoubt(
      Framework fw,
      Snapshot snapshot,
      PodInfo pod,
      List<NodeInfo> candidates,
      LinkedHashMap<String, String> rejected,
      String doubtful) {
    int at = -1;
    for (int i = 0; i < candidates.size() && at < 0; i++) {
      if (candidates.get(i).name().equals(doubtful)) {
        at = i;
      }
    }
    if (at >= 0) {
      NodeInfo without = candidates.get(at).snapshotCopy();
      without.removePod(pod.uid());
      LinkedHashMap<String, String> others = new LinkedHashMap<>(rejected);
      String elsewhere = PodsInDoubt.elsewhere(pod.key(), doubtful);
      for (NodeInfo n : candidates) {
        if (n != candidates.get(at)) {
          others.put(n.name(), elsewhere);
        }
      }
      Feasibility f =
          fit(fw, snapshot.withOverrides(List.of(without)), pod, List.of(without), others);
      if (!f.nodes().isEmpty()) {
        return new Feasibility(f.nodes(), new int[] {at}, f.failed(), f.unresolvable(), f.error());
      }
    }
    // Its node is not a candidate (kube-scheduler sends a sample of the nodes in a large cluster)
    // or no longer fits it: the usual cycle. A bind elsewhere is refused as an error, which
    // kube-scheduler retries after a back-off, until the doubt is settled; rejecting every node
    // instead would leave the pod waiting for a cluster event that the assumed pod's expiry is not.
    return fit(fw, snapshot, pod, candidates, rejected);
  }

  private Feasibility fit(
      Framework fw,
      Snapshot snapshot,
      PodInfo pod,
      List<NodeInfo> candidates,
      LinkedHashMap<String, String> rejected) {
    Map<String, String> failed = new LinkedHashMap<>();
    Map<String, String> unresolvable = rejected;
    List<NodeInfo> feasible = new ArrayList<>(candidates.size());
    int[] feasibleAt = new int[candidates.size()];
    String error = "";
    CycleState state = fw.newCycleState(snapshot);
    PreFilterResult pre = fw.runPreFilterPlugins(state, pod);
    Status preStatus = pre.status();
    if (preStatus.isError()) {
      error = preStatus.message();
    } else if (!preStatus.isSuccess()) {
      Map<String, String> into = preStatus.code() == Code.UNSCHEDULABLE ? failed : unresolvable;
      for (NodeInfo n : candidates) {
        into.put(n.name(), preStatus.message());
      }
    } else {
      List<NodeInfo> toFilter = candidates;
      // The candidate index of each node filtered; null while they are the candidates themselves.
      int[] candidateAt = null;
      if (!pre.allNodes()) {
        toFilter = new ArrayList<>(candidates.size());
        candidateAt = new int[candidates.size()];
        String excluded = pre.excludedReason();
        for (int i = 0; i < candidates.size(); i++) {
          NodeInfo n = candidates.get(i);
          if (pre.nodeNames().contains(n.name())) {
            candidateAt[toFilter.size()] = i;
            toFilter.add(n);
          } else {
            unresolvable.put(n.name(), excluded);
          }
        }
      }
      Status[] statuses = fw.runFilterPluginsOnNodes(state, pod, toFilter);
      int rejections = 0;
      for (Status st : statuses) {
        if (!st.isSuccess()) {
          rejections++;
        }
      }
      if (rejections > 12) {
        // Most nodes often fail for one reason (affinity, taints): size the map once instead of
        // growing it.
        failed = new LinkedHashMap<>(rejections * 4 / 3 + 1);
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
    handoff.offer(fw, snapshot, pod.pod(), state);
    return new Feasibility(feasible, feasibleAt, failed, unresolvable, error);
  }

  /**
   * The Score phase of {@code pod} over {@code nodes} on {@code snapshot}, on the PreFilter state
   * of the filter call of the same cycle when there was one (same pod, profile and snapshot), else
   * on PreFilter run again. When that PreFilter rejects the pod, no node can take it and none is
   * worth more than another: the result has no scores ({@link ScoreResult#failed}) with that
   * rejection; an Error likewise.
   */
  public ScoreResult prioritizeNodes(
      Framework fw, Snapshot snapshot, PodInfo pod, List<NodeInfo> nodes) {
    CycleState state = handoff.take(fw, snapshot, pod.pod());
    if (state == null) {
      state = fw.newCycleState(snapshot);
      Status pre = fw.runPreFilterPlugins(state, pod).status();
      if (!pre.isSuccess()) {
        return ScoreResult.failed(pre);
      }
    }
    return score(fw, state, pod, nodes, null);
  }

  /**
   * PreScore then Score (with NormalizeScore and weights) of {@code pod} on {@code nodes}, on a
   * state PreFilter ran on. {@code preScores}, when not null, hears each PreScore plugin's status;
   * raw scores are kept when it is given.
   */
  public static ScoreResult score(
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
}
