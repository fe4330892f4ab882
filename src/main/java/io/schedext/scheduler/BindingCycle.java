package io.schedext.scheduler;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.schedext.cache.SchedulerCache;
import io.schedext.cache.Snapshot;
import io.schedext.cache.VictimsInFlight;
import io.schedext.framework.BindingOutcomeUnknownException;
import io.schedext.framework.CycleState;
import io.schedext.framework.FrameworkException;
import io.schedext.framework.NodeInfo;
import io.schedext.framework.PodInfo;
import io.schedext.framework.PreFilterResult;
import io.schedext.framework.Status;
import io.schedext.framework.runtime.Framework;
import java.util.List;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One pod's binding to the node kube-scheduler chose, as upstream's {@code schedule_one.go} assumes
 * a pod at the end of its scheduling cycle and runs its binding cycle: re-check that the pod fits
 * the node on the current snapshot, assume it in the cache, then Reserve, Permit (waiting if
 * asked), PreBind, Bind and PostBind. Every path ends in the cache: bound (FinishBinding), failed
 * (Unreserve and forget) or outcome unknown (the pod stays assumed, and a later bind of it to the
 * same node tries again). Unlike the scheduling cycle, the check does not run on the snapshot its
 * call started with: it takes the current one under the node's lock, so two binds onto one node
 * never both pass it. On the node a preemptor was nominated to, the victims kube-scheduler evicts
 * for it are gone, as in the Filter of its scheduling cycle. Knows nothing of HTTP or of the wire
 * format. Thread-safe: binds of the same pod are serialised, binds onto the same node serialise
 * their check and assume, others run in parallel.
 */
public final class BindingCycle {

  private static final Logger log = LoggerFactory.getLogger(BindingCycle.class);

  private final SchedulerCache cache;
  private final VictimsInFlight victims;

  /** Pods whose last Binding has an unknown outcome, with the node they stay assumed on. */
  private final PodsInDoubt inDoubt;

  /** Serialises the binds of the same pod (by UID); binds of other pods rarely share a stripe. */
  private final Object[] podStripes = newStripes(256);

  /**
   * Serialises the fit check and assume of binds onto the same node; binds onto other nodes go on
   * in parallel.
   */
  private final Object[] nodeStripes = newStripes(64);

  /** Binding cycles assuming pods in {@code cache}, aware of the {@code victims} in flight. */
  public BindingCycle(SchedulerCache cache, VictimsInFlight victims) {
    this(cache, victims, new PodsInDoubt(cache));
  }

  /**
   * The same, recording the pods whose Binding has an unknown outcome in {@code inDoubt} (which the
   * scheduling cycle reads: {@link SchedulingCycle#SchedulingCycle(PodsInDoubt)}).
   */
  public BindingCycle(SchedulerCache cache, VictimsInFlight victims, PodsInDoubt inDoubt) {
    this.cache = cache;
    this.victims = victims;
    this.inDoubt = inDoubt;
  }

  private static Object[] newStripes(int n) {
    Object[] out = new Object[n];
    for (int i = 0; i < n; i++) {
      out[i] = new Object();
    }
    return out;
  }

  /**
   * The pod kube-scheduler asks to bind, and the node.
   *
   * @param namespace the pod's namespace
   * @param name the pod's name
   * @param uid the pod's UID
   * @param node the node to bind it to
   */
  public record Target(String namespace, String name, String uid, String node) {
    /** {@code namespace/name}. */
    public String key() {
      return namespace + "/" + name;
    }
  }

  /**
   * How a bind ended: {@code bound}, {@code failed} (nothing was bound) or {@code unknown} (the
   * Binding may land or not; the pod stays assumed), with the reason ("" when bound).
   *
   * @param result bound, failed or unknown
   * @param error why it did not bind, or ""
   */
  public record Outcome(String result, String error) {
    static final Outcome BOUND = new Outcome("bound", "");

    static Outcome failed(String error) {
      return new Outcome("failed", error);
    }
  }

  /**
   * Binds {@code target}'s pod to its node and ends in the cache as described above. The pod is
   * looked up in the cache first, then with {@code lookup} (null when nothing knows it).
   * Idempotent: a pod already bound to that node is {@code bound}.
   */
  public Outcome bind(Framework fw, Target target, Supplier<Pod> lookup) {
    synchronized (podStripes[Math.floorMod(target.uid().hashCode(), podStripes.length)]) {
      return bindLocked(fw, target, lookup);
    }
  }

  private Outcome bindLocked(Framework fw, Target a, Supplier<Pod> lookup) {
    String key = a.key();
    PodInfo cached = cache.getPod(a.uid());
    PodInfo inDoubtOnNode = null;
    if (cached != null) {
      String doubtful = inDoubt.nodeOf(a.uid());
      if (doubtful != null) {
        if (!doubtful.equals(a.node())) {
          return Outcome.failed(PodsInDoubt.elsewhere(key, doubtful));
        }
        // Bind again: if the first Binding landed the API server answers 409 and the binder finds
        // the pod on this node (success); if not, this one binds it.
        inDoubtOnNode = cached;
      } else if (cached.nodeName().equals(a.node())) {
        return Outcome.BOUND;
      } else {
        return Outcome.failed("pod " + key + " is already bound to node " + cached.nodeName());
      }
    }
    Pod pod = lookup.get();
    if (pod == null) {
      return Outcome.failed(
          "pod "
              + key
              + " (UID "
              + a.uid()
              + ") is not known to the extender: neither the "
              + "cluster source nor a recent filter/prioritize call has it");
    }
    if (!a.uid().equals(pod.getMetadata().getUid())) {
      return Outcome.failed(
          "pod "
              + key
              + " has UID "
              + pod.getMetadata().getUid()
              + ", not "
              + a.uid()
              + " (deleted and re-created?); nothing was bound");
    }
    if (!a.namespace().equals(pod.getMetadata().getNamespace())
        || !a.name().equals(pod.getMetadata().getName())) {
      return Outcome.failed(
          "pod with UID "
              + a.uid()
              + " is "
              + pod.getMetadata().getNamespace()
              + "/"
              + pod.getMetadata().getName()
              + ", not "
              + key);
    }
    PodInfo info;
    try {
      info = PodInfo.of(pod);
    } catch (IllegalArgumentException e) {
      return Outcome.failed("pod " + key + " cannot be read: " + e.getMessage());
    }
    if (!info.nodeName().isEmpty() && !info.nodeName().equals(a.node())) {
      return Outcome.failed("pod " + key + " is already bound to node " + info.nodeName());
    }
    Assumption assumption;
    synchronized (nodeStripes[Math.floorMod(a.node().hashCode(), nodeStripes.length)]) {
      if (inDoubtOnNode != null) {
        inDoubt.forget(a.uid());
        forget(inDoubtOnNode, key);
      }
      assumption = checkFitAndAssume(fw, info, key, a.node());
    }
    if (assumption.error() != null) {
      return Outcome.failed(assumption.error());
    }
    return bindAssumed(fw, assumption.state(), assumption.pod(), key, a.node());
  }

  /**
   * Runs Reserve .. PostBind for an assumed pod and ends every path in the cache: bound →
   * FinishBinding (its expiry runs); failed → Unreserve in reverse order and forget; outcome
   * unknown → FinishBinding only, so the pod stays assumed on the node (counted by filter) until
   * the watch confirms or moves it, or it expires. The framework turns what plugins throw into
   * statuses; anything else thrown on the way (a fault of the runtime itself) counts as a failure
   * here, so no path leaves the pod assumed without an end.
   */
  private Outcome bindAssumed(
      Framework fw, CycleState state, PodInfo assumed, String key, String node) {
    Status s;
    try {
      s = runBindingCycle(fw, state, assumed, node);
    } catch (RuntimeException e) {
      log.error("bind pod={} node={}: the binding cycle failed", key, node, e);
      s = Status.error(e);
    }
    cache.finishBinding(assumed);
    if (s.isSuccess()) {
      fw.runPostBindPlugins(state, assumed, node);
      return Outcome.BOUND;
    }
    String message = s.message().isEmpty() ? s.code().upstreamName() : s.message();
    if (s.isError() && BindingOutcomeUnknownException.in(s.cause())) {
      inDoubt.remember(assumed.uid(), node);
      return new Outcome(
          "unknown",
          message
              + ": pod "
              + key
              + " stays assumed on node "
              + node
              + " (filter counts "
              + "it) until the watch shows where it went or the assumed pod expires (extender.cache.assumed-pod-ttl "
              + cache.ttl()
              + ")");
    }
    fw.runReservePluginsUnreserve(state, assumed, node);
    forget(assumed, key);
    return Outcome.failed(message);
  }

  private static Status runBindingCycle(
      Framework fw, CycleState state, PodInfo assumed, String node) {
    Status s = fw.runReservePluginsReserve(state, assumed, node);
    if (s.isSuccess()) {
      s = fw.runPermitPlugins(state, assumed, node);
      if (s.isWait()) {
        s = fw.waitOnPermit(assumed);
      }
    }
    if (s.isSuccess()) {
      s = fw.runPreBindPlugins(state, assumed, node);
    }
    if (s.isSuccess()) {
      s = fw.runBindPlugins(state, assumed, node);
      if (s.isSkip()) {
        s = Status.error("no bind plugin bound the pod (all skipped)");
      }
    }
    return s;
  }

  private void forget(PodInfo assumed, String key) {
    try {
      cache.forgetPod(assumed);
    } catch (FrameworkException e) {
      log.warn("Could not forget pod {} after a failed bind: {}", key, e.getMessage());
    }
  }

  /**
   * The state a bind continues with after the pod was assumed, or why it was not.
   *
   * @param state the cycle state after PreFilter and Filter on the chosen node
   * @param pod the assumed pod (with its node set)
   * @param error why the pod was not assumed, or null
   */
  private record Assumption(CycleState state, PodInfo pod, String error) {

    static Assumption failed(String error) {
      return new Assumption(null, null, error);
    }
  }

  /** {@code info}'s pod as nominated to {@code node}, on a copy. */
  private static PodInfo nominatedTo(PodInfo info, String node) {
    return PodInfo.of(
        new PodBuilder(info.pod())
            .editOrNewStatus()
            .withNominatedNodeName(node)
            .endStatus()
            .build());
  }

  /**
   * Re-checks that the pod fits the node on the current snapshot and assumes it there. Callers hold
   * the node's stripe lock, so two binds onto one node cannot both pass the check before either is
   * assumed (no over-commit).
   */
  private Assumption checkFitAndAssume(Framework fw, PodInfo info, String key, String nodeName) {
    Snapshot snapshot = cache.snapshot();
    NodeInfo node = snapshot.get(nodeName);
    if (node == null) {
      return Assumption.failed(String.format(SchedulingCycle.UNKNOWN_NODE, nodeName));
    }
    if (!victims.on(info.uid(), nodeName).isEmpty() && !nodeName.equals(info.nominatedNodeName())) {
      // kube-scheduler binds a preemptor to the node it preempted on, maybe before the watch has
      // shown it nominated there: the check leaves out the victims of that node as filter did.
      info = nominatedTo(info, nodeName);
    }
    CycleState state = fw.newCycleState(snapshot);
    PreFilterResult pre = fw.runPreFilterPlugins(state, info);
    if (!pre.status().isSuccess()) {
      return Assumption.failed(
          "pod " + key + " does not fit node " + nodeName + " any more: " + pre.status().message());
    }
    if (!pre.allNodes() && !pre.nodeNames().contains(nodeName)) {
      return Assumption.failed(
          "pod " + key + " does not fit node " + nodeName + " any more: " + pre.excludedReason());
    }
    // The Filter of the scheduling cycle: on the node a preemptor is nominated to, its victims
    // are gone.
    Status fit = fw.runFilterPluginsOnNodes(state, info, List.of(node))[0];
    if (!fit.isSuccess()) {
      return Assumption.failed(
          "pod " + key + " does not fit node " + nodeName + " any more: " + fit.message());
    }
    PodInfo assumed = info.assignedTo(nodeName);
    try {
      cache.assumePod(assumed);
    } catch (FrameworkException e) {
      return Assumption.failed(e.getMessage());
    }
    return new Assumption(state, assumed, null);
  }
}
