package io.schedext.cluster;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.WatchEvent;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceSlice;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.Informable;
import io.fabric8.kubernetes.client.http.HttpClient;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import io.schedext.cache.EventGate;
import io.schedext.cache.SchedulerCache;
import io.schedext.framework.PodBinder;
import io.schedext.framework.PodInfo;
import io.schedext.framework.PodNominator;
import io.schedext.framework.ResourceClaimWriter;
import io.schedext.framework.VolumeWriter;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A real cluster, seen through fabric8 shared informers, and the informers' life cycle: nodes and
 * assigned pods feed the scheduler cache, unassigned pods are kept for bind and for nominations
 * ({@link PendingPods}), and Services, Namespaces, volumes, storage, PDBs, controllers and (where
 * the API server serves resource.k8s.io/v1) ResourceClaims, DeviceClasses and ResourceSlices feed
 * the object store, all through {@link ClusterEventHandlers}, which trim what no plugin reads
 * ({@link Trim}). Ready once every informer has synced; not ready while a watch has been down, or
 * the API server has not answered ({@link ApiProbe}), for longer than the grace period. Binds go
 * through {@link KubernetesBinder}, volume writes through {@link KubernetesVolumeWriter}, claim
 * writes through {@link KubernetesClaimWriter}, all bounded by the bind timeout; {@link #compare()}
 * through {@link CacheComparer}. Thread-safe.
 */
public final class KubernetesCluster implements ClusterSource {

  private static final Logger log = LoggerFactory.getLogger(KubernetesCluster.class);

  private final KubernetesClient client;

  /** The client for API reads a request waits on: bounded, never retried. */
  private final KubernetesClient lookups;

  private final SchedulerCache cache;
  private final Clock clock;
  private final KubernetesBinder binder;
  private final KubernetesVolumeWriter volumeWriter;
  private final KubernetesClaimWriter claimWriter;
  private final WatchHealth health;
  private final ScheduledExecutorService healthPoller =
      Executors.newSingleThreadScheduledExecutor(
          r -> {
            Thread t = new Thread(r, "watch-health");
            t.setDaemon(true);
            return t;
          });
  private final PendingPods pending = new PendingPods();
  private final ClusterEventHandlers handlers;
  private final CacheComparer comparer;
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
    this.client = client;
    this.lookups = KubernetesClients.bounded(client, requestTimeout);
    this.comparer = new CacheComparer(client, cache);
    this.cache = cache;
    this.handlers = new ClusterEventHandlers(cache, store, pending, gate);
    this.clock = clock;
    this.health = new WatchHealth(clock, syncGrace);
    health.probe(new ApiProbe(clock, syncGrace, this::askVersion));
    this.binder = new KubernetesBinder(client, bindTimeout, requestTimeout);
    this.volumeWriter = new KubernetesVolumeWriter(client, bindTimeout, pending::contains);
    this.claimWriter = new KubernetesClaimWriter(client, bindTimeout);
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
    add("Node", client.nodes(), handlers.nodes());
    add(
        "Pod",
        client
            .pods()
            .inAnyNamespace()
            .withoutField("status.phase", "Succeeded")
            .withoutField("status.phase", "Failed"),
        handlers.pods());
    add("Service", client.services().inAnyNamespace(), handlers.toStore());
    add("Namespace", client.namespaces(), handlers.toStore());
    add("PersistentVolume", client.persistentVolumes(), handlers.toStore());
    add(
        "PersistentVolumeClaim",
        client.persistentVolumeClaims().inAnyNamespace(),
        handlers.toStore());
    add("StorageClass", client.storage().v1().storageClasses(), handlers.toStore());
    add("CSINode", client.storage().v1().csiNodes(), handlers.toStore());
    add("CSIDriver", client.storage().v1().csiDrivers(), handlers.toStore());
    add(
        "CSIStorageCapacity",
        client.storage().v1().csiStorageCapacities().inAnyNamespace(),
        handlers.toStore());
    add("VolumeAttachment", client.storage().v1().volumeAttachments(), handlers.toStore());
    add(
        "PodDisruptionBudget",
        client.policy().v1().podDisruptionBudget().inAnyNamespace(),
        handlers.toStore());
    add("ReplicaSet", client.apps().replicaSets().inAnyNamespace(), handlers.toStore());
    add("StatefulSet", client.apps().statefulSets().inAnyNamespace(), handlers.toStore());
    add(
        "ReplicationController",
        client.replicationControllers().inAnyNamespace(),
        handlers.toStore());
    if (servesResourceV1()) {
      var dra = client.dynamicResourceAllocation().v1();
      add("ResourceClaim", dra.resourceClaims().inAnyNamespace(), handlers.toStore());
      add("DeviceClass", dra.deviceClasses(), handlers.toStore());
      add("ResourceSlice", dra.resourcesSlices(), handlers.toStore());
    } else {
      log.info(
          "The API server does not serve resource.k8s.io/v1 (Kubernetes before 1.34, or the group"
              + " turned off): DynamicResources sees no ResourceClaims, DeviceClasses nor"
              + " ResourceSlices, so pods that reference claims cannot be scheduled");
    }
    CompletableFuture.allOf(
            health.informers().stream()
                .map(InformerHandle::start)
                .toArray(CompletableFuture[]::new))
        .thenRun(() -> whenSynced.run());
    // Sampled every second whatever polls readiness, so an outage is timed from when it began.
    healthPoller.scheduleWithFixedDelay(health::poll, 1, 1, TimeUnit.SECONDS);
    log.info("Watching {} kinds on {}", health.informers().size(), client.getMasterUrl());
  }

  /**
   * Whether the API server serves resource.k8s.io/v1 (GA in 1.34): watching it elsewhere would keep
   * the source from ever being ready. Asked once, at start; a failed discovery counts as no.
   */
  private boolean servesResourceV1() {
    try {
      return client.supports(ResourceSlice.class);
    } catch (KubernetesClientException e) {
      log.warn("Discovery of resource.k8s.io/v1 failed: {}", e.getMessage());
      return false;
    }
  }

  /**
   * {@code GET /version} on the watches' client, answered by any API server that is reachable (it
   * needs no permission beyond being authenticated): {@link ApiProbe}'s question.
   */
  private CompletableFuture<?> askVersion() {
    HttpClient http = client.getHttpClient();
    return http.sendAsync(
        http.newHttpRequestBuilder()
            .uri(client.getMasterUrl().toString().replaceAll("/+$", "") + "/version")
            .timeout(ApiProbe.TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)
            .build(),
        String.class);
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

  @Override
  public boolean watches() {
    return true;
  }

  @Override
  public void readWatchEvents(List<String> events, int times) {
    KubernetesSerialization serialization = client.getKubernetesSerialization();
    for (int i = 0; i < times; i++) {
      for (String event : events) {
        readWithoutKeeping(serialization, event);
      }
    }
  }

  private static void readWithoutKeeping(KubernetesSerialization serialization, String json) {
    if (serialization.unmarshal(json, WatchEvent.class).getObject() instanceof Pod decoded) {
      Trim.object(decoded);
      if (!ClusterEventHandlers.terminal(decoded) && ClusterEventHandlers.assigned(decoded)) {
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

  @Override
  public ResourceClaimWriter claimWriter() {
    return claimWriter;
  }

  @Override
  public PodNominator nominator() {
    return pending.nominator();
  }

  @Override
  public List<Pod> pendingPods() {
    return pending.list();
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
      log.warn("Looking up pod {}/{} failed: {}", namespace, name, why(e));
      return null;
    }
  }

  /**
   * What went wrong, in a few words for a log line: the exception's message, or the first cause's
   * that has one, with its type (the client's own exception for a cancelled or interrupted call has
   * no message: a log line saying "failed: null" told nobody anything), followed by the root cause
   * when that is another one (the client's message for a failed request names only the request:
   * "Operation: [get] for kind: [Pod] ... failed.", and the connection refused under it is what
   * went wrong).
   */
  static String why(Throwable e) {
    String said = null;
    Throwable sayer = null;
    Throwable root = e;
    for (Throwable t = e; t != null; t = t.getCause()) {
      root = t;
      if (said == null && t.getMessage() != null && !t.getMessage().isBlank()) {
        said = t == e ? t.getMessage() : t.getClass().getSimpleName() + ": " + t.getMessage();
        sayer = t;
      }
    }
    if (said == null) {
      return root.getClass().getSimpleName();
    }
    if (root == sayer) {
      return said;
    }
    String rootMessage = root.getMessage();
    return said
        + " ("
        + root.getClass().getSimpleName()
        + (rootMessage == null || rootMessage.isBlank() ? "" : ": " + rootMessage)
        + ")";
  }

  /** Events handled since start. */
  public long events() {
    return handlers.events();
  }

  /** Handler failures (cache transitions refused and repaired) since start. */
  public long handlerErrors() {
    return handlers.handlerErrors();
  }

  /**
   * Watch outages (each counted once) and further list/watch failures, all retried, since start.
   */
  public long informerErrors() {
    return health.errors();
  }

  /**
   * Lists nodes and non-terminal pods from the API server now and returns how the cache differs
   * ({@link CacheComparer}). Empty when they agree.
   */
  @Override
  public List<String> compare() {
    return comparer.compare();
  }

  /** Stops every informer and closes the client. */
  @Override
  public void close() {
    healthPoller.shutdownNow();
    health.informers().forEach(InformerHandle::stop);
    client.close();
  }
}
