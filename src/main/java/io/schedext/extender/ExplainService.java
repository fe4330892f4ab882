package io.schedext.extender;

import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.schedext.cache.SchedulerCache;
import io.schedext.cache.Snapshot;
import io.schedext.cluster.ClusterSource;
import io.schedext.extender.wire.ExtenderArgs;
import io.schedext.framework.Code;
import io.schedext.framework.CycleState;
import io.schedext.framework.ExtensionPoint;
import io.schedext.framework.FilterDiagnoser;
import io.schedext.framework.FilterDiagnosis;
import io.schedext.framework.FitError;
import io.schedext.framework.NodeInfo;
import io.schedext.framework.Plugin;
import io.schedext.framework.PodInfo;
import io.schedext.framework.PreFilterResult;
import io.schedext.framework.ScoreResult;
import io.schedext.framework.Status;
import io.schedext.framework.parallelize.Parallelizer;
import io.schedext.framework.runtime.Framework;
import io.schedext.scheduler.SchedulingCycle;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

/**
 * The explain verb: why a pod would or would not land on each node. Like filter, but runs every
 * filter plugin on every node (not stopping at the first rejection) and scores the feasible ones;
 * when no node fits it runs the PostFilter (preemption) on a copy of the cycle state, evicting
 * nothing. The summary is upstream's FitError text. Read-only: touches neither the cache nor the
 * cluster. Thread-safe.
 */
final class ExplainService {

  private final SchedulerCache cache;
  private final ClusterSource source;
  private final IncomingPods pods;
  private final Parallelizer parallelizer;

  ExplainService(
      SchedulerCache cache, ClusterSource source, IncomingPods pods, Parallelizer parallelizer) {
    this.cache = cache;
    this.source = source;
    this.pods = pods;
    this.parallelizer = parallelizer;
  }

  /**
   * A decoded explain request.
   *
   * @param args the pod and the nodes to explain it on (every node when it names none)
   * @param text true when the caller asked for the text report
   */
  record Request(ExtenderArgs args, boolean text) {}

  /** The reply carrying {@code e}: the text report when {@code text}, else JSON. */
  static Reply reply(Explanation e, boolean text) {
    return text ? Reply.text(ExplanationReport.render(e)) : Reply.ok(e);
  }

  /**
   * Explains the decision for a pod over the given nodes, or every cached node when the request
   * names none.
   */
  Explanation explain(Call call, ExtenderArgs args) {
    PodInfo pod = pods.read(args.pod());
    return explain(call.framework(), pod, Candidates.of(call, args, true), null);
  }

  /**
   * Explains the pod {@code namespace/name} as the extender knows it, over every cached node: a
   * pending pod of the cluster source, or else a pod in the cache, explained as if it were not
   * bound (its own node counted without it), which answers "would it still fit where it is, and
   * where else?". 404 when neither knows it.
   */
  Explanation explain(Call call, String namespace, String name) {
    Framework fw = call.framework();
    for (Pod p : source.pendingPods()) {
      ObjectMeta m = p.getMetadata();
      if (m != null && namespace.equals(m.getNamespace()) && name.equals(m.getName())) {
        return explain(fw, IncomingPods.parse(p), Candidates.all(call.snapshot()), null);
      }
    }
    for (PodInfo bound : cache.pods()) {
      if (bound.namespace().equals(namespace) && bound.name().equals(name)) {
        return explainUnbound(fw, call.snapshot(), bound);
      }
    }
    throw new BadRequestException(
        404,
        "pod \""
            + namespace
            + "/"
            + name
            + "\" is not known to the extender: "
            + "neither pending in the cluster source nor in the cache");
  }

  private Explanation explainUnbound(Framework fw, Snapshot base, PodInfo bound) {
    Pod unbound = new PodBuilder(bound.pod()).editOrNewSpec().withNodeName(null).endSpec().build();
    NodeInfo own = base.get(bound.nodeName());
    Snapshot snapshot = base;
    if (own != null) {
      NodeInfo without = own.snapshotCopy();
      without.removePod(bound.uid());
      snapshot = base.withOverrides(List.of(without));
    }
    return explain(fw, IncomingPods.parse(unbound), Candidates.all(snapshot), bound.nodeName());
  }

  private Explanation explain(Framework fw, PodInfo pod, Candidates c, String boundNode) {
    Explainer ex = new Explainer();
    CycleState state = fw.newCycleState(c.snapshot());
    List<String> filterPlugins = fw.pluginNames(ExtensionPoint.FILTER);
    PreFilterResult pre = fw.runPreFilterPlugins(state, pod, ex::preFilter);
    List<Explanation.NodeVerdict> verdicts = new ArrayList<>();
    List<NodeInfo> feasible = new ArrayList<>();
    String error = null;
    Status preStatus = pre.status();
    if (preStatus.isError()) {
      error = preStatus.message();
    }
    List<Explanation.PluginStatus>[] perNode =
        perNodeFilters(fw, state, pod, c.nodes(), filterPlugins, preStatus, pre);
    if (error == null) {
      // A filter that fails (rather than rejects) aborts kube-scheduler's attempt with its error,
      // as a filter plugin's Error does upstream: the first one, in node order, is the answer.
      for (List<Explanation.PluginStatus> statuses : perNode) {
        for (Explanation.PluginStatus ps : statuses) {
          if (ps.code().equals(Code.ERROR.upstreamName()) && error == null) {
            error = String.join(", ", ps.reasons());
          }
        }
      }
    }
    boolean[] isFeasible = new boolean[c.nodes().size()];
    for (int i = 0; i < c.nodes().size(); i++) {
      isFeasible[i] = error == null && allSucceeded(perNode[i]);
      if (isFeasible[i]) {
        feasible.add(c.nodes().get(i));
      }
    }
    Map<String, Explanation.NodeVerdict> scored = new LinkedHashMap<>();
    List<String> best = new ArrayList<>();
    long bestScore = Long.MIN_VALUE;
    if (!feasible.isEmpty()) {
      // Scores on the PreFilter data the filters ran on (one cycle, PreFilter once, as prioritize
      // after filter), in a copy so PreScore's skips stay apart.
      CycleState scoring = state.sharedCopy();
      ScoreResult r = SchedulingCycle.score(fw, scoring, pod, feasible, ex::preScore);
      if (!r.status().isSuccess()) {
        error = r.status().message();
      } else {
        long weightSum = PrioritizeService.weightSum(r);
        for (int i = 0; i < r.nodes().length; i++) {
          List<Explanation.PluginScore> ps = new ArrayList<>();
          for (int p = 0; p < r.plugins().length; p++) {
            ps.add(
                new Explanation.PluginScore(
                    r.plugins()[p],
                    r.raw()[p][i],
                    r.normalized()[p][i],
                    r.weights()[p],
                    r.normalized()[p][i] * r.weights()[p]));
          }
          String name = r.nodes()[i].name();
          scored.put(
              name,
              new Explanation.NodeVerdict(
                  name,
                  true,
                  null,
                  ps,
                  r.totals()[i],
                  PrioritizeService.toExtenderScore(r.totals()[i], weightSum)));
          bestScore = Math.max(bestScore, r.totals()[i]);
        }
        for (int i = 0; i < r.nodes().length; i++) {
          if (r.totals()[i] == bestScore) {
            best.add(r.nodes()[i].name());
          }
        }
      }
    }
    for (int i = 0; i < c.nodes().size(); i++) {
      NodeInfo n = c.nodes().get(i);
      Explanation.NodeVerdict s = scored.get(n.name());
      verdicts.add(
          new Explanation.NodeVerdict(
              n.name(),
              isFeasible[i],
              perNode[i],
              s == null ? List.of() : s.scores(),
              s == null ? null : s.totalScore(),
              s == null ? null : s.extenderScore()));
    }
    for (Map.Entry<String, String> u : c.unknown().entrySet()) {
      verdicts.add(
          new Explanation.NodeVerdict(
              u.getKey(),
              false,
              List.of(
                  new Explanation.PluginStatus(
                      "",
                      Code.UNSCHEDULABLE_AND_UNRESOLVABLE.upstreamName(),
                      List.of(u.getValue()))),
              List.of(),
              null,
              null));
    }
    // What kube-scheduler would report, or hand to PostFilter, when no node fits.
    Map<String, Status> rejections =
        feasible.isEmpty() ? firstRejections(c.nodes(), perNode, preStatus) : Map.of();
    Explanation.Preemption preemption = null;
    if (error == null && feasible.isEmpty() && !c.nodes().isEmpty() && fw.hasPostFilterPlugins()) {
      preemption = simulatePreemption(fw, state, pod, rejections);
    }
    String summary;
    int numAllNodes = c.nodes().size() + c.unknown().size();
    if (error != null) {
      summary = "error: " + error;
    } else if (!feasible.isEmpty()) {
      summary =
          feasible.size()
              + "/"
              + numAllNodes
              + " nodes are available; the highest total score is "
              + bestScore
              + ", on "
              + String.join(", ", best)
              + ".";
    } else {
      c.unknown().forEach((node, reason) -> rejections.put(node, Status.unresolvable(reason)));
      // As upstream, only a rejecting PostFilter adds its message (a nomination leaves the event as
      // it is).
      Status post =
          preemption == null
              ? Status.success()
              : Status.of(Code.fromUpstreamName(preemption.code()), preemption.reasons());
      summary =
          FitError.message(
              numAllNodes,
              preStatus.isRejected() ? preStatus.message() : "",
              rejections.values(),
              List.of(),
              post.isRejected() ? post.message() : "");
    }
    Map<String, Integer> weights = fw.scoreWeights();
    return new Explanation(
        pod.key(),
        fw.profileName(),
        boundNode,
        summary,
        filterPlugins,
        weights.entrySet().stream()
            .map(e -> new Explanation.ScorePlugin(e.getKey(), e.getValue()))
            .toList(),
        ex.preFilter,
        ex.preScore,
        verdicts,
        feasible.stream().map(NodeInfo::name).toList(),
        best,
        preemption,
        error);
  }

  /**
   * Each rejected node's status as the real cycle would have it: its first rejecting filter, or the
   * PreFilter rejection. The filters stop at the first rejection there, so this is what
   * kube-scheduler counts and preempts on.
   */
  private static boolean allSucceeded(List<Explanation.PluginStatus> statuses) {
    String success = Code.SUCCESS.upstreamName();
    for (int i = 0; i < statuses.size(); i++) {
      if (!statuses.get(i).code().equals(success)) {
        return false;
      }
    }
    return true;
  }

  private static Map<String, Status> firstRejections(
      List<NodeInfo> nodes, List<Explanation.PluginStatus>[] perNode, Status preStatus) {
    Map<String, Status> statuses = new LinkedHashMap<>();
    for (int i = 0; i < nodes.size(); i++) {
      Status first = preStatus.isSuccess() ? null : preStatus;
      if (first == null) {
        for (Explanation.PluginStatus ps : perNode[i]) {
          if (!ps.code().equals(Code.SUCCESS.upstreamName())) {
            first =
                Status.of(Code.fromUpstreamName(ps.code()), ps.reasons()).withPlugin(ps.plugin());
            break;
          }
        }
      }
      if (first != null) {
        statuses.put(nodes.get(i).name(), first);
      }
    }
    return statuses;
  }

  /**
   * Runs the PostFilter plugins on the nodes' rejections and reports the node and victims
   * preemption would pick.
   */
  private static Explanation.Preemption simulatePreemption(
      Framework fw, CycleState state, PodInfo pod, Map<String, Status> rejections) {
    var r = fw.runPostFilterPlugins(state.copy(), pod, new LinkedHashMap<>(rejections));
    List<Explanation.Victim> victims =
        r.victims().stream()
            .map(v -> new Explanation.Victim(v.key(), v.uid(), v.priority()))
            .toList();
    return new Explanation.Preemption(
        r.status().code().upstreamName(),
        r.status().reasons(),
        r.nominatedNodeName() == null || r.nominatedNodeName().isEmpty()
            ? null
            : r.nominatedNodeName(),
        victims);
  }

  @SuppressWarnings("unchecked")
  private List<Explanation.PluginStatus>[] perNodeFilters(
      Framework fw,
      CycleState state,
      PodInfo pod,
      List<NodeInfo> nodes,
      List<String> filterPlugins,
      Status preStatus,
      PreFilterResult pre) {
    List<Explanation.PluginStatus>[] out = new List[nodes.size()];
    parallelizer.until(
        nodes.size(),
        i -> {
          NodeInfo n = nodes.get(i);
          List<Explanation.PluginStatus> list = new ArrayList<>();
          if (!preStatus.isSuccess()) {
            list.add(pluginStatus(preStatus.plugin(), preStatus));
          } else if (!pre.allNodes() && !pre.nodeNames().contains(n.name())) {
            list.add(
                new Explanation.PluginStatus(
                    "",
                    Code.UNSCHEDULABLE_AND_UNRESOLVABLE.upstreamName(),
                    List.of(pre.excludedReason())));
          } else {
            Status[] all = fw.runAllFilterPlugins(state, pod, n);
            for (int p = 0; p < all.length; p++) {
              if (all[p] != null) {
                list.add(
                    filterStatus(
                        fw.plugins().get(filterPlugins.get(p)),
                        state,
                        pod,
                        n,
                        filterPlugins.get(p),
                        all[p]));
              }
            }
          }
          out[i] = list;
        });
    return out;
  }

  /**
   * A filter plugin's status on one node, with what the plugin adds about it when it rejected or
   * failed there and can say more ({@link FilterDiagnoser}); a diagnosis that throws is left out.
   */
  private static Explanation.PluginStatus filterStatus(
      Plugin plugin, CycleState state, PodInfo pod, NodeInfo node, String name, Status s) {
    Explanation.Detail detail = null;
    if (!s.isSuccess() && plugin instanceof FilterDiagnoser d) {
      try {
        FilterDiagnosis diagnosis = d.diagnose(state, pod, node, s);
        if (diagnosis != null) {
          detail = new Explanation.Detail(diagnosis.lines(), diagnosis.data());
        }
      } catch (RuntimeException e) {
        detail = null;
      }
    }
    return new Explanation.PluginStatus(name, s.code().upstreamName(), s.reasons(), detail);
  }

  private static Explanation.PluginStatus pluginStatus(String plugin, Status s) {
    return new Explanation.PluginStatus(
        plugin == null ? "" : plugin, s.code().upstreamName(), s.reasons());
  }

  private static final class Explainer {
    final List<Explanation.PluginStatus> preFilter = new ArrayList<>();
    final List<Explanation.PluginStatus> preScore = new ArrayList<>();

    void preFilter(String plugin, PreFilterResult r) {
      List<String> reasons = new ArrayList<>(r.status().reasons());
      if (r.nodeNames() != null) {
        reasons.add("nodes narrowed to " + new TreeSet<>(r.nodeNames()));
      }
      preFilter.add(
          new Explanation.PluginStatus(plugin, r.status().code().upstreamName(), reasons));
    }

    void preScore(String plugin, Status s) {
      preScore.add(pluginStatus(plugin, s));
    }
  }
}
