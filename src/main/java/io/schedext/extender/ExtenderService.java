package io.schedext.extender;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.schedext.cache.NameInterner;
import io.schedext.cache.SchedulerCache;
import io.schedext.cache.Snapshot;
import io.schedext.cluster.ClusterSource;
import io.schedext.extender.wire.EncodedNames;
import io.schedext.extender.wire.ExtenderArgs;
import io.schedext.extender.wire.ExtenderBindingArgs;
import io.schedext.extender.wire.ExtenderBindingResult;
import io.schedext.extender.wire.ExtenderFilterResult;
import io.schedext.extender.wire.ExtenderPreemptionArgs;
import io.schedext.extender.wire.ExtenderPreemptionResult;
import io.schedext.extender.wire.HostPriority;
import io.schedext.extender.wire.HostPriorityList;
import io.schedext.extender.wire.NodeItems;
import io.schedext.extender.wire.NodeNameList;
import io.schedext.framework.BindingOutcomeUnknownException;
import io.schedext.framework.Code;
import io.schedext.framework.CycleState;
import io.schedext.framework.ExtensionPoint;
import io.schedext.framework.FitError;
import io.schedext.framework.Framework;
import io.schedext.framework.FrameworkException;
import io.schedext.framework.Frameworks;
import io.schedext.framework.NodeInfo;
import io.schedext.framework.Parallelizer;
import io.schedext.framework.PodInfo;
import io.schedext.framework.PreFilterResult;
import io.schedext.framework.ScoreResult;
import io.schedext.framework.Status;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Maps the four extender verbs (and explain) onto a profile's framework over the current cache snapshot. Thread-safe:
 * requests run concurrently, each on its own snapshot and cycle state; binds of the same pod are serialised.
 */
public final class ExtenderService {

  private static final Logger log = LoggerFactory.getLogger(ExtenderService.class);

  /** The reason given for a node name the cache does not know. */
  static final String UNKNOWN_NODE = "node \"%s\" is not in the extender's cache";
  /** The reason given to nodes a PreFilter result left out (upstream's text). */
  static final String FILTERED_BY_PREFILTER = "node is filtered out by the prefilter result";
  /** The answer to a request carrying both node fields. */
  static final String BOTH_NODE_FIELDS = "\"Nodes\" and \"NodeNames\" are both set: kube-scheduler sends exactly one "
      + "(NodeNames with nodeCacheCapable: true, Nodes with false)";
  /** How many nodes or reasons a decision log line names at most. */
  private static final int TOP = 3;

  private final SchedulerCache cache;
  private final ClusterSource source;
  private final Frameworks frameworks;
  private final Parallelizer parallelizer;
  private final SeenPods seenPods;
  private final ExtenderMetrics metrics;
  private final PreemptionService preemption;
  private final ConcurrentHashMap<String, Object> bindLocks = new ConcurrentHashMap<>();
  /** Pods (by UID) whose last Binding has an unknown outcome, with the node they stay assumed on. */
  private final ConcurrentHashMap<String, String> inDoubt = new ConcurrentHashMap<>();
  /** The size at which entries of pods no longer assumed are dropped from {@link #inDoubt}. */
  private static final int IN_DOUBT_PRUNE_AT = 1024;
  /** Serialises the fit check and assume of binds onto the same node; binds onto other nodes go on in parallel. */
  private final Object[] nodeStripes = newStripes(64);

  /** Creates the service. */
  public ExtenderService(
      SchedulerCache cache, ClusterSource source, Frameworks frameworks, Parallelizer parallelizer,
      SeenPods seenPods, ExtenderMetrics metrics) {
    this.cache = cache;
    this.metrics = metrics;
    this.source = source;
    this.frameworks = frameworks;
    this.parallelizer = parallelizer;
    this.seenPods = seenPods;
    this.preemption = new PreemptionService(cache);
  }

  private static Object[] newStripes(int n) {
    Object[] out = new Object[n];
    for (int i = 0; i < n; i++) {
      out[i] = new Object();
    }
    return out;
  }

  /** The framework of {@code profile} (null = default); 404 when unknown. */
  public Framework framework(String profile) {
    if (profile == null) {
      return frameworks.defaultFramework();
    }
    Framework f = frameworks.get(profile);
    if (f == null) {
      throw new BadRequestException(404, "unknown profile \"" + profile + "\"; profiles: "
          + frameworks.all().stream().map(Framework::profileName).toList());
    }
    return f;
  }

  /** The canonical instances of the cached node names, for decoding {@code NodeNames}. */
  public NameInterner nodeNames() {
    return cache.snapshot().nameInterner();
  }

  // ------------------------------------------------------------------------------------------------------- filter

  /** Answers a filter call: the fitting nodes in the request's own field, and the reasons for the others. */
  public ExtenderFilterResult filter(String profile, ExtenderArgs args) {
    Framework fw = framework(profile);
    PodInfo pod = podOf(args.pod());
    Candidates c = candidates(args, false);
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
    if (log.isDebugEnabled()) {
      Map<String, String> rejected = new LinkedHashMap<>(failed);
      rejected.putAll(unresolvable);
      log.debug("filter pod={} profile={} nodes={} feasible={} failed={} unresolvable={} error={} topReasons={}",
          pod.key(), fw.profileName(), c.nodes().size() + c.unknown().size(), feasible.size(), failed.size(),
          unresolvable.size(), error.isEmpty() ? "-" : error, topReasons(rejected));
    }
    lastPreFiltered.set(new PreFiltered(fw, c.snapshot(), pod.pod(), state));
    return new ExtenderFilterResult(
        c.namesMode() ? null : nodeList(feasible, c.given()),
        c.namesMode() ? names(feasible) : null,
        failed, unresolvable, error);
  }

  private static List<String> names(List<NodeInfo> nodes) {
    String[] out = new String[nodes.size()];
    byte[][] encoded = new byte[out.length][];
    for (int i = 0; i < out.length; i++) {
      NodeInfo n = nodes.get(i);
      out[i] = n.name();
      encoded[i] = n.nameJson();
    }
    return new EncodedNames(out, encoded);
  }

  private static NodeItems nodeList(List<NodeInfo> feasible, Map<String, Node> given) {
    List<Node> items = new ArrayList<>(feasible.size());
    for (NodeInfo n : feasible) {
      items.add(given.getOrDefault(n.name(), n.node()));
    }
    return NodeItems.of(items);
  }

  // --------------------------------------------------------------------------------------------------- prioritize

  /** Answers a prioritize call: each known node's combined plugin score scaled to 0–10. */
  public List<HostPriority> prioritize(String profile, ExtenderArgs args) {
    Framework fw = framework(profile);
    PodInfo pod = podOf(args.pod());
    Candidates c = candidates(args, false);
    metrics.nodes("prioritize", c.nodes().size() + c.unknown().size());
    ScoreResult r = score(fw, c, pod, null);
    if (!r.status().isSuccess()) {
      throw new IllegalStateException(r.status().message());
    }
    long weightSum = 0;
    for (int w : r.weights()) {
      weightSum += w;
    }
    // Scored nodes are the known candidates, in order, then the unknown ones.
    int n = r.nodes().length + c.unknown().size();
    String[] hosts = new String[n];
    byte[][] encodedHosts = new byte[n][];
    long[] scores = new long[n];
    int k = 0;
    for (; k < r.nodes().length; k++) {
      NodeInfo node = r.nodes()[k];
      hosts[k] = node.name();
      encodedHosts[k] = node.nameJson();
      scores[k] = toExtenderScore(r.totals()[k], weightSum);
    }
    for (String unknown : c.unknown().keySet()) {
      hosts[k] = unknown;
      scores[k++] = HostPriority.MIN_EXTENDER_PRIORITY;
    }
    List<HostPriority> out = new HostPriorityList(hosts, encodedHosts, scores, n);
    if (log.isDebugEnabled()) {
      List<HostPriority> best = new ArrayList<>(out);
      best.sort(Comparator.comparingLong(HostPriority::score).reversed());
      log.debug("prioritize pod={} profile={} nodes={} scored={} unknown={} top={}", pod.key(), fw.profileName(),
          out.size(), c.nodes().size(), c.unknown().size(),
          best.stream().limit(TOP).map(h -> h.host() + "=" + h.score()).toList());
    }
    return out;
  }

  /**
   * Scales a weighted plugin total (Σ score×weight, each score 0–100) to the extender's 0–10, rounding half up:
   * {@code round(10 × total / (100 × Σweights))}. No score plugins: 0.
   */
  static long toExtenderScore(long total, long weightSum) {
    if (weightSum <= 0) {
      return HostPriority.MIN_EXTENDER_PRIORITY;
    }
    long denom = 100 * weightSum;
    long s = (total * HostPriority.MAX_EXTENDER_PRIORITY * 2 + denom) / (2 * denom);
    return Math.max(HostPriority.MIN_EXTENDER_PRIORITY, Math.min(HostPriority.MAX_EXTENDER_PRIORITY, s));
  }

  private ScoreResult score(Framework fw, Candidates c, PodInfo pod, Explainer explainer) {
    CycleState state = explainer == null ? preFilteredByFilter(fw, c.snapshot(), pod) : null;
    if (state == null) {
      state = fw.newCycleState(c.snapshot());
      fw.runPreFilterPlugins(state, pod);
    }
    Status pre = fw.runPreScorePlugins(state, pod, c.nodes(), explainer == null ? null : explainer::preScore);
    if (!pre.isSuccess()) {
      return new ScoreResult(pre, new NodeInfo[0], new String[0], new int[0], new long[0][], new long[0][],
          new long[0]);
    }
    return fw.runScorePlugins(state, pod, c.nodes(), explainer != null);
  }

  /**
   * The PreFilter outcome of the last filter call. kube-scheduler calls filter and then prioritize for a pod in one
   * scheduling cycle, and upstream runs PreFilter once per cycle; so a prioritize for the same pod, profile and
   * snapshot (no cache change in between) scores on that state instead of running PreFilter again.
   */
  private record PreFiltered(Framework fw, Snapshot snapshot, Pod pod, CycleState state) {}

  private final java.util.concurrent.atomic.AtomicReference<PreFiltered> lastPreFiltered =
      new java.util.concurrent.atomic.AtomicReference<>();

  /** A state to score {@code pod} on, sharing the last filter call's PreFilter state, or null when there is none. */
  private CycleState preFilteredByFilter(Framework fw, Snapshot snapshot, PodInfo pod) {
    PreFiltered last = lastPreFiltered.get();
    if (last == null || last.fw() != fw || last.snapshot() != snapshot || !samePod(last.pod(), pod.pod())) {
      return null;
    }
    return last.state().sharedCopy();
  }

  private static boolean samePod(Pod a, Pod b) {
    if (a == b) {
      return true;
    }
    String uidA = a.getMetadata().getUid();
    if (uidA == null || !uidA.equals(b.getMetadata().getUid())) {
      return false;
    }
    String rvA = a.getMetadata().getResourceVersion();
    String rvB = b.getMetadata().getResourceVersion();
    if (rvA != null && !rvA.isEmpty() && rvA.equals(rvB)) {
      return true;
    }
    return a.equals(b);
  }

  // ------------------------------------------------------------------------------------------------------ preempt

  /** Answers a preempt call: the proposed nodes and victims this service agrees with, by UID. */
  public ExtenderPreemptionResult preempt(String profile, ExtenderPreemptionArgs args) {
    Framework fw = framework(profile);
    PodInfo pod = podOf(args.pod());
    ExtenderPreemptionResult result = preemption.preempt(fw, pod, args);
    metrics.preemption(result.nodeNameToMetaVictims().values().stream().map(v -> v.pods().size()).toList());
    if (log.isDebugEnabled()) {
      Map<String, ?> proposed = args.nodeNameToMetaVictims() != null ? args.nodeNameToMetaVictims()
          : args.nodeNameToVictims() != null ? args.nodeNameToVictims() : Map.of();
      Snapshot snapshot = cache.snapshot();
      Map<String, String> dropped = new LinkedHashMap<>();
      for (String node : proposed.keySet()) {
        if (!result.nodeNameToMetaVictims().containsKey(node)) {
          dropped.put(node, snapshot.get(node) == null ? "node not in the extender's cache"
              : "no proposed victim runs on the node");
        }
      }
      int victims = result.nodeNameToMetaVictims().values().stream().mapToInt(v -> v.pods().size()).sum();
      log.debug("preempt pod={} profile={} proposedNodes={} keptNodes={} victims={} dropped={} topReasons={}",
          pod.key(), fw.profileName(), proposed.size(), result.nodeNameToMetaVictims().size(), victims,
          dropped.size(), topReasons(dropped));
    }
    return result;
  }

  // --------------------------------------------------------------------------------------------------------- bind

  /**
   * Binds a pod: assume in the cache, then Reserve, Permit (waiting if asked), PreBind, Bind and PostBind. Any failure
   * unreserves and forgets the pod. Idempotent: a pod already bound to that node answers success.
   */
  public ExtenderBindingResult bind(String profile, ExtenderBindingArgs a) {
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
    Framework fw = framework(profile);
    Object lock = bindLocks.computeIfAbsent(a.podUid(), k -> new Object());
    try {
      synchronized (lock) {
        BindOutcome outcome = bindLocked(fw, a);
        metrics.bind(outcome.result());
        if (!outcome.error().isEmpty()) {
          log.info("bind pod={}/{} node={} {}: {}", a.podNamespace(), a.podName(), a.node(), outcome.result(),
              outcome.error());
        } else {
          log.debug("bind pod={}/{} node={} done", a.podNamespace(), a.podName(), a.node());
        }
        return new ExtenderBindingResult(outcome.error());
      }
    } finally {
      bindLocks.remove(a.podUid(), lock);
    }
  }

  /**
   * How a bind ended: {@code bound}, {@code failed} (nothing was bound) or {@code unknown} (the Binding may land or
   * not; the pod stays assumed), with the answer's {@code Error}.
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
      if (doubtful != null && doubtful.equals(cached.nodeName()) && cache.isAssumedPod(a.podUid())) {
        if (!doubtful.equals(a.node())) {
          return BindOutcome.failed("pod " + key + " stays assumed on node " + doubtful + ": the outcome of binding it "
              + "there is unknown until the watch shows where it went or the assumed pod expires");
        }
        // Bind again: if the first Binding landed the API server answers 409 and the binder finds the pod on this
        // node (success); if not, this one binds it.
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
      return BindOutcome.failed("pod " + key + " (UID " + a.podUid() + ") is not known to the extender: neither the "
          + "cluster source nor a recent filter/prioritize call has it");
    }
    if (!a.podUid().equals(pod.getMetadata().getUid())) {
      return BindOutcome.failed("pod " + key + " has UID " + pod.getMetadata().getUid() + ", not " + a.podUid()
          + " (deleted and re-created?); nothing was bound");
    }
    if (!a.podNamespace().equals(pod.getMetadata().getNamespace()) || !a.podName().equals(pod.getMetadata().getName())) {
      return BindOutcome.failed("pod with UID " + a.podUid() + " is " + pod.getMetadata().getNamespace() + "/"
          + pod.getMetadata().getName() + ", not " + key);
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
   * Runs Reserve .. PostBind for an assumed pod and ends every path in the cache: bound → FinishBinding (its expiry
   * runs); failed → Unreserve in reverse order and forget; outcome unknown → FinishBinding only, so the pod stays
   * assumed on the node (counted by filter) until the watch confirms or moves it, or it expires. The framework turns
   * what plugins throw into statuses; anything else thrown on the way (a fault of the runtime itself) counts as a
   * failure here, so no path leaves the pod assumed without an end.
   */
  private BindOutcome bindAssumed(Framework fw, CycleState state, PodInfo assumed, String key, String node) {
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
      return new BindOutcome("unknown", message + ": pod " + key + " stays assumed on node " + node + " (filter counts "
          + "it) until the watch shows where it went or the assumed pod expires (extender.cache.assumed-pod-ttl "
          + cache.ttl() + ")");
    }
    fw.runReservePluginsUnreserve(state, assumed, node);
    forget(assumed, key);
    return BindOutcome.failed(message);
  }

  private static Status runBindingCycle(Framework fw, CycleState state, PodInfo assumed, String node) {
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

  /** Remembers a pod whose binding to {@code node} has an unknown outcome; drops entries of pods no longer assumed. */
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
   * Re-checks that the pod fits the node on the current snapshot and assumes it there. Callers hold the node's stripe
   * lock, so two binds onto one node cannot both pass the check before either is assumed (no over-commit).
   */
  private Assumption checkFitAndAssume(Framework fw, PodInfo info, String key, String nodeName) {
    Snapshot snapshot = cache.snapshot();
    NodeInfo node = snapshot.get(nodeName);
    if (node == null) {
      return Assumption.failed(String.format(UNKNOWN_NODE, nodeName));
    }
    CycleState state = fw.newCycleState(snapshot);
    PreFilterResult pre = fw.runPreFilterPlugins(state, info);
    if (!pre.status().isSuccess()) {
      return Assumption.failed("pod " + key + " does not fit node " + nodeName + " any more: "
          + pre.status().message());
    }
    if (!pre.allNodes() && !pre.nodeNames().contains(nodeName)) {
      return Assumption.failed("pod " + key + " does not fit node " + nodeName + " any more: "
          + FILTERED_BY_PREFILTER);
    }
    Status fit = fw.runFilterPluginsWithNominatedPods(state, info, node);
    if (!fit.isSuccess()) {
      return Assumption.failed("pod " + key + " does not fit node " + nodeName + " any more: " + fit.message());
    }
    PodInfo assumed = info.assignedTo(nodeName);
    try {
      cache.assumePod(assumed);
    } catch (FrameworkException e) {
      return Assumption.failed(e.getMessage());
    }
    return new Assumption(state, assumed, null);
  }

  // ------------------------------------------------------------------------------------------------------ explain

  /** Explains the decision for a pod over the given nodes, or every cached node when the request names none. */
  public Explanation explain(String profile, ExtenderArgs args) {
    Framework fw = framework(profile);
    PodInfo pod = podOf(args.pod());
    return explain(fw, pod, candidates(args, true), null);
  }

  /**
   * Explains the pod {@code namespace/name} as the extender knows it, over every cached node: a pending pod of the
   * cluster source, or else a pod in the cache, explained as if it were not bound (its own node counted without it),
   * which answers "would it still fit where it is, and where else?". 404 when neither knows it.
   */
  public Explanation explain(String profile, String namespace, String name) {
    Framework fw = framework(profile);
    for (Pod p : source.pendingPods()) {
      ObjectMeta m = p.getMetadata();
      if (m != null && namespace.equals(m.getNamespace()) && name.equals(m.getName())) {
        return explain(fw, parse(p), candidates(new ExtenderArgs(p, null, null), true), null);
      }
    }
    for (PodInfo bound : cache.pods()) {
      if (bound.namespace().equals(namespace) && bound.name().equals(name)) {
        return explainUnbound(fw, bound);
      }
    }
    throw new BadRequestException(404, "pod \"" + namespace + "/" + name + "\" is not known to the extender: "
        + "neither pending in the cluster source nor in the cache");
  }

  private Explanation explainUnbound(Framework fw, PodInfo bound) {
    Pod unbound = new PodBuilder(bound.pod()).editOrNewSpec().withNodeName(null).endSpec().build();
    Snapshot base = cache.snapshot();
    NodeInfo own = base.get(bound.nodeName());
    Snapshot snapshot = base;
    if (own != null) {
      NodeInfo without = own.snapshotCopy();
      without.removePod(bound.uid());
      snapshot = base.withOverrides(List.of(without));
    }
    return explain(fw, parse(unbound), new Candidates(snapshot, snapshot.list(), Map.of(), true, Map.of()),
        bound.nodeName());
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
    List<Explanation.PluginStatus>[] perNode = perNodeFilters(fw, state, pod, c.nodes(), filterPlugins,
        preStatus, pre);
    boolean[] isFeasible = new boolean[c.nodes().size()];
    for (int i = 0; i < c.nodes().size(); i++) {
      isFeasible[i] = error == null
          && perNode[i].stream().allMatch(p -> p.code().equals(Code.SUCCESS.upstreamName()));
      if (isFeasible[i]) {
        feasible.add(c.nodes().get(i));
      }
    }
    Map<String, Explanation.NodeVerdict> scored = new LinkedHashMap<>();
    List<String> best = new ArrayList<>();
    long bestScore = Long.MIN_VALUE;
    if (!feasible.isEmpty()) {
      Candidates fc = new Candidates(c.snapshot(), feasible, Map.of(), c.namesMode(), c.given());
      ScoreResult r = score(fw, fc, pod, ex);
      if (!r.status().isSuccess()) {
        error = r.status().message();
      } else {
        long weightSum = 0;
        for (int w : r.weights()) {
          weightSum += w;
        }
        for (int i = 0; i < r.nodes().length; i++) {
          List<Explanation.PluginScore> ps = new ArrayList<>();
          for (int p = 0; p < r.plugins().length; p++) {
            ps.add(new Explanation.PluginScore(r.plugins()[p], r.raw()[p][i], r.normalized()[p][i], r.weights()[p],
                r.normalized()[p][i] * r.weights()[p]));
          }
          String name = r.nodes()[i].name();
          scored.put(name, new Explanation.NodeVerdict(name, true, null, ps, r.totals()[i],
              toExtenderScore(r.totals()[i], weightSum)));
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
      verdicts.add(new Explanation.NodeVerdict(n.name(), isFeasible[i], perNode[i], s == null ? List.of() : s.scores(),
          s == null ? null : s.totalScore(), s == null ? null : s.extenderScore()));
    }
    for (Map.Entry<String, String> u : c.unknown().entrySet()) {
      verdicts.add(new Explanation.NodeVerdict(u.getKey(), false,
          List.of(new Explanation.PluginStatus("", Code.UNSCHEDULABLE_AND_UNRESOLVABLE.upstreamName(),
              List.of(u.getValue()))), List.of(), null, null));
    }
    Map<String, Status> rejections = firstRejections(c.nodes(), perNode, preStatus);
    Explanation.Preemption preemption = null;
    if (error == null && feasible.isEmpty() && !c.nodes().isEmpty() && fw.hasPostFilterPlugins()) {
      preemption = simulatePreemption(fw, state, pod, rejections);
    }
    String summary;
    int numAllNodes = c.nodes().size() + c.unknown().size();
    if (error != null) {
      summary = "error: " + error;
    } else if (!feasible.isEmpty()) {
      summary = feasible.size() + "/" + numAllNodes + " nodes are available; the highest total score is " + bestScore
          + ", on " + String.join(", ", best) + ".";
    } else {
      c.unknown().forEach((node, reason) -> rejections.put(node, Status.unresolvable(reason)));
      // As upstream, only a rejecting PostFilter adds its message (a nomination leaves the event as it is).
      Status post = preemption == null ? Status.success()
          : Status.of(Code.fromUpstreamName(preemption.code()), preemption.reasons());
      summary = FitError.message(numAllNodes, preStatus.isRejected() ? preStatus.message() : "",
          rejections.values(), List.of(), post.isRejected() ? post.message() : "");
    }
    Map<String, Integer> weights = fw.scoreWeights();
    return new Explanation(pod.key(), fw.profileName(), boundNode, summary, filterPlugins,
        weights.entrySet().stream().map(e -> new Explanation.ScorePlugin(e.getKey(), e.getValue())).toList(),
        ex.preFilter, ex.preScore, verdicts, feasible.stream().map(NodeInfo::name).toList(), best, preemption,
        error);
  }

  /**
   * Each rejected node's status as the real cycle would have it: its first rejecting filter, or the PreFilter
   * rejection. The filters stop at the first rejection there, so this is what kube-scheduler counts and preempts on.
   */
  private static Map<String, Status> firstRejections(
      List<NodeInfo> nodes, List<Explanation.PluginStatus>[] perNode, Status preStatus) {
    Map<String, Status> statuses = new LinkedHashMap<>();
    for (int i = 0; i < nodes.size(); i++) {
      Status first = preStatus.isSuccess() ? null : preStatus;
      if (first == null) {
        for (Explanation.PluginStatus ps : perNode[i]) {
          if (!ps.code().equals(Code.SUCCESS.upstreamName())) {
            first = Status.of(Code.fromUpstreamName(ps.code()), ps.reasons()).withPlugin(ps.plugin());
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

  /** Runs the PostFilter plugins on the nodes' rejections and reports the node and victims preemption would pick. */
  private static Explanation.Preemption simulatePreemption(
      Framework fw, CycleState state, PodInfo pod, Map<String, Status> rejections) {
    var r = fw.runPostFilterPlugins(state.copy(), pod, new LinkedHashMap<>(rejections));
    List<Explanation.Victim> victims = r.victims().stream()
        .map(v -> new Explanation.Victim(v.key(), v.uid(), v.priority())).toList();
    return new Explanation.Preemption(r.status().code().upstreamName(), r.status().reasons(),
        r.nominatedNodeName() == null || r.nominatedNodeName().isEmpty() ? null : r.nominatedNodeName(), victims);
  }

  @SuppressWarnings("unchecked")
  private List<Explanation.PluginStatus>[] perNodeFilters(
      Framework fw, CycleState state, PodInfo pod, List<NodeInfo> nodes, List<String> filterPlugins,
      Status preStatus, PreFilterResult pre) {
    List<Explanation.PluginStatus>[] out = new List[nodes.size()];
    parallelizer.until(nodes.size(), i -> {
      NodeInfo n = nodes.get(i);
      List<Explanation.PluginStatus> list = new ArrayList<>();
      if (!preStatus.isSuccess()) {
        list.add(pluginStatus(preStatus.plugin(), preStatus));
      } else if (!pre.allNodes() && !pre.nodeNames().contains(n.name())) {
        list.add(new Explanation.PluginStatus("", Code.UNSCHEDULABLE_AND_UNRESOLVABLE.upstreamName(),
            List.of(FILTERED_BY_PREFILTER)));
      } else {
        Status[] all = fw.runAllFilterPlugins(state, pod, n);
        for (int p = 0; p < all.length; p++) {
          if (all[p] != null) {
            list.add(pluginStatus(filterPlugins.get(p), all[p]));
          }
        }
      }
      out[i] = list;
    });
    return out;
  }

  private static Explanation.PluginStatus pluginStatus(String plugin, Status s) {
    return new Explanation.PluginStatus(plugin == null ? "" : plugin, s.code().upstreamName(), s.reasons());
  }

  private static final class Explainer {
    final List<Explanation.PluginStatus> preFilter = new ArrayList<>();
    final List<Explanation.PluginStatus> preScore = new ArrayList<>();

    void preFilter(String plugin, PreFilterResult r) {
      List<String> reasons = new ArrayList<>(r.status().reasons());
      if (r.nodeNames() != null) {
        reasons.add("nodes narrowed to " + new java.util.TreeSet<>(r.nodeNames()));
      }
      preFilter.add(new Explanation.PluginStatus(plugin, r.status().code().upstreamName(), reasons));
    }

    void preScore(String plugin, Status s) {
      preScore.add(pluginStatus(plugin, s));
    }
  }

  // ---------------------------------------------------------------------------------------------------- candidates

  /**
   * The nodes of one request.
   *
   * @param snapshot the snapshot the cycle sees (the cache's, with given node objects put in place)
   * @param nodes the known candidate nodes, in request order
   * @param unknown names the cache does not know → reason
   * @param namesMode true when the request used NodeNames
   * @param given the node objects of a Nodes request by name
   */
  record Candidates(
      Snapshot snapshot, List<NodeInfo> nodes, Map<String, String> unknown, boolean namesMode,
      Map<String, Node> given) {}

  /**
   * Refuses a request carrying both {@code Nodes} and {@code NodeNames}: kube-scheduler sends exactly one (NodeNames
   * with {@code nodeCacheCapable: true}, Nodes otherwise), so both is a client's mistake, not a choice to make for it.
   */
  static void checkNodeFields(ExtenderArgs args) {
    if (args.nodes() != null && args.nodeNames() != null) {
      throw new BadRequestException(BOTH_NODE_FIELDS);
    }
  }

  /**
   * The filter reply while the cluster state is not ready: {@code error}, and an empty list in the field the request
   * used.
   */
  public static ExtenderFilterResult notReady(ExtenderArgs args, String error) {
    checkNodeFields(args);
    boolean names = args.nodes() == null;
    return new ExtenderFilterResult(names ? null : NodeItems.of(List.of()), names ? List.of() : null, Map.of(),
        Map.of(), error);
  }

  private Candidates candidates(ExtenderArgs args, boolean allWhenNone) {
    checkNodeFields(args);
    Snapshot base = cache.snapshot();
    if (args.nodeNames() != null) {
      List<String> names = args.nodeNames();
      List<NodeInfo> nodes = new ArrayList<>(names.size());
      Map<String, String> unknown = new LinkedHashMap<>();
      // Names decoded against this snapshot's interner carry their index into its node order (another snapshot's
      // positions are ignored: atPosition answers null and the name is looked up). A name given twice is answered
      // once, at its first place: by position when interned, else by name.
      NodeNameList interned = names instanceof NodeNameList l ? l : null;
      java.util.BitSet seenAt = null;
      java.util.Set<String> seenNames = null;
      for (int i = 0; i < names.size(); i++) {
        String name = names.get(i);
        if (name == null) {
          throw new BadRequestException("field \"NodeNames\": contains null");
        }
        int position = interned == null ? -1 : interned.position(i);
        NodeInfo n = interned == null ? null : base.atPosition(interned.interner(), position);
        if (n != null) {
          seenAt = seenAt == null ? new java.util.BitSet() : seenAt;
          if (seenAt.get(position)) {
            continue;
          }
          seenAt.set(position);
        } else {
          n = base.get(name);
          if (n == null) {
            unknown.put(name, String.format(UNKNOWN_NODE, name));
            continue;
          }
          seenNames = seenNames == null ? new java.util.HashSet<>() : seenNames;
          if (!seenNames.add(name)) {
            continue;
          }
        }
        nodes.add(n);
      }
      return new Candidates(base, nodes, unknown, true, Map.of());
    }
    if (args.nodes() != null) {
      List<Node> items = args.nodes().getItems() == null ? List.of() : args.nodes().getItems();
      List<NodeInfo> nodes = new ArrayList<>(items.size());
      List<NodeInfo> overrides = new ArrayList<>();
      Map<String, Node> given = new LinkedHashMap<>();
      for (int i = 0; i < items.size(); i++) {
        Node node = items.get(i);
        ObjectMeta meta = node == null ? null : node.getMetadata();
        if (meta == null || blank(meta.getName())) {
          throw new BadRequestException("field \"Nodes.items[" + i + "].metadata.name\": is required");
        }
        if (given.putIfAbsent(meta.getName(), node) != null) {
          continue;
        }
        NodeInfo cached = base.get(meta.getName());
        if (cached != null && sameVersion(cached.node(), node)) {
          nodes.add(cached);
          continue;
        }
        NodeInfo joined = cached != null ? cached.snapshotCopy() : new NodeInfo();
        try {
          joined.setNode(node);
        } catch (IllegalArgumentException e) {
          throw new BadRequestException("field \"Nodes.items[" + i + "]\" (node " + meta.getName() + "): "
              + e.getMessage());
        }
        nodes.add(joined);
        overrides.add(joined);
      }
      return new Candidates(base.withOverrides(overrides), nodes, Map.of(), false, given);
    }
    if (allWhenNone) {
      return new Candidates(base, base.list(), Map.of(), true, Map.of());
    }
    throw new BadRequestException("one of \"Nodes\" or \"NodeNames\" is required");
  }

  private static boolean sameVersion(Node cached, Node given) {
    String a = cached.getMetadata().getResourceVersion();
    String b = given.getMetadata().getResourceVersion();
    if (a != null && !a.isEmpty() && b != null && !b.isEmpty()) {
      return a.equals(b);
    }
    return Objects.equals(cached, given);
  }

  private PodInfo podOf(Pod pod) {
    if (pod == null) {
      throw new BadRequestException("field \"Pod\": is required");
    }
    if (pod.getMetadata() == null || blank(pod.getMetadata().getName())) {
      throw new BadRequestException("field \"Pod.metadata.name\": is required");
    }
    if (pod.getMetadata().getNamespace() == null) {
      pod.getMetadata().setNamespace("default");
    }
    PodInfo info = parse(pod);
    seenPods.remember(pod);
    return info;
  }

  private static PodInfo parse(Pod pod) {
    try {
      return PodInfo.of(pod);
    } catch (IllegalArgumentException e) {
      throw new BadRequestException("field \"Pod\": " + e.getMessage());
    }
  }

  /** The most frequent reasons of {@code byNode}, most frequent first, as {@code "reason"=count} (log lines only). */
  static List<String> topReasons(Map<String, String> byNode) {
    Map<String, Integer> counts = new LinkedHashMap<>();
    byNode.values().forEach(r -> counts.merge(r, 1, Integer::sum));
    return counts.entrySet().stream()
        .sorted(Map.Entry.<String, Integer>comparingByValue().reversed())
        .limit(TOP).map(e -> "\"" + e.getKey() + "\"=" + e.getValue()).toList();
  }

  private static boolean blank(String s) {
    return s == null || s.isBlank();
  }
}
