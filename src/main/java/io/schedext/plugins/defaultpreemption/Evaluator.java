package io.schedext.plugins.defaultpreemption;

import io.schedext.framework.CycleState;
import io.schedext.framework.Handle;
import io.schedext.framework.NodeInfo;
import io.schedext.framework.PluginsRunner;
import io.schedext.framework.PodInfo;
import io.schedext.framework.Status;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReferenceArray;

/**
 * The reusable core of upstream's preemption ({@code framework/preemption.Evaluator} with
 * DefaultPreemption's {@code SelectVictimsOnNode}): which pods must go for a pod to fit on a node,
 * and the dry run over many nodes. It only simulates; it never evicts. Thread-safe: every call
 * works on the state and node copies it is given.
 */
final class Evaluator {

  /**
   * The status of a node without a single pod of lower priority than the preemptor (upstream's
   * text).
   */
  public static final String NO_VICTIMS = "No preemption victims found for incoming pod";

  private final Handle handle;

  /** An evaluator running the filters of {@code handle}'s framework. */
  public Evaluator(Handle handle) {
    this.handle = handle;
  }

  /** The PodDisruptionBudgets the cluster holds now, compiled for {@link #selectVictimsOnNode}. */
  public DisruptionBudgets disruptionBudgets() {
    return DisruptionBudgets.of(handle.clusterObjects().podDisruptionBudgets());
  }

  /**
   * Finds the fewest, least important pods on {@code nodeInfo} whose eviction lets {@code pod} pass
   * the filters (with nominated pods), as upstream's {@code SelectVictimsOnNode}: every pod of
   * lower priority is removed, and if the pod then fits they are reprieved one by one,
   * PDB-violating ones first, each group most important first. Both {@code state} and {@code
   * nodeInfo} must be copies: they are changed.
   */
  public VictimSelection selectVictimsOnNode(
      CycleState state, PodInfo pod, NodeInfo nodeInfo, DisruptionBudgets pdbs) {
    List<PodInfo> lower = new ArrayList<>();
    for (PodInfo p : nodeInfo.pods()) {
      if (p.priority() < pod.priority()) {
        lower.add(p);
      }
    }
    return selectVictimsAmong(state, pod, nodeInfo, lower, pdbs);
  }

  /**
   * As {@link #selectVictimsOnNode}, but only {@code potentialVictims} (pods on {@code nodeInfo})
   * are removed and reprieved; the preempt verb uses this to keep kube-scheduler's proposal to the
   * pods that are really needed.
   */
  public VictimSelection selectVictimsAmong(
      CycleState state,
      PodInfo pod,
      NodeInfo nodeInfo,
      List<PodInfo> potentialVictims,
      DisruptionBudgets pdbs) {
    PluginsRunner fw = handle.framework();
    for (PodInfo p : potentialVictims) {
      Status s = remove(fw, state, pod, p, nodeInfo);
      if (!s.isSuccess()) {
        return VictimSelection.failed(s);
      }
    }
    if (potentialVictims.isEmpty()) {
      return VictimSelection.failed(Status.unresolvable(NO_VICTIMS));
    }
    Status fits = fw.runFilterPluginsWithNominatedPods(state, pod, nodeInfo);
    if (!fits.isSuccess()) {
      return VictimSelection.failed(fits);
    }
    Instant now = handle.clock().instant();
    DisruptionBudgets.Split split =
        pdbs.split(PodImportance.mostImportantFirst(potentialVictims, now));
    List<PodInfo> victims = new ArrayList<>();
    int numViolating = 0;
    for (PodInfo p : split.violating()) {
      Reprieve r = reprieve(fw, state, pod, p, nodeInfo);
      if (r.error() != null) {
        return VictimSelection.failed(r.error());
      }
      if (!r.fits()) {
        victims.add(p);
        numViolating++;
      }
    }
    for (PodInfo p : split.nonViolating()) {
      Reprieve r = reprieve(fw, state, pod, p, nodeInfo);
      if (r.error() != null) {
        return VictimSelection.failed(r.error());
      }
      if (!r.fits()) {
        victims.add(p);
      }
    }
    if (!split.violating().isEmpty() && !split.nonViolating().isEmpty()) {
      victims = PodImportance.mostImportantFirst(victims, now);
    }
    return new VictimSelection(List.copyOf(victims), numViolating, Status.success());
  }

  private record Reprieve(boolean fits, Status error) {}

  /**
   * Puts {@code victim} back; if the pod no longer fits, takes it out again (it stays a victim).
   */
  private static Reprieve reprieve(
      PluginsRunner fw, CycleState state, PodInfo pod, PodInfo victim, NodeInfo nodeInfo) {
    nodeInfo.addPod(victim);
    Status added = fw.runPreFilterExtensionAddPod(state, pod, victim, nodeInfo);
    if (!added.isSuccess()) {
      return new Reprieve(false, added);
    }
    boolean fits = fw.runFilterPluginsWithNominatedPods(state, pod, nodeInfo).isSuccess();
    if (!fits) {
      Status removed = remove(fw, state, pod, victim, nodeInfo);
      if (!removed.isSuccess()) {
        return new Reprieve(false, removed);
      }
    }
    return new Reprieve(fits, null);
  }

  private static Status remove(
      PluginsRunner fw, CycleState state, PodInfo pod, PodInfo victim, NodeInfo nodeInfo) {
    if (nodeInfo.removePod(victim.uid()) == null) {
      return Status.error(
          "no corresponding pod " + victim.key() + " in pods of node " + nodeInfo.name());
    }
    return fw.runPreFilterExtensionRemovePod(state, pod, victim, nodeInfo);
  }

  // --------------------------------------------------------------------------------------------------- dry run

  /**
   * What a dry run found.
   *
   * @param candidates the candidates, those without PDB violations first, each group in the order
   *     found
   * @param nodeStatuses why each examined node that is not a candidate cannot help
   * @param errors the messages of the Error statuses among them
   */
  record DryRunResult(
      List<Candidate> candidates, Map<String, Status> nodeStatuses, List<String> errors) {}

  /**
   * Runs {@link #selectVictimsOnNode} on copies of the potential nodes in parallel, starting at
   * {@code offset} and wrapping around, as upstream's {@code DryRunPreemption}: it stops handing
   * out nodes once a candidate without PDB violations exists and at least {@code numCandidates}
   * candidates were found, and keeps at most {@code numCandidates} candidates of each kind.
   */
  DryRunResult dryRunPreemption(
      CycleState state,
      PodInfo pod,
      List<NodeInfo> potentialNodes,
      DisruptionBudgets pdbs,
      int offset,
      int numCandidates) {
    CandidateList nonViolating = new CandidateList(numCandidates);
    CandidateList violating = new CandidateList(numCandidates);
    Map<String, Status> statuses = new LinkedHashMap<>();
    List<String> errors = new ArrayList<>();
    AtomicBoolean done = new AtomicBoolean();
    int n = potentialNodes.size();
    handle
        .parallelizer()
        .until(
            n,
            i -> {
              if (done.get()) {
                return;
              }
              NodeInfo nodeCopy = potentialNodes.get((offset + i) % n).snapshotCopy();
              VictimSelection sel = selectVictimsOnNode(state.copy(), pod, nodeCopy, pdbs);
              Status status = sel.status();
              if (status.isSuccess() && !sel.victims().isEmpty()) {
                Candidate c = new Candidate(nodeCopy.name(), sel.victims(), sel.numPdbViolations());
                (sel.numPdbViolations() == 0 ? nonViolating : violating).add(c);
                int nv = nonViolating.size();
                if (nv > 0 && nv + violating.size() >= numCandidates) {
                  done.set(true);
                }
                return;
              }
              if (status.isSuccess()) {
                status =
                    Status.error(
                        "expected at least one victim pod on node \"" + nodeCopy.name() + "\"");
              }
              synchronized (statuses) {
                if (status.isError()) {
                  errors.add(status.message());
                }
                statuses.put(nodeCopy.name(), status);
              }
            });
    List<Candidate> all = new ArrayList<>(nonViolating.get());
    all.addAll(violating.get());
    return new DryRunResult(all, statuses, errors);
  }

  /**
   * A fixed-capacity list filled concurrently; additions beyond the capacity are dropped, as
   * upstream's.
   */
  private static final class CandidateList {
    private final AtomicInteger idx = new AtomicInteger(-1);
    private final AtomicReferenceArray<Candidate> items;

    CandidateList(int capacity) {
      this.items = new AtomicReferenceArray<>(Math.max(0, capacity));
    }

    void add(Candidate c) {
      int i = idx.incrementAndGet();
      if (i < items.length()) {
        items.set(i, c);
      }
    }

    int size() {
      return Math.min(idx.get() + 1, items.length());
    }

    List<Candidate> get() {
      int n = size();
      List<Candidate> out = new ArrayList<>(n);
      for (int i = 0; i < n; i++) {
        out.add(items.get(i));
      }
      return out;
    }
  }
}
