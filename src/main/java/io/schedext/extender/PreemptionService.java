package io.schedext.extender;

import io.fabric8.kubernetes.api.model.Pod;
import io.schedext.cache.Snapshot;
import io.schedext.extender.wire.ExtenderPreemptionArgs;
import io.schedext.extender.wire.ExtenderPreemptionResult;
import io.schedext.extender.wire.MetaPod;
import io.schedext.extender.wire.MetaVictims;
import io.schedext.framework.Code;
import io.schedext.framework.CycleState;
import io.schedext.framework.Framework;
import io.schedext.framework.NodeInfo;
import io.schedext.framework.PodInfo;
import io.schedext.framework.PreFilterResult;
import io.schedext.framework.Status;
import io.schedext.plugins.defaultpreemption.DisruptionBudgets;
import io.schedext.plugins.defaultpreemption.Evaluator;
import io.schedext.plugins.defaultpreemption.VictimSelection;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The preempt verb: checks kube-scheduler's proposed victims against this extender's own view of the cluster and
 * answers, by UID, only the victims really needed. For each proposed node the snapshot knows, the proposed victims
 * that run there are removed on copies of the node and cycle state; if the pod then passes the profile's filters
 * (with nominated pods), every victim that is not needed is reprieved exactly as DefaultPreemption does
 * (PDB-violating ones first, then by importance) and the PDB violations are recounted. A node where the pod still
 * does not fit, or fits without evicting anything, is left out (kube-scheduler rejects a node without victims).
 */
final class PreemptionService {

  private static final Logger log = LoggerFactory.getLogger(PreemptionService.class);

  private final IncomingPods pods;
  private final ExtenderMetrics metrics;

  PreemptionService(IncomingPods pods, ExtenderMetrics metrics) {
    this.pods = pods;
    this.metrics = metrics;
  }

  /** Answers a preempt call: the proposed nodes and victims this service agrees with, by UID. */
  ExtenderPreemptionResult preempt(Call call, ExtenderPreemptionArgs args) {
    Framework fw = call.framework();
    PodInfo pod = pods.read(args.pod());
    ExtenderPreemptionResult result = review(fw, call.snapshot(), pod, args);
    metrics.preemption(result.nodeNameToMetaVictims().values().stream().map(v -> v.pods().size()).toList());
    if (DecisionLog.LOG.isDebugEnabled()) {
      Map<String, ?> proposed = args.nodeNameToMetaVictims() != null ? args.nodeNameToMetaVictims()
          : args.nodeNameToVictims() != null ? args.nodeNameToVictims() : Map.of();
      Snapshot snapshot = call.snapshot();
      Map<String, String> dropped = new LinkedHashMap<>();
      for (String node : proposed.keySet()) {
        if (!result.nodeNameToMetaVictims().containsKey(node)) {
          dropped.put(node, snapshot.get(node) == null ? "node not in the extender's cache"
              : "no proposed victim runs on the node");
        }
      }
      int victims = result.nodeNameToMetaVictims().values().stream().mapToInt(v -> v.pods().size()).sum();
      DecisionLog.LOG.debug(
          "preempt pod={} profile={} proposedNodes={} keptNodes={} victims={} dropped={} topReasons={}", pod.key(), fw.profileName(), proposed.size(), result.nodeNameToMetaVictims().size(), victims,
          dropped.size(), DecisionLog.topReasons(dropped));
    }
    return result;
  }

  private ExtenderPreemptionResult review(Framework fw, Snapshot snapshot, PodInfo preemptor,
      ExtenderPreemptionArgs args) {
    Map<String, Set<String>> proposed = proposals(args);
    Map<String, MetaVictims> out = new LinkedHashMap<>();
    if (proposed.isEmpty()) {
      return new ExtenderPreemptionResult(out);
    }
    CycleState state = fw.newCycleState(snapshot);
    PreFilterResult pre = fw.runPreFilterPlugins(state, preemptor);
    Status preStatus = pre.status();
    if (preStatus.isError()) {
      throw new IllegalStateException(preStatus.message());
    }
    if (preStatus.code() == Code.UNSCHEDULABLE_AND_UNRESOLVABLE) {
      log.debug("preempt pod={}: no node can help: {}", preemptor.key(), preStatus.message());
      return new ExtenderPreemptionResult(out);
    }
    Evaluator evaluator = new Evaluator(fw.handle());
    DisruptionBudgets pdbs = evaluator.disruptionBudgets();
    List<String> names = new ArrayList<>(proposed.keySet());
    MetaVictims[] answers = new MetaVictims[names.size()];
    fw.handle().parallelizer().until(names.size(), i -> {
      String name = names.get(i);
      NodeInfo node = snapshot.get(name);
      if (node == null || (!pre.allNodes() && !pre.nodeNames().contains(name))) {
        return;
      }
      answers[i] = check(evaluator, state, preemptor, node, proposed.get(name), pdbs);
    });
    for (int i = 0; i < answers.length; i++) {
      if (answers[i] != null) {
        out.put(names.get(i), answers[i]);
      }
    }
    log.debug("preempt pod={} proposed={} kept={}", preemptor.key(), proposed.keySet(), out.keySet());
    return new ExtenderPreemptionResult(out);
  }

  /** The victims really needed on {@code node} among the proposed UIDs, or null when the node cannot help. */
  private static MetaVictims check(
      Evaluator evaluator, CycleState state, PodInfo preemptor, NodeInfo node, Set<String> uids,
      DisruptionBudgets pdbs) {
    Map<String, PodInfo> onNode = new HashMap<>(node.pods().size() * 2);
    for (PodInfo p : node.pods()) {
      onNode.put(p.uid(), p);
    }
    List<PodInfo> victims = new ArrayList<>(uids.size());
    for (String uid : uids) {
      PodInfo p = onNode.get(uid);
      if (p != null) {
        victims.add(p);
      }
    }
    if (victims.isEmpty()) {
      return null;
    }
    VictimSelection sel = evaluator.selectVictimsAmong(state.copy(), preemptor, node.snapshotCopy(), victims, pdbs);
    if (!sel.status().isSuccess() || sel.victims().isEmpty()) {
      log.debug("preempt pod={} node={}: dropped ({})", preemptor.key(), node.name(),
          sel.status().isSuccess() ? "fits without evicting anything" : sel.status().message());
      return null;
    }
    List<MetaPod> pods = new ArrayList<>(sel.victims().size());
    for (PodInfo p : sel.victims()) {
      pods.add(new MetaPod(p.uid()));
    }
    return new MetaVictims(pods, sel.numPdbViolations());
  }

  /** The proposed victim UIDs per node, from whichever of the two fields the request filled. */
  private static Map<String, Set<String>> proposals(ExtenderPreemptionArgs args) {
    Map<String, Set<String>> proposed = new LinkedHashMap<>();
    if (args.nodeNameToMetaVictims() != null) {
      args.nodeNameToMetaVictims().forEach((node, v) -> {
        Set<String> uids = new LinkedHashSet<>();
        if (v != null && v.pods() != null) {
          for (MetaPod p : v.pods()) {
            if (p != null && p.uid() != null && !p.uid().isEmpty()) {
              uids.add(p.uid());
            }
          }
        }
        proposed.put(node, uids);
      });
    } else if (args.nodeNameToVictims() != null) {
      args.nodeNameToVictims().forEach((node, v) -> {
        Set<String> uids = new LinkedHashSet<>();
        if (v != null && v.pods() != null) {
          for (Pod p : v.pods()) {
            if (p != null && p.getMetadata() != null && p.getMetadata().getUid() != null
                && !p.getMetadata().getUid().isEmpty()) {
              uids.add(p.getMetadata().getUid());
            }
          }
        }
        proposed.put(node, uids);
      });
    }
    return proposed;
  }
}
