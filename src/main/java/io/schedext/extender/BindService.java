package io.schedext.extender;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.schedext.cache.SchedulerCache;
import io.schedext.cache.Snapshot;
import io.schedext.cache.VictimsInFlight;
import io.schedext.cluster.ClusterSource;
import io.schedext.extender.wire.ExtenderBindingArgs;
import io.schedext.extender.wire.ExtenderBindingResult;
import io.schedext.framework.BindingOutcomeUnknownException;
import io.schedext.framework.CycleState;
import io.schedext.framework.FrameworkException;
import io.schedext.framework.NodeInfo;
import io.schedext.framework.PodInfo;
import io.schedext.framework.PreFilterResult;
import io.schedext.framework.Status;
import io.schedext.framework.runtime.Framework;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The bind verb and the binding cycle behind it: find the pod, re-check that it fits the chosen
 * node on the current snapshot, assume it in the cache, then Reserve, Permit (waiting if asked),
 * PreBind, Bind and PostBind. Every path ends in the cache: bound (FinishBinding), failed
 * (Unreserve and forget) or outcome unknown (the pod stays assumed). Unlike the other verbs, a bind
 * does not run on the snapshot its call started with: the fit check takes the current one under the
 * node's lock, so two binds onto one node never both pass it. Thread-safe: binds of the same pod
 * are serialised, binds onto the same node serialise their check and assume, others run in
 * parallel.
 */
final class BindService {

  private static final Logger log = LoggerFactory.getLogger(BindService.class);

  /** The size at which entries of pods no longer assumed are dropped from {@link #inDoubt}. */
  private static final int IN_DOUBT_PRUNE_AT = 1024;

  private final SchedulerCache cache;
  private final ClusterSource source;
  private final SeenPods seenPods;
  private final ExtenderMetrics metrics;
  private final VictimsInFlight victims;
  private final ConcurrentHashMap<String, Object> bindLocks = new ConcurrentHashMap<>();

  /**
   * Pods (by UID) whose last Binding has an unknown outcome, with the node they stay assumed on.
   */
  private final ConcurrentHashMap<String, String> inDoubt = new ConcurrentHashMap<>();

  /**
   * Serialises the fit check and assume of binds onto the same node; binds onto other nodes go on
   * in parallel.
   */
  private final Object[] nodeStripes = newStripes(64);

  BindService(
      SchedulerCache cache,
      ClusterSource source,
      SeenPods seenPods,
      ExtenderMetrics metrics,
      VictimsInFlight victims) {
    this.cache = cache;
    this.source = source;
    this.seenPods = seenPods;
    this.metrics = metrics;
    this.victims = victims;
  }

  private static Object[] newStripes(int n) {
    Object[] out = new Object[n];
    for (int i = 0; i < n; i++) {
      out[i] = new Object();
    }
    return out;
  }

  /**
   * Binds a pod: assume in the cache, then Reserve, Permit (waiting if asked), PreBind, Bind and
   * PostBind. Any failure unreserves and forgets the pod. Idempotent: a pod already bound to that
   * node answers success.
   */
  ExtenderBindingResult bind(Framework fw, ExtenderBindingArgs a) {
    List<String> missing = new ArrayList<>();
    if (blank(a.podName())) {
      missing.add("PodName");
    }
    if (blank(a.podNamespace())) {
      missing.add("PodNamespace");
    }
    if (blank(a.podUid())) {
      missing.add("PodUID");
    }
    if (blank(a.node())) {
      missing.add("Node");
    }
    if (!missing.isEmpty()) {
      throw new BadRequestException("missing required field(s): " + String.join(", ", missing));
    }
    Object lock = bindLocks.computeIfAbsent(a.podUid(), k -> new Object());
    try {
      synchronized (lock) {
        BindOutcome outcome = bindLocked(fw, a);
        metrics.bind(outcome.result());
        if (!outcome.error().isEmpty()) {
          DecisionLog.LOG.info(
              "bind pod={}/{} node={} {}: {}",
              a.podNamespace(),
              a.podName(),
              a.node(),
              outcome.result(),
              outcome.error());
        } else {
          DecisionLog.LOG.debug(
              "bind pod={}/{} node={} done", a.podNamespace(), a.podName(), a.node());
        }
        return new ExtenderBindingResult(outcome.error());
      }
    } finally {
      bindLocks.remove(a.podUid(), lock);
    }
  }

  /**
   * How a bind ended: {@code bound}, {@code failed} (nothing was bound) or {@code unknown} (the
   * Binding may land or not; the pod stays assumed), with the answer's {@code Error}.
   */
  private record BindOutcome(String result, String error) {
    static final BindOutcome BOUND = new BindOutcome("bound", "");

    static BindOutcome failed(String error) {
      return new BindOutcome("failed", error);
    }
  }

  private BindOutcome bindLocked(Framework fw, ExtenderBindingArgs a) {
    String key = a.podNamespace() + "/" + a.podName();
    PodInfo cached = cache.getPod(a.podUid());
    PodInfo inDoubtOnNode = null;
    if (cached != null) {
      String doubtful = inDoubt.get(a.podUid());
      if (doubtful != null
          && doubtful.equals(cached.nodeName())
          && cache.isAssumedPod(a.podUid())) {
        if (!doubtful.equals(a.node())) {
          return BindOutcome.failed(
              "pod "
                  + key
                  + " stays assumed on node "
                  + doubtful
                  + ": the outcome of binding it "
                  + "there is unknown until the watch shows where it went or the assumed pod expires");
        }
        // Bind again: if the first Binding landed the API server answers 409 and the binder finds
        // the pod on this node (success); if not, this one binds it.
        inDoubtOnNode = cached;
      } else if (cached.nodeName().equals(a.node())) {
        return BindOutcome.BOUND;
      } else {
        return BindOutcome.failed("pod " + key + " is already bound to node " + cached.nodeName());
      }
    }
    Pod pod = source.findPod(a.podNamespace(), a.podName(), a.podUid());
    if (pod == null) {
      pod = seenPods.get(a.podUid());
    }
    if (pod == null) {
      return BindOutcome.failed(
          "pod "
              + key
              + " (UID "
              + a.podUid()
              + ") is not known to the extender: neither the "
              + "cluster source nor a recent filter/prioritize call has it");
    }
    if (!a.podUid().equals(pod.getMetadata().getUid())) {
      return BindOutcome.failed(
          "pod "
              + key
              + " has UID "
              + pod.getMetadata().getUid()
              + ", not "
              + a.podUid()
              + " (deleted and re-created?); nothing was bound");
    }
    if (!a.podNamespace().equals(pod.getMetadata().getNamespace())
        || !a.podName().equals(pod.getMetadata().getName())) {
      return BindOutcome.failed(
          "pod with UID "
              + a.podUid()
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
      return BindOutcome.failed("pod " + key + " cannot be read: " + e.getMessage());
    }
    if (!info.nodeName().isEmpty() && !info.nodeName().equals(a.node())) {
      return BindOutcome.failed("pod " + key + " is already bound to node " + info.nodeName());
    }
    Assumption assumption;
    synchronized (nodeStripes[Math.floorMod(a.node().hashCode(), nodeStripes.length)]) {
      if (inDoubtOnNode != null) {
        inDoubt.remove(a.podUid());
        forget(inDoubtOnNode, key);
      }
      assumption = checkFitAndAssume(fw, info, key, a.node());
    }
    if (assumption.error() != null) {
      return BindOutcome.failed(assumption.error());
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
  private BindOutcome bindAssumed(
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
      return BindOutcome.BOUND;
    }
    String message = s.message().isEmpty() ? s.code().upstreamName() : s.message();
    if (s.isError() && BindingOutcomeUnknownException.in(s.cause())) {
      rememberInDoubt(assumed.uid(), node);
      return new BindOutcome(
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
    return BindOutcome.failed(message);
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
   * Remembers a pod whose binding to {@code node} has an unknown outcome; drops entries of pods no
   * longer assumed.
   */
  private void rememberInDoubt(String uid, String node) {
    if (inDoubt.size() >= IN_DOUBT_PRUNE_AT) {
      inDoubt.keySet().removeIf(u -> !cache.isAssumedPod(u));
    }
    inDoubt.put(uid, node);
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

  /**
   * Re-checks that the pod fits the node on the current snapshot and assumes it there. Callers hold
   * the node's stripe lock, so two binds onto one node cannot both pass the check before either is
   * assumed (no over-commit).
   */
  /** {@code info}'s pod as nominated to {@code node}, on a copy. */
  private static PodInfo nominatedTo(PodInfo info, String node) {
    return PodInfo.of(
        new PodBuilder(info.pod())
            .editOrNewStatus()
            .withNominatedNodeName(node)
            .endStatus()
            .build());
  }

  private Assumption checkFitAndAssume(Framework fw, PodInfo info, String key, String nodeName) {
    Snapshot snapshot = cache.snapshot();
    NodeInfo node = snapshot.get(nodeName);
    if (node == null) {
      return Assumption.failed(String.format(Candidates.UNKNOWN_NODE, nodeName));
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

  private static boolean blank(String s) {
    return s == null || s.isBlank();
  }
}
