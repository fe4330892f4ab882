package io.schedext.extender;

import io.fabric8.kubernetes.api.model.Pod;
import io.schedext.cache.Snapshot;
import io.schedext.cache.VictimsInFlight;
import io.schedext.extender.wire.ExtenderPreemptionArgs;
import io.schedext.extender.wire.ExtenderPreemptionResult;
import io.schedext.extender.wire.MetaPod;
import io.schedext.extender.wire.MetaVictims;
import io.schedext.framework.NodeInfo;
import io.schedext.framework.PodInfo;
import io.schedext.framework.runtime.Framework;
import io.schedext.plugins.defaultpreemption.ProposalReview;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The preempt verb: checks kube-scheduler's proposed victims against this extender's own view of
 * the cluster (the call's snapshot) and answers, by UID, only the victims really needed, as
 * DefaultPreemption's {@link ProposalReview} decides. A node where the pod still does not fit, or
 * fits without evicting anything, is left out (kube-scheduler rejects a node without victims). Maps
 * the two wire forms of a proposal (full pods or UIDs) and the answer; counts and logs the
 * decision. Thread-safe.
 */
final class PreemptionService {

  private final IncomingPods pods;
  private final ExtenderMetrics metrics;
  private final VictimsInFlight victims;

  /** The verb, remembering in {@code victims} what it agreed to evict for each preemptor. */
  PreemptionService(IncomingPods pods, ExtenderMetrics metrics, VictimsInFlight victims) {
    this.pods = pods;
    this.metrics = metrics;
    this.victims = victims;
  }

  /** Answers a preempt call: the proposed nodes and victims this service agrees with, by UID. */
  ExtenderPreemptionResult preempt(Call call, ExtenderPreemptionArgs args) {
    Framework fw = call.framework();
    PodInfo pod = pods.read(args.pod());
    Map<String, Set<String>> proposals = proposals(args);
    boolean agreedBefore = !victims.nodes(pod.uid()).isEmpty();
    ExtenderPreemptionResult result = review(fw, call.snapshot(), pod, proposals);
    remember(pod, result);
    metrics.preemption(
        result.nodeNameToMetaVictims().values().stream().map(v -> v.pods().size()).toList());
    if (DecisionLog.LOG.isDebugEnabled()) {
      Snapshot snapshot = call.snapshot();
      Map<String, String> dropped = new LinkedHashMap<>();
      for (Map.Entry<String, Set<String>> e : proposals.entrySet()) {
        if (!result.nodeNameToMetaVictims().containsKey(e.getKey())) {
          dropped.put(e.getKey(), whyDropped(snapshot, e.getKey(), e.getValue(), agreedBefore));
        }
      }
      int victims =
          result.nodeNameToMetaVictims().values().stream().mapToInt(v -> v.pods().size()).sum();
      DecisionLog.LOG.debug(
          "preempt pod={} profile={} proposedNodes={} keptNodes={} victims={} dropped={} topReasons={}",
          pod.key(),
          fw.profileName(),
          proposals.size(),
          result.nodeNameToMetaVictims().size(),
          victims,
          dropped.size(),
          DecisionLog.topReasons(dropped));
    }
    return result;
  }

  /**
   * Remembers the answer's victims for the preemptor: kube-scheduler deletes those of the node it
   * picks and retries the pod there before the watch may have shown them gone (VictimsInFlight).
   */
  private void remember(PodInfo pod, ExtenderPreemptionResult result) {
    Map<String, List<String>> byNode = new LinkedHashMap<>();
    result
        .nodeNameToMetaVictims()
        .forEach((node, v) -> byNode.put(node, v.pods().stream().map(MetaPod::uid).toList()));
    victims.agreed(pod.uid(), byNode);
  }

  /** Why the review left {@code node} out, for the decision log. */
  private static String whyDropped(
      Snapshot snapshot, String node, Set<String> proposed, boolean agreedBefore) {
    NodeInfo info = snapshot.get(node);
    if (info == null) {
      return "node not in the extender's cache";
    }
    if (info.pods().stream().noneMatch(p -> proposed.contains(p.uid()))) {
      return "no proposed victim runs on the node";
    }
    return agreedBefore
        ? "another node is being emptied for the pod, or the pod does not need this one"
        : "the pod does not fit there after the evictions, or fits without them";
  }

  private static ExtenderPreemptionResult review(
      Framework fw, Snapshot snapshot, PodInfo preemptor, Map<String, Set<String>> proposals) {
    Map<String, MetaVictims> out = new LinkedHashMap<>();
    ProposalReview.review(fw, snapshot, preemptor, proposals)
        .forEach(
            (node, needed) -> {
              List<String> uids = needed.uids();
              List<MetaPod> pods = new ArrayList<>(uids.size());
              for (String uid : uids) {
                pods.add(new MetaPod(uid));
              }
              out.put(node, new MetaVictims(pods, needed.numPdbViolations()));
            });
    return new ExtenderPreemptionResult(out);
  }

  /** The proposed victim UIDs per node, from whichever of the two fields the request filled. */
  private static Map<String, Set<String>> proposals(ExtenderPreemptionArgs args) {
    Map<String, Set<String>> proposed = new LinkedHashMap<>();
    if (args.nodeNameToMetaVictims() != null) {
      args.nodeNameToMetaVictims()
          .forEach(
              (node, v) -> {
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
      args.nodeNameToVictims()
          .forEach(
              (node, v) -> {
                Set<String> uids = new LinkedHashSet<>();
                if (v != null && v.pods() != null) {
                  for (Pod p : v.pods()) {
                    if (p != null
                        && p.getMetadata() != null
                        && p.getMetadata().getUid() != null
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
