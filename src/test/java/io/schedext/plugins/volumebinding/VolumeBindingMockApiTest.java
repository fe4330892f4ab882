package io.schedext.plugins.volumebinding;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.NodeSelectorRequirementBuilder;
import io.fabric8.kubernetes.api.model.NodeSelectorTermBuilder;
import io.fabric8.kubernetes.api.model.ObjectReferenceBuilder;
import io.fabric8.kubernetes.api.model.PersistentVolume;
import io.fabric8.kubernetes.api.model.PersistentVolumeBuilder;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaim;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaimBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.storage.StorageClassBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.schedext.cache.SchedulerCache;
import io.schedext.cluster.KubernetesCluster;
import io.schedext.cluster.ObjectStore;
import io.schedext.framework.CycleState;
import io.schedext.framework.NodeInfo;
import io.schedext.framework.PodInfo;
import io.schedext.framework.Registry;
import io.schedext.framework.Status;
import io.schedext.framework.runtime.Framework;
import io.schedext.plugins.Names;
import io.schedext.testing.MakeNode;
import io.schedext.testing.MakePod;
import io.schedext.testing.MockApi;
import io.schedext.testing.TestFrameworks;
import java.time.Clock;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * VolumeBinding's Reserve, PreBind and Unreserve against fabric8's mock API server in CRUD mode,
 * through the Kubernetes cluster source (informers feeding the object store the caches read, volume
 * writes by PUT). The test plays the PV controller and provisioner through the API; the clock is
 * fake, and after each of PreBind's sleeps the informers are awaited until they hold the API's
 * versions. Every case ends with the caches holding exactly the API's objects, with no assumption
 * left over.
 */
class VolumeBindingMockApiTest {

  static final String NS = "default";
  static final String HOSTNAME = "kubernetes.io/hostname";

  private MockApi mock;
  private KubernetesClient api;
  private KubernetesCluster cluster;
  private ObjectStore store;
  private SchedulerCache cache;
  private FakeTime time;
  private Framework fw;
  private final AtomicReference<VolumeBinding> plugin = new AtomicReference<>();

  @BeforeEach
  void start() {
    mock = new MockApi();
    api = mock.client();
    for (String n : List.of("n1", "n2")) {
      api.nodes()
          .resource(
              MakeNode.node()
                  .name(n)
                  .label(HOSTNAME, n)
                  .capacity(Map.of("cpu", "4", "memory", "8Gi", "pods", "110"))
                  .obj())
          .create();
    }
    api.storage()
        .v1()
        .storageClasses()
        .resource(
            new StorageClassBuilder()
                .withNewMetadata()
                .withName("local")
                .endMetadata()
                .withProvisioner("kubernetes.io/no-provisioner")
                .withVolumeBindingMode("WaitForFirstConsumer")
                .build())
        .create();
    api.storage()
        .v1()
        .storageClasses()
        .resource(
            new StorageClassBuilder()
                .withNewMetadata()
                .withName("fast")
                .endMetadata()
                .withProvisioner("fast.csi.example.com")
                .withVolumeBindingMode("WaitForFirstConsumer")
                .build())
        .create();
    api.persistentVolumes().resource(localVolume("local-pv-1", "n1")).create();
    store = new ObjectStore();
    cache = new SchedulerCache(Clock.systemUTC(), Duration.ofMinutes(5));
    cluster =
        new KubernetesCluster(
            mock.newClient(),
            cache,
            store,
            Clock.systemUTC(),
            Duration.ofSeconds(30),
            Duration.ofSeconds(10));
    time = new FakeTime().afterEachSleep(this::awaitInformers);
    Registry registry =
        new Registry()
            .register(
                Names.VOLUME_BINDING,
                (args, handle) -> {
                  plugin.set(VolumeBinding.create(args, handle, time, time));
                  return plugin.get();
                });
    fw =
        TestFrameworks.framework(
            registry,
            TestFrameworks.services(store, cluster.volumeWriter()),
            List.of(Names.VOLUME_BINDING),
            Map.of(Names.VOLUME_BINDING, "{\"bindTimeoutSeconds\":5}"));
  }

  @AfterEach
  void stop() {
    cluster.close();
    mock.close();
  }

  static PersistentVolume localVolume(String name, String node) {
    return new PersistentVolumeBuilder()
        .withNewMetadata()
        .withName(name)
        .endMetadata()
        .withNewSpec()
        .addToCapacity("storage", new Quantity("10Gi"))
        .withAccessModes("ReadWriteOnce")
        .withStorageClassName("local")
        .withNewLocal()
        .withPath("/mnt/" + name)
        .endLocal()
        .withNewNodeAffinity()
        .withNewRequired()
        .withNodeSelectorTerms(
            new NodeSelectorTermBuilder()
                .withMatchExpressions(
                    new NodeSelectorRequirementBuilder()
                        .withKey(HOSTNAME)
                        .withOperator("In")
                        .withValues(node)
                        .build())
                .build())
        .endRequired()
        .endNodeAffinity()
        .endSpec()
        .withNewStatus()
        .withPhase("Available")
        .endStatus()
        .build();
  }

  private void createClaim(String name, String className, String size) {
    api.persistentVolumeClaims()
        .inNamespace(NS)
        .resource(
            new PersistentVolumeClaimBuilder()
                .withNewMetadata()
                .withName(name)
                .withNamespace(NS)
                .addToAnnotations(
                    "volume.kubernetes.io/storage-provisioner", "fast.csi.example.com")
                .endMetadata()
                .withNewSpec()
                .withAccessModes("ReadWriteOnce")
                .withStorageClassName(className)
                .withNewResources()
                .addToRequests("storage", new Quantity(size))
                .endResources()
                .endSpec()
                .build())
        .create();
  }

  /**
   * Creates the claims and a pending pod using them, starts the informers and returns the pod once
   * synced.
   */
  private PodInfo startWithPod(String... claims) {
    var w = MakePod.pod().name("app").namespace(NS);
    for (String c : claims) {
      w.pvc(c);
    }
    Pod pod = w.obj();
    pod.getMetadata().setUid(null);
    api.pods().inNamespace(NS).resource(pod).create();
    cluster.start();
    await().atMost(Duration.ofSeconds(20)).until(cluster::isReady);
    MockApi.awaitWatchesOpen(cluster);
    awaitInformers();
    return PodInfo.of(api.pods().inNamespace(NS).withName("app").get());
  }

  private List<NodeInfo> nodes() {
    return cache.snapshot().list();
  }

  private NodeInfo node(String name) {
    return cache.snapshot().get(name);
  }

  private PersistentVolume apiPv(String name) {
    return api.persistentVolumes().withName(name).get();
  }

  private PersistentVolumeClaim apiPvc(String name) {
    return api.persistentVolumeClaims().inNamespace(NS).withName(name).get();
  }

  /**
   * Waits until the object store holds every PV and claim of the API at the API's resource version.
   */
  private void awaitInformers() {
    await()
        .atMost(Duration.ofSeconds(10))
        .until(
            () ->
                sameVersions(api.persistentVolumes().list().getItems(), store.persistentVolumes())
                    && sameVersions(
                        api.persistentVolumeClaims().inAnyNamespace().list().getItems(),
                        store.list(PersistentVolumeClaim.class)));
  }

  private static boolean sameVersions(
      List<? extends HasMetadata> apiObjects, List<? extends HasMetadata> stored) {
    if (apiObjects.size() != stored.size()) {
      return false;
    }
    Map<String, String> versions = new HashMap<>();
    stored.forEach(o -> versions.put(AssumeCache.keyOf(o), o.getMetadata().getResourceVersion()));
    return apiObjects.stream()
        .allMatch(
            o -> o.getMetadata().getResourceVersion().equals(versions.get(AssumeCache.keyOf(o))));
  }

  /**
   * The caches hold the API's current objects: same version and content, nothing assumed on top.
   */
  private void assertCachesMatchApi() {
    awaitInformers();
    VolumeAssumeCaches caches = plugin.get().caches();
    for (PersistentVolume pv : api.persistentVolumes().list().getItems()) {
      String name = pv.getMetadata().getName();
      PersistentVolume cached = caches.volume(name);
      assertThat(cached).as(name).isSameAs(caches.pvs().getApiObject(name));
      assertThat(cached.getMetadata().getResourceVersion())
          .as(name)
          .isEqualTo(pv.getMetadata().getResourceVersion());
      assertThat(cached.getSpec()).as(name).isEqualTo(pv.getSpec());
      assertThat(cached.getMetadata().getAnnotations())
          .as(name)
          .isEqualTo(pv.getMetadata().getAnnotations());
    }
    for (PersistentVolumeClaim pvc :
        api.persistentVolumeClaims().inNamespace(NS).list().getItems()) {
      String key = AssumeCache.keyOf(pvc);
      PersistentVolumeClaim cached = caches.claim(NS, pvc.getMetadata().getName());
      assertThat(cached).as(key).isSameAs(caches.pvcs().getApiObject(key));
      assertThat(cached.getMetadata().getResourceVersion())
          .as(key)
          .isEqualTo(pvc.getMetadata().getResourceVersion());
      assertThat(cached.getSpec()).as(key).isEqualTo(pvc.getSpec());
      assertThat(cached.getMetadata().getAnnotations())
          .as(key)
          .isEqualTo(pvc.getMetadata().getAnnotations());
    }
  }

  /**
   * The PV controller binding a pre-bound volume: volume Bound, claim bound to it and
   * bind-completed.
   */
  private void bindVolume(String pvName) {
    PersistentVolume pv = apiPv(pvName);
    api.persistentVolumes()
        .resource(
            new PersistentVolumeBuilder(pv).editStatus().withPhase("Bound").endStatus().build())
        .update();
    PersistentVolumeClaim claim = apiPvc(pv.getSpec().getClaimRef().getName());
    api.persistentVolumeClaims()
        .inNamespace(NS)
        .resource(
            new PersistentVolumeClaimBuilder(claim)
                .editMetadata()
                .addToAnnotations("pv.kubernetes.io/bind-completed", "yes")
                .endMetadata()
                .editSpec()
                .withVolumeName(pvName)
                .endSpec()
                .editOrNewStatus()
                .withPhase("Bound")
                .endStatus()
                .build())
        .update();
  }

  /**
   * A provisioner creating a volume on the selected node for the claim, then the PV controller
   * binding both.
   */
  private void provision(String claimName) {
    PersistentVolumeClaim claim = apiPvc(claimName);
    String node = claim.getMetadata().getAnnotations().get(ClaimRequest.ANN_SELECTED_NODE);
    PersistentVolume pv =
        new PersistentVolumeBuilder(localVolume("pvc-" + claim.getMetadata().getUid(), node))
            .editSpec()
            .withStorageClassName("fast")
            .withLocal(null)
            .withNewCsi()
            .withDriver("fast.csi.example.com")
            .withVolumeHandle("h")
            .endCsi()
            .withClaimRef(
                new ObjectReferenceBuilder()
                    .withNamespace(NS)
                    .withName(claimName)
                    .withUid(claim.getMetadata().getUid())
                    .build())
            .endSpec()
            .build();
    api.persistentVolumes().resource(pv).create();
    bindVolume(pv.getMetadata().getName());
  }

  @Test
  void aStaticBindingIsWrittenAndSucceedsOnceThePvControllerBindsTheClaim() {
    createClaim("data", "local", "5Gi");
    PodInfo pod = startWithPod("data");
    time.at(Duration.ofSeconds(2), () -> bindVolume("local-pv-1"));

    assertThat(BindCycle.run(fw, pod, node("n1"), nodes())).isEqualTo(Status.success());

    assertThat(time.elapsed()).isEqualTo(Duration.ofSeconds(2));
    PersistentVolume pv = apiPv("local-pv-1");
    assertThat(pv.getSpec().getClaimRef().getUid())
        .isEqualTo(apiPvc("data").getMetadata().getUid());
    assertThat(pv.getMetadata().getAnnotations())
        .containsEntry(PodVolumeAssumer.ANN_BOUND_BY_CONTROLLER, "yes");
    assertThat(apiPvc("data").getSpec().getVolumeName()).isEqualTo("local-pv-1");
    assertCachesMatchApi();
  }

  @Test
  void aClaimToProvisionIsAnnotatedAndSucceedsOnceTheProvisionerBindsIt() {
    createClaim("scratch", "fast", "1Gi");
    PodInfo pod = startWithPod("scratch");
    time.at(Duration.ofSeconds(3), () -> provision("scratch"));

    assertThat(BindCycle.run(fw, pod, node("n2"), nodes())).isEqualTo(Status.success());

    assertThat(time.elapsed()).isEqualTo(Duration.ofSeconds(3));
    assertThat(apiPvc("scratch").getMetadata().getAnnotations())
        .containsEntry(ClaimRequest.ANN_SELECTED_NODE, "n2");
    assertThat(apiPvc("scratch").getSpec().getVolumeName()).startsWith("pvc-");
    assertCachesMatchApi();
  }

  @Test
  void aVolumeTakenByAnotherClaimAfterReserveFailsPreBindWithTheApiConflictAndIsNotOfferedAgain() {
    createClaim("data", "local", "5Gi");
    createClaim("other", "local", "5Gi");
    PodInfo pod = startWithPod("data");
    CycleState state = fw.newCycleState(cache.snapshot());
    fw.runPreFilterPlugins(state, pod);
    assertThat(fw.runFilterPlugins(state, pod, node("n1"))).isEqualTo(Status.success());
    PodInfo assumed = pod.assignedTo("n1");
    assertThat(fw.runReservePluginsReserve(state, assumed, "n1")).isEqualTo(Status.success());
    PersistentVolumeClaim other = apiPvc("other");
    api.persistentVolumes()
        .resource(
            new PersistentVolumeBuilder(apiPv("local-pv-1"))
                .editSpec()
                .withClaimRef(
                    new ObjectReferenceBuilder()
                        .withNamespace(NS)
                        .withName("other")
                        .withUid(other.getMetadata().getUid())
                        .build())
                .endSpec()
                .build())
        .update();
    awaitInformers();

    Status s = fw.runPreBindPlugins(state, assumed, "n1");
    fw.runReservePluginsUnreserve(state, assumed, "n1");

    assertThat(s.code()).isEqualTo(io.schedext.framework.Code.ERROR);
    assertThat(s.message())
        .startsWith("running PreBind plugin \"VolumeBinding\": Operation cannot be fulfilled on ")
        .contains("\"local-pv-1\": the object has been modified");
    assertThat(time.sleeps()).isZero();
    assertThat(apiPv("local-pv-1").getSpec().getClaimRef().getName()).isEqualTo("other");
    assertCachesMatchApi();
    assertThat(BindCycle.run(fw, pod, node("n1"), nodes()))
        .isEqualTo(
            Status.unresolvable(VolumeFinder.ERR_REASON_BIND_CONFLICT)
                .withPlugin(Names.VOLUME_BINDING));
  }

  @Test
  void aClaimChangedAfterReserveConflictsAndTheVolumeAlreadyWrittenStaysSo() {
    createClaim("data", "local", "5Gi");
    createClaim("scratch", "fast", "1Gi");
    PodInfo pod = startWithPod("data", "scratch");
    CycleState state = fw.newCycleState(cache.snapshot());
    fw.runPreFilterPlugins(state, pod);
    assertThat(fw.runFilterPlugins(state, pod, node("n1"))).isEqualTo(Status.success());
    PodInfo assumed = pod.assignedTo("n1");
    assertThat(fw.runReservePluginsReserve(state, assumed, "n1")).isEqualTo(Status.success());
    api.persistentVolumeClaims()
        .inNamespace(NS)
        .resource(
            new PersistentVolumeClaimBuilder(apiPvc("scratch"))
                .editMetadata()
                .addToLabels("touched", "yes")
                .endMetadata()
                .build())
        .update();
    awaitInformers();

    Status s = fw.runPreBindPlugins(state, assumed, "n1");
    fw.runReservePluginsUnreserve(state, assumed, "n1");

    assertThat(s.message())
        .startsWith("running PreBind plugin \"VolumeBinding\": Operation cannot be fulfilled on ")
        .contains("\"scratch\": the object has been modified");
    assertThat(apiPv("local-pv-1").getSpec().getClaimRef().getName()).isEqualTo("data");
    assertThat(apiPvc("scratch").getMetadata().getAnnotations())
        .doesNotContainKey(ClaimRequest.ANN_SELECTED_NODE);
    assertCachesMatchApi();
  }

  @Test
  void aClaimNeverBoundTimesOutAfterBindTimeoutSeconds() {
    createClaim("data", "local", "5Gi");
    PodInfo pod = startWithPod("data");

    assertThat(BindCycle.run(fw, pod, node("n1"), nodes()))
        .isEqualTo(
            Status.error(
                "running PreBind plugin \"VolumeBinding\": binding volumes: context deadline exceeded"));

    assertThat(time.elapsed()).isEqualTo(Duration.ofSeconds(5));
    assertThat(apiPv("local-pv-1").getSpec().getClaimRef().getName()).isEqualTo("data");
    assertCachesMatchApi();
  }

  @Test
  void aClaimReferenceDroppedByThePvControllerFails() {
    createClaim("data", "local", "5Gi");
    PodInfo pod = startWithPod("data");
    time.at(
        Duration.ofSeconds(2),
        () ->
            api.persistentVolumes()
                .resource(
                    new PersistentVolumeBuilder(apiPv("local-pv-1"))
                        .editSpec()
                        .withClaimRef(null)
                        .endSpec()
                        .build())
                .update());

    assertThat(BindCycle.run(fw, pod, node("n1"), nodes()))
        .isEqualTo(
            Status.error(
                "running PreBind plugin "
                    + "\"VolumeBinding\": binding volumes: ClaimRef got reset for pv \"local-pv-1\""));

    assertThat(time.elapsed()).isEqualTo(Duration.ofSeconds(2));
    assertCachesMatchApi();
  }

  @Test
  void aProvisionerDroppingTheSelectedNodeFails() {
    createClaim("scratch", "fast", "1Gi");
    PodInfo pod = startWithPod("scratch");
    time.at(
        Duration.ofSeconds(2),
        () ->
            api.persistentVolumeClaims()
                .inNamespace(NS)
                .resource(
                    new PersistentVolumeClaimBuilder(apiPvc("scratch"))
                        .editMetadata()
                        .removeFromAnnotations(ClaimRequest.ANN_SELECTED_NODE)
                        .endMetadata()
                        .build())
                .update());

    assertThat(BindCycle.run(fw, pod, node("n1"), nodes()))
        .isEqualTo(
            Status.error(
                "running PreBind plugin "
                    + "\"VolumeBinding\": binding volumes: provisioning failed for PVC \"scratch\""));
    assertCachesMatchApi();
  }

  @Test
  void aPodDeletedWhileWaitingFails() {
    createClaim("data", "local", "5Gi");
    PodInfo pod = startWithPod("data");
    time.at(
        Duration.ofSeconds(3),
        () -> {
          api.pods().inNamespace(NS).withName("app").delete();
          await()
              .atMost(Duration.ofSeconds(10))
              .until(() -> !cluster.volumeWriter().podExists(NS, "app"));
        });

    assertThat(BindCycle.run(fw, pod, node("n1"), nodes()))
        .isEqualTo(
            Status.error(
                "running PreBind plugin "
                    + "\"VolumeBinding\": binding volumes: pod does not exist any more: pod \"app\" not found"));
    assertThat(time.elapsed()).isEqualTo(Duration.ofSeconds(3));
    assertCachesMatchApi();
  }
}
