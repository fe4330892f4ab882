package io.schedext.plugins.defaultpreemption;

import io.schedext.framework.Code;
import io.schedext.framework.CycleState;
import io.schedext.framework.NodeInfo;
import io.schedext.framework.NodeInfoLister;
import io.schedext.framework.PluginsRunner;
import io.schedext.framework.PodInfo;
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
 * io.schedext.framework.PodNominator#victimsAgreed}). Simulates only; never evicts. Stateless.
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
   */
  public record Needed(List<PodInfo> victims, int numPdbViolations) {}

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
    log.debug(
        "preempt pod={} proposed={} kept={}", preemptor.key(), proposedUids.keySet(), out.keySet());
    return out;
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
    // kube-scheduler preempts again for the same pod when its first victims are gone from its
    // cache, before they may be from this one: victims agreed earlier that it no longer proposes
    // are gone.
    CycleState stateCopy = state.copy();
    NodeInfo nodeCopy = node.snapshotCopy();
    Set<String> gone =
        new HashSet<>(fw.handle().nominator().victimsAgreed(preemptor.uid(), node.name()));
    gone.removeAll(uids);
    if (!gone.isEmpty()) {
      Status s = fw.removeGonePods(stateCopy, preemptor, nodeCopy, gone);
      if (!s.isSuccess()) {
        return null;
      }
    }
    VictimSelection sel =
        evaluator.selectVictimsAmong(stateCopy, preemptor, nodeCopy, victims, pdbs);
    if (!sel.status().isSuccess() || sel.victims().isEmpty()) {
      log.debug(
          "preempt pod={} node={}: dropped ({})",
          preemptor.key(),
          node.name(),
          sel.status().isSuccess() ? "fits without evicting anything" : sel.status().message());
      return null;
    }
    return new Needed(sel.victims(), sel.numPdbViolations());
  }
}
