package io.schedext.plugins.defaultpreemption;

import io.schedext.framework.Code;
import io.schedext.framework.CycleState;
import io.schedext.framework.NodeInfo;
import io.schedext.framework.NodeInfoLister;
import io.schedext.framework.PluginsRunner;
import io.schedext.framework.PodInfo;
import io.schedext.framework.PodNominator;
import io.schedext.framework.PreFilterResult;
import io.schedext.framework.Status;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reviews victims proposed by someone else — kube-scheduler's own preemption, handed to an
 * extender's preempt verb — with this package's victim selection: on each proposed node the
 * snapshot knows, the proposed victims running there are removed on copies of the node and cycle
 * state; if the pod then passes the framework's filters (with nominated pods), every victim not
 * needed is reprieved exactly as DefaultPreemption reprieves (PDB-violating ones first, then by
 * importance) and the PDB violations are recounted. A node where the pod still does not fit, or
 * fits without evicting anything, is left out. Victims agreed for the same pod on the same node in
 * an earlier review that the proposal no longer names are gone ({@link
 * PodNominator#victimsAgreed}); and when kube-scheduler is known to be evicting those of one node
 * already, that node alone is answered. Simulates only; never evicts. Stateless.
 */
public final class ProposalReview {

  private static final Logger log = LoggerFactory.getLogger(ProposalReview.class);

  private ProposalReview() {}

  /**
   * The victims really needed on one node.
   *
   * @param victims the pods to evict, a subset of the proposal, in the order DefaultPreemption
   *     names them
   * @param numPdbViolations how many of them violate a PodDisruptionBudget
   * @param leaving UIDs of proposed victims this cache no longer holds that were agreed for the
   *     same pod on the same node earlier: kube-scheduler, whose cache still does, is evicting them
   *     already, and names them again at no cost
   */
  public record Needed(List<PodInfo> victims, int numPdbViolations, List<String> leaving) {

    /** The victims' UIDs, then those of the leaving pods, as the answer names them. */
    public List<String> uids() {
      List<String> out = new ArrayList<>(victims.size() + leaving.size());
      for (PodInfo p : victims) {
        out.add(p.uid());
      }
      out.addAll(leaving);
      return out;
    }
  }

  /**
   * The nodes of {@code proposedUids} (node name → proposed victims by UID) where {@code preemptor}
   * can be placed by evicting some of the proposed victims, with those victims, in proposal order.
   * An Error of PreFilter is thrown as an {@link IllegalStateException}; an
   * UnschedulableAndUnresolvable PreFilter answers no node.
   */
  public static Map<String, Needed> review(
      PluginsRunner fw,
      NodeInfoLister snapshot,
      PodInfo preemptor,
      Map<String, Set<String>> proposedUids) {
    Map<String, Needed> out = new LinkedHashMap<>();
    if (proposedUids.isEmpty()) {
      return out;
    }
    CycleState state = fw.newCycleState(snapshot);
    PreFilterResult pre = fw.runPreFilterPlugins(state, preemptor);
    Status preStatus = pre.status();
    if (preStatus.isError()) {
      throw new IllegalStateException(preStatus.message());
    }
    if (preStatus.code() == Code.UNSCHEDULABLE_AND_UNRESOLVABLE) {
      log.debug("preempt pod={}: no node can help: {}", preemptor.key(), preStatus.message());
      return out;
    }
    Evaluator evaluator = new Evaluator(fw.handle());
    DisruptionBudgets pdbs = evaluator.disruptionBudgets();
    List<String> names = new ArrayList<>(proposedUids.keySet());
    Needed[] answers = new Needed[names.size()];
    fw.handle()
        .parallelizer()
        .until(
            names.size(),
            i -> {
              String name = names.get(i);
              NodeInfo node = snapshot.get(name);
              if (node == null || (!pre.allNodes() && !pre.nodeNames().contains(name))) {
                return;
              }
              answers[i] =
                  check(fw, evaluator, state, preemptor, node, proposedUids.get(name), pdbs);
            });
    for (int i = 0; i < answers.length; i++) {
      if (answers[i] != null) {
        out.put(names.get(i), answers[i]);
      }
    }
    String inFlight = nodeBeingEmptied(fw.handle().nominator(), snapshot, preemptor, out.keySet());
    if (inFlight != null) {
      Needed there = out.get(inFlight);
      out.clear();
      out.put(inFlight, there);
    }
    log.debug(
        "preempt pod={} proposed={} kept={} (nominated to {}, a node being emptied: {})",
        preemptor.key(),
        proposedUids,
        out.keySet(),
        preemptor.nominatedNodeName(),
        inFlight);
    return out;
  }

  /**
   * The node among {@code kept} where kube-scheduler is already evicting the victims agreed for
   * {@code preemptor} in an earlier review, or null when none is known to be: the node the pod is
   * nominated to, else the one agreed node where some agreed victim is gone from the snapshot or
   * terminating. kube-scheduler may preempt again for the same pod before its first deletions have
   * reached its own cache (any cluster event requeues a pod an extender rejected), and then pick
   * among equal candidates at random; answering that node alone has it finish the eviction it
   * started instead of starting another elsewhere.
   */
  private static String nodeBeingEmptied(
      PodNominator nominator, NodeInfoLister snapshot, PodInfo preemptor, Set<String> kept) {
    String nominated = preemptor.nominatedNodeName();
    if (!nominated.isEmpty()) {
      return kept.contains(nominated)
              && !nominator.victimsAgreed(preemptor.uid(), nominated).isEmpty()
          ? nominated
          : null;
    }
    String found = null;
    for (String node : nominator.nodesWithVictimsAgreed(preemptor.uid())) {
      NodeInfo info = snapshot.get(node);
      if (!kept.contains(node) || info == null) {
        continue;
      }
      if (anyGoneOrTerminating(nominator.victimsAgreed(preemptor.uid(), node), info)) {
        if (found != null) {
          return null;
        }
        found = node;
      }
    }
    return found;
  }

  /** Whether one of {@code uids} is no longer on {@code node}, or is terminating there. */
  private static boolean anyGoneOrTerminating(Set<String> uids, NodeInfo node) {
    for (String uid : uids) {
      PodInfo p = null;
      for (PodInfo q : node.pods()) {
        if (q.uid().equals(uid)) {
          p = q;
          break;
        }
      }
      if (p == null || p.terminating()) {
        return true;
      }
    }
    return false;
  }

  /**
   * The victims really needed on {@code node} among the proposed UIDs, or null when the node cannot
   * help.
   */
  private static Needed check(
      PluginsRunner fw,
      Evaluator evaluator,
      CycleState state,
      PodInfo preemptor,
      NodeInfo node,
      Set<String> uids,
      DisruptionBudgets pdbs) {
    Map<String, PodInfo> onNode = new HashMap<>(node.pods().size() * 2);
    for (PodInfo p : node.pods()) {
      onNode.put(p.uid(), p);
    }
    Set<String> agreed = fw.handle().nominator().victimsAgreed(preemptor.uid(), node.name());
    List<PodInfo> victims = new ArrayList<>(uids.size());
    List<String> leaving = new ArrayList<>();
    for (String uid : uids) {
      PodInfo p = onNode.get(uid);
      if (p != null) {
        victims.add(p);
      } else if (agreed.contains(uid)) {
        leaving.add(uid);
      }
    }
    if (victims.isEmpty() && leaving.isEmpty()) {
      return null;
    }
    // kube-scheduler preempts again for the same pod when its first victims are gone from its
    // cache, before they may be from this one: victims agreed earlier that it no longer proposes
    // are gone.
    CycleState stateCopy = state.copy();
    NodeInfo nodeCopy = node.snapshotCopy();
    Set<String> gone = new HashSet<>(agreed);
    gone.removeAll(uids);
    if (!gone.isEmpty()) {
      Status s = fw.removeGonePods(stateCopy, preemptor, nodeCopy, gone);
      if (!s.isSuccess()) {
        return null;
      }
    }
    if (victims.isEmpty()) {
      // Every proposed victim is gone here already: the node helps if the pod fits it now.
      Status fits = fw.runFilterPluginsWithNominatedPods(stateCopy, preemptor, nodeCopy);
      return fits.isSuccess() ? new Needed(List.of(), 0, leaving) : null;
    }
    VictimSelection sel =
        evaluator.selectVictimsAmong(stateCopy, preemptor, nodeCopy, victims, pdbs);
    if (!sel.status().isSuccess() || (sel.victims().isEmpty() && leaving.isEmpty())) {
      log.debug(
          "preempt pod={} node={}: dropped ({})",
          preemptor.key(),
          node.name(),
          sel.status().isSuccess() ? "fits without evicting anything" : sel.status().message());
      return null;
    }
    return new Needed(sel.victims(), sel.numPdbViolations(), leaving);
  }
}
