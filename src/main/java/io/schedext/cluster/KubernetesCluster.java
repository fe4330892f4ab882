package io.schedext.cluster;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.PersistentVolume;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaim;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.WatchEvent;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.Informable;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import io.schedext.cache.EventGate;
import io.schedext.cache.SchedulerCache;
import io.schedext.framework.FrameworkException;
import io.schedext.framework.NodeInfo;
import io.schedext.framework.PodBinder;
import io.schedext.framework.PodInfo;
import io.schedext.framework.PodNominator;
import io.schedext.framework.VolumeWriter;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A real cluster, seen through fabric8 shared informers: nodes and assigned pods feed the scheduler
 * cache (pods only while not Succeeded/Failed, as upstream's field selector), unassigned pods are
 * kept for bind and for nominations, and Services, Namespaces, volumes, storage, PDBs and
 * controllers feed the object store. Handlers are O(1), only update the cache, survive out-of-order
 * and missed events (a cache error is logged, counted and repaired), and trim {@code managedFields}
 * and the last-applied annotation to keep memory down (PVs and claims keep the annotation:
 * VolumeBinding writes them back whole). Ready once every informer has synced; not ready while a
 * watch has been down for longer than the grace period. Volume writes go through {@link
 * KubernetesVolumeWriter}, bounded by the bind timeout. Thread-safe.
 */
public final class KubernetesCluster implements ClusterSource {

  private static final Logger log = LoggerFactory.getLogger(KubernetesCluster.class);

  /**
   * How long each list of {@link #compare()} may take; never retried, so a debug call cannot hang
   * for minutes.
   */
  static final Duration COMPARE_TIMEOUT = Duration.ofSeconds(30);

  private static final String LAST_APPLIED = "kubectl.kubernetes.io/last-applied-configuration";

  private final KubernetesClient client;

  /** The client for API reads a request waits on: bounded, never retried. */
  private final KubernetesClient lookups;

  /**
   * For {@link #compare()}: whole lists take longer than a lookup, but an unreachable API server
   * fails it once.
   */
  private final KubernetesClient listings;

  private final SchedulerCache cache;
  private final ObjectStore store;
  private final Clock clock;
  private final KubernetesBinder binder;
  private final KubernetesVolumeWriter volumeWriter;
  private final WatchHealth health;
  private final ScheduledExecutorService healthPoller =
      Executors.newSingleThreadScheduledExecutor(
          r -> {
            Thread t = new Thread(r, "watch-health");
            t.setDaemon(true);
            return t;
          });
  private final Map<String, Pod> pending = new ConcurrentHashMap<>();
  private final Map<String, Map<String, PodInfo>> nominated = new ConcurrentHashMap<>();
  private final AtomicLong handlerErrors = new AtomicLong();
  private final AtomicLong events = new AtomicLong();
  private final EventGate gate;
  private volatile Runnable whenSynced = () -> {};

  /** The default deadline of the API reads a request waits on (the pod lookup of bind). */
  public static final Duration DEFAULT_REQUEST_TIMEOUT = Duration.ofSeconds(1);

  /**
   * A source over {@code client}; not ready while a watch is down for longer than {@code
   * syncGrace}; binds pods and writes volumes with {@code bindTimeout} per request. Node and pod
   * events never wait for requests.
   */
  public KubernetesCluster(
      KubernetesClient client,
      SchedulerCache cache,
      ObjectStore store,
      Clock clock,
      Duration syncGrace,
      Duration bindTimeout) {
    this(
        client,
        cache,
        store,
        clock,
        syncGrace,
        bindTimeout,
        DEFAULT_REQUEST_TIMEOUT,
        EventGate.off());
  }

  /**
   * As {@link #KubernetesCluster(KubernetesClient, SchedulerCache, ObjectStore, Clock, Duration,
   * Duration)}; the API reads a request waits on give up after {@code requestTimeout} and are never
   * retried; node and pod events pass {@code gate} before they are applied, so they give way to the
   * scheduling calls being answered.
   */
  public KubernetesCluster(
      KubernetesClient client,
      SchedulerCache cache,
      ObjectStore store,
      Clock clock,
      Duration syncGrace,
      Duration bindTimeout,
      Duration requestTimeout,
      EventGate gate) {
    this.gate = gate;
    this.client = client;
    this.lookups = KubernetesClients.bounded(client, requestTimeout);
    this.listings = KubernetesClients.bounded(client, COMPARE_TIMEOUT);
    this.cache = cache;
    this.store = store;
    this.clock = clock;
    this.health = new WatchHealth(clock, syncGrace);
    this.binder = new KubernetesBinder(client, bindTimeout, requestTimeout);
    this.volumeWriter = new KubernetesVolumeWriter(client, bindTimeout, this::isPending);
  }

  /**
   * Runs {@code action} once, when every informer has synced for the first time (the cache is
   * complete); set it before {@link #start()}. The client's threads yield the CPUs to the calls
   * from then on ({@link EventThreads}).
   */
  public void whenSynced(Runnable action) {
    this.whenSynced = action;
  }

  @Override
  public String describe() {
    return "kubernetes API server at " + client.getMasterUrl();
  }

  @Override
  public void start() {
    add("Node", client.nodes(), new NodeEvents());
    add(
        "Pod",
        client
            .pods()
            .inAnyNamespace()
            .withoutField("status.phase", "Succeeded")
            .withoutField("status.phase", "Failed"),
        new PodEvents());
    add("Service", client.services().inAnyNamespace(), new StoreEvents<>());
    add("Namespace", client.namespaces(), new StoreEvents<>());
    add("PersistentVolume", client.persistentVolumes(), new StoreEvents<>());
    add(
        "PersistentVolumeClaim",
        client.persistentVolumeClaims().inAnyNamespace(),
        new StoreEvents<>());
    add("StorageClass", client.storage().v1().storageClasses(), new StoreEvents<>());
    add("CSINode", client.storage().v1().csiNodes(), new StoreEvents<>());
    add("CSIDriver", client.storage().v1().csiDrivers(), new StoreEvents<>());
    add(
        "CSIStorageCapacity",
        client.storage().v1().csiStorageCapacities().inAnyNamespace(),
        new StoreEvents<>());
    add("VolumeAttachment", client.storage().v1().volumeAttachments(), new StoreEvents<>());
    add(
        "PodDisruptionBudget",
        client.policy().v1().podDisruptionBudget().inAnyNamespace(),
        new StoreEvents<>());
    add("ReplicaSet", client.apps().replicaSets().inAnyNamespace(), new StoreEvents<>());
    add("StatefulSet", client.apps().statefulSets().inAnyNamespace(), new StoreEvents<>());
    add(
        "ReplicationController",
        client.replicationControllers().inAnyNamespace(),
        new StoreEvents<>());
    CompletableFuture.allOf(
            health.informers().stream()
                .map(InformerHandle::start)
                .toArray(CompletableFuture[]::new))
        .thenRun(() -> whenSynced.run());
    // Sampled every second whatever polls readiness, so an outage is timed from when it began.
    healthPoller.scheduleWithFixedDelay(health::poll, 1, 1, TimeUnit.SECONDS);
    log.info("Watching {} kinds on {}", health.informers().size(), client.getMasterUrl());
  }

  private <T extends HasMetadata> void add(
      String kind, Informable<T> source, ResourceEventHandler<T> handler) {
    var informer = source.runnableInformer(0);
    // Nothing looks objects up by namespace in the informer's store (the scheduler cache and the
    // object store keep their own views), so its namespace index would only be upkeep on every
    // watch event.
    informer.removeNamespaceIndex();
    InformerHandle<T> handle = new InformerHandle<>(kind, informer, clock);
    informer.addEventHandler(handle.counting(EventThreads.atNormalPriority(handler)));
    health.add(handle);
  }

  @Override
  public boolean isReady() {
    return notReadyReason().isEmpty();
  }

  /** As of the last samples of the watches, taken every second (see {@link WatchHealth}). */
  @Override
  public String notReadyReason() {
    return health.notReadyReason();
  }

  /** The kinds whose watch is down right now (within the grace period or not). */
  public List<String> watchesDown() {
    health.poll();
    return health.down();
  }

  /**
   * The events of {@code pod} ({@link WarmUpEvents#podLife}), {@code times} over, then those of
   * other kinds ({@link WarmUpEvents#otherKinds}) once, decoded by the client's serialization as
   * the watches decode them, trimmed and read as the cache would read them, and dropped. Only the
   * decoding and the reading are shared with real events: the informers, the handlers and the cache
   * never see these.
   */
  @Override
  public void warmUpEvents(Pod pod, String nodeName, int times) {
    KubernetesSerialization serialization = client.getKubernetesSerialization();
    List<String> events = WarmUpEvents.podLife(serialization, pod, nodeName);
    for (int i = 0; i < times; i++) {
      for (String event : events) {
        warmUpEvent(serialization, event);
      }
    }
    // Once: what matters for them is that their path has been taken before it is compiled, and a
    // large cluster's node is a long text to decode.
    NodeInfo node = cache.snapshot().get(nodeName);
    for (String event :
        WarmUpEvents.otherKinds(
            serialization, pod.getMetadata().getNamespace(), node == null ? null : node.node())) {
      warmUpEvent(serialization, event);
    }
  }

  private static void warmUpEvent(KubernetesSerialization serialization, String json) {
    if (serialization.unmarshal(json, WatchEvent.class).getObject() instanceof Pod decoded) {
      trim(decoded);
      if (!terminal(decoded) && assigned(decoded)) {
        PodInfo.of(decoded);
      }
    }
  }

  @Override
  public PodBinder binder() {
    return binder;
  }

  @Override
  public VolumeWriter volumeWriter() {
    return volumeWriter;
  }

  private boolean isPending(String namespace, String name) {
    for (Pod p : pending.values()) {
      if (namespace.equals(p.getMetadata().getNamespace())
          && name.equals(p.getMetadata().getName())) {
        return true;
      }
    }
    return false;
  }

  @Override
  public PodNominator nominator() {
    return PodNominator.of(
        node -> {
          Map<String, PodInfo> m = nominated.get(node);
          return m == null ? List.of() : List.copyOf(m.values());
        },
        nominated::isEmpty);
  }

  @Override
  public List<Pod> pendingPods() {
    return new ArrayList<>(pending.values());
  }

  @Override
  public Pod findPod(String namespace, String name, String uid) {
    if (uid != null && !uid.isEmpty()) {
      Pod p = pending.get(uid);
      if (p != null) {
        return p;
      }
    }
    try {
      return lookups.pods().inNamespace(namespace).withName(name).get();
    } catch (KubernetesClientException e) {
      log.warn("Looking up pod {}/{} failed: {}", namespace, name, e.getMessage());
      return null;
    }
  }

  /** Events handled since start. */
  public long events() {
    return events.get();
  }

  /** Handler failures (cache transitions refused and repaired) since start. */
  public long handlerErrors() {
    return handlerErrors.get();
  }

  /**
   * Watch outages (each counted once) and further list/watch failures, all retried, since start.
   */
  public long informerErrors() {
    return health.errors();
  }

  /**
   * Lists nodes and non-terminal pods from the API server now and returns how the cache differs:
   * missing or extra nodes and pods, and pods on another node. Empty when they agree.
   */
  @Override
  public List<String> compare() {
    List<String> diffs = new ArrayList<>();
    Set<String> apiNodes = new HashSet<>();
    for (Node n : listings.nodes().list().getItems()) {
      apiNodes.add(n.getMetadata().getName());
    }
    Set<String> cacheNodes = new HashSet<>();
    cache.snapshot().list().forEach(n -> cacheNodes.add(n.name()));
    for (String n : apiNodes) {
      if (!cacheNodes.contains(n)) {
        diffs.add("node " + n + " is in the API but not in the cache");
      }
    }
    for (String n : cacheNodes) {
      if (!apiNodes.contains(n)) {
        diffs.add("node " + n + " is in the cache but not in the API");
      }
    }
    Map<String, Pod> apiPods = new HashMap<>();
    for (Pod p : listings.pods().inAnyNamespace().list().getItems()) {
      if (!terminal(p) && assigned(p)) {
        apiPods.put(p.getMetadata().getUid(), p);
      }
    }
    Map<String, PodInfo> cachePods = new HashMap<>();
    cache.pods().forEach(p -> cachePods.put(p.uid(), p));
    for (Pod p : apiPods.values()) {
      PodInfo c = cachePods.get(p.getMetadata().getUid());
      String key = p.getMetadata().getNamespace() + "/" + p.getMetadata().getName();
      if (c == null) {
        diffs.add(
            "pod "
                + key
                + " on "
                + p.getSpec().getNodeName()
                + " is in the API but not in the cache");
      } else if (!c.nodeName().equals(p.getSpec().getNodeName())) {
        diffs.add(
            "pod "
                + key
                + " is on "
                + p.getSpec().getNodeName()
                + " in the API but on "
                + c.nodeName()
                + " in the cache");
      }
    }
    for (PodInfo c : cachePods.values()) {
      if (!apiPods.containsKey(c.uid()) && !cache.isAssumedPod(c.uid())) {
        diffs.add("pod " + c.key() + " on " + c.nodeName() + " is in the cache but not in the API");
      }
    }
    return diffs;
  }

  /** Stops every informer and closes the client. */
  @Override
  public void close() {
    healthPoller.shutdownNow();
    health.informers().forEach(InformerHandle::stop);
    client.close();
  }

  // ------------------------------------------------------------------------------------------------------ handlers

  /**
   * Drops what no plugin reads, in place, before the object is cached: managed fields and the
   * last-applied annotation (not of PVs and claims: volume binding writes those back whole); for
   * pods the container statuses but those of a resize the scheduler counts ({@link
   * ResizedContainers}) and the containers' env, command, args, probes, lifecycle and mounts; for
   * nodes the conditions, daemon endpoints and system info. Resources, ports, images, volumes,
   * tolerations, affinity, labels and pod conditions (preemption reads DisruptionTarget) stay. Pods
   * and nodes are then compacted ({@link Compaction}).
   */
  static void trim(HasMetadata o) {
    if (o == null || o.getMetadata() == null) {
      return;
    }
    o.getMetadata().setManagedFields(null);
    if (o instanceof PersistentVolume || o instanceof PersistentVolumeClaim) {
      return;
    }
    if (o.getMetadata().getAnnotations() != null
        && o.getMetadata().getAnnotations().containsKey(LAST_APPLIED)) {
      Map<String, String> a = new HashMap<>(o.getMetadata().getAnnotations());
      a.remove(LAST_APPLIED);
      o.getMetadata().setAnnotations(a);
    }
    if (o instanceof Pod p) {
      if (p.getStatus() != null) {
        PodSpec spec = p.getSpec();
        p.getStatus()
            .setContainerStatuses(
                ResizedContainers.kept(
                    p.getStatus().getContainerStatuses(),
                    spec == null ? null : spec.getContainers(),
                    false));
        p.getStatus()
            .setInitContainerStatuses(
                ResizedContainers.kept(
                    p.getStatus().getInitContainerStatuses(),
                    spec == null ? null : spec.getInitContainers(),
                    true));
        p.getStatus().setEphemeralContainerStatuses(null);
      }
      if (p.getSpec() != null) {
        trimContainers(p.getSpec().getContainers());
        trimContainers(p.getSpec().getInitContainers());
        p.getSpec().setEphemeralContainers(null);
      }
      Compaction.compact(p);
    } else if (o instanceof Node n) {
      if (n.getStatus() != null) {
        n.getStatus().setConditions(null);
        n.getStatus().setDaemonEndpoints(null);
        n.getStatus().setNodeInfo(null);
      }
      Compaction.compact(n);
    }
  }

  /**
   * Drops from {@code containers} what a container runs with: the fields the decoders skip ({@code
   * kube/UnreadFields}), for objects that did not come through them.
   */
  static void trimContainers(List<io.fabric8.kubernetes.api.model.Container> containers) {
    if (containers == null) {
      return;
    }
    for (io.fabric8.kubernetes.api.model.Container c : containers) {
      c.setEnv(null);
      c.setEnvFrom(null);
      c.setCommand(null);
      c.setArgs(null);
      c.setLivenessProbe(null);
      c.setReadinessProbe(null);
      c.setStartupProbe(null);
      c.setLifecycle(null);
      c.setVolumeMounts(null);
      c.setVolumeDevices(null);
    }
  }

  private static boolean assigned(Pod p) {
    return p.getSpec() != null
        && p.getSpec().getNodeName() != null
        && !p.getSpec().getNodeName().isEmpty();
  }

  private static boolean terminal(Pod p) {
    String phase = p.getStatus() == null ? null : p.getStatus().getPhase();
    return "Succeeded".equals(phase) || "Failed".equals(phase);
  }

  private void failed(String what, RuntimeException e) {
    handlerErrors.incrementAndGet();
    log.warn("{}: {}", what, e.getMessage());
  }

  private final class NodeEvents implements ResourceEventHandler<Node> {
    @Override
    public void onAdd(Node node) {
      gate.awaitQuiet();
      events.incrementAndGet();
      trim(node);
      cache.addNode(node);
    }

    @Override
    public void onUpdate(Node oldNode, Node newNode) {
      gate.awaitQuiet();
      events.incrementAndGet();
      trim(newNode);
      cache.updateNode(oldNode, newNode);
    }

    @Override
    public void onDelete(Node node, boolean finalStateUnknown) {
      gate.awaitQuiet();
      events.incrementAndGet();
      try {
        cache.removeNode(node);
      } catch (FrameworkException e) {
        failed("removing node " + node.getMetadata().getName(), e);
      }
    }
  }

  private final class PodEvents implements ResourceEventHandler<Pod> {
    @Override
    public void onAdd(Pod pod) {
      gate.awaitQuiet();
      events.incrementAndGet();
      trim(pod);
      if (terminal(pod)) {
        return;
      }
      if (assigned(pod)) {
        addOrUpdateAssigned(pod);
      } else {
        addPending(pod);
      }
    }

    @Override
    public void onUpdate(Pod oldPod, Pod newPod) {
      gate.awaitQuiet();
      events.incrementAndGet();
      trim(newPod);
      String oldUid = oldPod.getMetadata().getUid();
      if (terminal(newPod) || !newPod.getMetadata().getUid().equals(oldUid)) {
        onDelete(oldPod, false);
        if (!terminal(newPod)) {
          onAdd(newPod);
        }
        return;
      }
      boolean wasAssigned = assigned(oldPod);
      boolean isAssigned = assigned(newPod);
      if (isAssigned) {
        removePending(oldPod);
        addOrUpdateAssigned(newPod);
      } else {
        if (wasAssigned) {
          removeAssigned(oldPod);
        }
        addPending(newPod);
      }
    }

    @Override
    public void onDelete(Pod pod, boolean finalStateUnknown) {
      gate.awaitQuiet();
      events.incrementAndGet();
      removePending(pod);
      if (assigned(pod) || cache.getPod(pod.getMetadata().getUid()) != null) {
        removeAssigned(pod);
      }
    }

    /**
     * An assigned pod's add or update event: added, confirmed when assumed, or replacing the cached
     * version.
     */
    private void addOrUpdateAssigned(Pod pod) {
      try {
        cache.addOrUpdatePod(PodInfo.of(pod));
      } catch (FrameworkException | IllegalArgumentException e) {
        failed("adding or updating pod " + key(pod), e);
      }
    }

    private void removeAssigned(Pod pod) {
      PodInfo cached = cache.getPod(pod.getMetadata().getUid());
      if (cached == null) {
        return;
      }
      try {
        cache.removePod(cached);
      } catch (FrameworkException e) {
        failed("removing pod " + key(pod), e);
      }
    }

    private void addPending(Pod pod) {
      String uid = pod.getMetadata().getUid();
      Pod previous = pending.put(uid, pod);
      if (previous != null) {
        unnominate(previous);
      }
      String node = pod.getStatus() == null ? null : pod.getStatus().getNominatedNodeName();
      if (node != null && !node.isEmpty()) {
        try {
          PodInfo info = PodInfo.of(pod);
          nominated.compute(
              node,
              (k, m) -> {
                Map<String, PodInfo> pods = m == null ? new ConcurrentHashMap<>() : m;
                pods.put(uid, info);
                return pods;
              });
        } catch (IllegalArgumentException e) {
          failed("nominated pod " + key(pod), e);
        }
      }
    }

    private void removePending(Pod pod) {
      Pod previous = pending.remove(pod.getMetadata().getUid());
      if (previous != null) {
        unnominate(previous);
      }
    }

    private void unnominate(Pod pod) {
      String node = pod.getStatus() == null ? null : pod.getStatus().getNominatedNodeName();
      if (node != null) {
        // Drop a node's entry with its last pod, so "nothing nominated" stays a cheap check for
        // filters.
        nominated.computeIfPresent(
            node,
            (k, m) -> {
              m.remove(pod.getMetadata().getUid());
              return m.isEmpty() ? null : m;
            });
      }
    }

    private String key(Pod pod) {
      return pod.getMetadata().getNamespace() + "/" + pod.getMetadata().getName();
    }
  }

  private final class StoreEvents<T extends HasMetadata> implements ResourceEventHandler<T> {
    @Override
    public void onAdd(T obj) {
      events.incrementAndGet();
      trim(obj);
      store.put(obj);
    }

    @Override
    public void onUpdate(T oldObj, T newObj) {
      events.incrementAndGet();
      trim(newObj);
      store.put(newObj);
    }

    @Override
    public void onDelete(T obj, boolean finalStateUnknown) {
      events.incrementAndGet();
      store.remove(obj);
    }
  }
}
