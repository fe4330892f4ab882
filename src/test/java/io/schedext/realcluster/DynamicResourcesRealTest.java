package io.schedext.realcluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodCondition;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceRequestAllocationResult;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.schedext.testing.Http;
import io.schedext.testing.realcluster.ControlPlane;
import io.schedext.testing.realcluster.DraObjects;
import io.schedext.testing.realcluster.KubeScheduler;
import io.schedext.testing.realcluster.KubeScheduler.Extender;
import io.schedext.testing.realcluster.KubeScheduler.OwnPlugins;
import io.schedext.testing.realcluster.RealCluster;
import io.schedext.testing.realcluster.RealClusterExtension;
import io.schedext.testing.realcluster.RealClusterTest;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * Pods with ResourceClaims through a real kube-scheduler and the extender, on a control plane that
 * serves {@code resource.k8s.io/v1} (1.34 and later; the class is skipped on older ones).
 * ResourceSlices of a made-up driver are published through the API for a few nodes (no kubelet, no
 * driver). Each test checks that pods land only where their devices are, that no device is
 * allocated twice, and that explain by name names the request of the pod that fits nowhere:
 *
 * <ul>
 *   <li>kube-scheduler's own DynamicResources on, the extender filtering: both decide, and
 *       kube-scheduler allocates and writes the claims when it binds;
 *   <li>kube-scheduler's DynamicResources off, the extender binding: the extender alone decides,
 *       and its PreBind writes the allocations (two pods sharing a claim land on its device's
 *       node);
 *   <li>both on, the extender binding: kube-scheduler's PreBind allocates before it calls the
 *       extender's bind, which takes the claim as kube-scheduler wrote it.
 * </ul>
 */
@RealCluster
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
@DirtiesContext(classMode = DirtiesContext.ClassMode.AFTER_CLASS)
class DynamicResourcesRealTest {

  static final String DRIVER = "gpu.example.com";
  static final String CLASS = "gpu.example.com";
  static final Duration PATIENCE = Duration.ofSeconds(60);

  /** The versions already told about the skip, so each says so once. */
  private static final Set<String> TOLD = ConcurrentHashMap.newKeySet();

  @Value("${local.server.port}")
  int port;

  ControlPlane cp;
  KubernetesClient api;
  Http http;

  @DynamicPropertySource
  static void properties(DynamicPropertyRegistry registry) {
    Workloads.watchAsDeployed(RealClusterExtension.get(), registry);
  }

  @BeforeEach
  void ready() {
    cp = RealClusterExtension.get();
    boolean served = cp.assets().minor() >= 34;
    if (!served && TOLD.add(cp.assets().version())) {
      System.err.println(
          "DynamicResourcesRealTest skipped on "
              + cp.assets().version()
              + ": it needs resource.k8s.io/v1, served from Kubernetes 1.34 (docs/testing.md)");
    }
    Assumptions.assumeTrue(
        served, "resource.k8s.io/v1 is served from 1.34; this is " + cp.assets().version());
    api = cp.client();
    http = new Http(port);
    await().atMost(PATIENCE).until(() -> http.get("/actuator/health/readiness").status() == 200);
    if (api.dynamicResourceAllocation().v1().deviceClasses().withName(CLASS).get() == null) {
      DraObjects.deviceClass(api, CLASS);
    }
  }

  @AfterEach
  void cacheEqualsTheApiAndNothingWasRefused() {
    if (http == null) {
      return;
    }
    await()
        .atMost(PATIENCE)
        .untilAsserted(
            () -> {
              JsonNode compare = http.get("/debug/cache/compare").json();
              assertThat(compare.get("equal").asBoolean()).as("cache vs API: %s", compare).isTrue();
            });
    assertThat(cp.audited(RealLoopTest.EXTENDER_USER))
        .as("requests of the extender the API server refused")
        .filteredOn(r -> r.code() == 401 || r.code() == 403)
        .isEmpty();
  }

  private String extenderUrl() {
    return "http://127.0.0.1:" + port + "/scheduler";
  }

  /** Publishes {@code devices} devices of the driver on {@code node} (a pool of its own). */
  private void publish(String node, int devices) {
    DraObjects.publish(api, DRIVER, node, devices, "demo");
  }

  /** A claim in the scope's namespace for {@code count} devices of the class. */
  private void claim(Workloads w, String name, long count) {
    DraObjects.claim(api, w.id(), name, CLASS, count);
  }

  /** A pod of the scope using claim {@code claim}. */
  private Pod podWithClaim(Workloads w, String name, String claim) {
    return w.create(
        w.pod(name, "100m")
            .editSpec()
            .addNewResourceClaim()
            .withName("gpu")
            .withResourceClaimName(claim)
            .endResourceClaim()
            .editFirstContainer()
            .editResources()
            .addNewClaim()
            .withName("gpu")
            .endClaim()
            .endResources()
            .endContainer()
            .endSpec());
  }

  private ResourceClaim claimOf(Workloads w, String name) {
    return api.dynamicResourceAllocation()
        .v1()
        .resourceClaims()
        .inNamespace(w.id())
        .withName(name)
        .get();
  }

  private static List<String> devices(ResourceClaim c) {
    if (c.getStatus() == null || c.getStatus().getAllocation() == null) {
      return List.of();
    }
    List<String> out = new ArrayList<>();
    for (DeviceRequestAllocationResult r :
        c.getStatus().getAllocation().getDevices().getResults()) {
      out.add(r.getPool() + "/" + r.getDevice());
    }
    return out;
  }

  private static List<String> reservedFor(ResourceClaim c) {
    return c.getStatus() == null || c.getStatus().getReservedFor() == null
        ? List.of()
        : c.getStatus().getReservedFor().stream().map(r -> r.getName()).toList();
  }

  /**
   * Three devices on two nodes, a node without any, four pods with a claim for one device each:
   * three land, each on a node with a free device and with a device of its own; the fourth stays
   * pending, and explain names its claim's request.
   */
  private void threeDevicesForFourPods(
      Workloads w, KubeScheduler.Extender extender, OwnPlugins own) {
    String a = w.node("gpu-a", "4");
    String b = w.node("gpu-b", "4");
    String none = w.node("cpu", "4");
    publish(a, 2);
    publish(b, 1);
    IntStream.rangeClosed(1, 4).forEach(i -> claim(w, "claim-" + i, 1));
    try (KubeScheduler ks = KubeScheduler.start(cp, extender, own)) {
      IntStream.rangeClosed(1, 4).forEach(i -> podWithClaim(w, "p" + i, "claim-" + i));
      await()
          .atMost(PATIENCE)
          .untilAsserted(
              () ->
                  assertThat(w.pods())
                      .filteredOn(p -> p.getSpec().getNodeName() != null)
                      .hasSize(3));
      List<Pod> bound = w.pods().stream().filter(p -> p.getSpec().getNodeName() != null).toList();
      assertThat(bound).extracting(p -> p.getSpec().getNodeName()).doesNotContain(none);
      assertThat(bound.stream().filter(p -> p.getSpec().getNodeName().equals(a))).hasSize(2);
      List<String> allocated = new ArrayList<>();
      for (Pod p : bound) {
        String claim = p.getSpec().getResourceClaims().get(0).getResourceClaimName();
        await()
            .atMost(PATIENCE)
            .untilAsserted(
                () ->
                    assertThat(reservedFor(claimOf(w, claim)))
                        .containsExactly(p.getMetadata().getName()));
        ResourceClaim c = claimOf(w, claim);
        assertThat(devices(c)).as("devices of %s", claim).hasSize(1);
        assertThat(devices(c).get(0)).startsWith(p.getSpec().getNodeName() + "/");
        allocated.addAll(devices(c));
      }
      assertThat(allocated).as("every device allocated once").doesNotHaveDuplicates().hasSize(3);

      Pod pending =
          w.pods().stream()
              .filter(p -> p.getSpec().getNodeName() == null)
              .findFirst()
              .orElseThrow();
      String claim = pending.getSpec().getResourceClaims().get(0).getResourceClaimName();
      await()
          .atMost(PATIENCE)
          .untilAsserted(
              () -> {
                JsonNode e =
                    http.get("/scheduler/explain/" + w.id() + "/" + pending.getMetadata().getName())
                        .json();
                assertThat(e.get("feasibleNodes")).isEmpty();
                JsonNode onA = null;
                for (JsonNode n : e.get("nodes")) {
                  if (n.get("node").asText().equals(a)) {
                    for (JsonNode f : n.get("filters")) {
                      if (f.get("plugin").asText().equals("DynamicResources")) {
                        onA = f;
                      }
                    }
                  }
                }
                assertThat(onA).isNotNull();
                assertThat(onA.at("/reasons/0").asText()).isEqualTo("cannot allocate all claims");
                assertThat(onA.at("/detail/data/claim").asText()).isEqualTo(w.id() + "/" + claim);
                assertThat(onA.at("/detail/data/request").asText()).isEqualTo("gpu");
                assertThat(onA.at("/detail/data/requests/0/devicesOfClass").asInt()).isEqualTo(2);
                assertThat(onA.at("/detail/data/requests/0/allocated").asInt()).isEqualTo(2);
              });
      String text =
          http.get(
                  "/scheduler/explain/"
                      + w.id()
                      + "/"
                      + pending.getMetadata().getName()
                      + "?format=text")
              .body();
      assertThat(text)
          .contains(
              "claim " + w.id() + "/" + claim + ", request gpu: wants 1 device of class " + CLASS);
    }
  }

  @RealClusterTest
  void withKubeSchedulersOwnPluginTheExtenderFiltersAndKubeSchedulerAllocates() {
    Workloads w = Workloads.scope(api, "dra-filter");
    threeDevicesForFourPods(
        w, Extender.filterAndPrioritize(extenderUrl()), OwnPlugins.EXTENDER_DECIDES);
    // The pod that fits nowhere: kube-scheduler's event text is the extender's summary.
    Pod pending =
        w.pods().stream().filter(p -> p.getSpec().getNodeName() == null).findFirst().orElseThrow();
    String summary =
        http.get("/scheduler/explain/" + w.id() + "/" + pending.getMetadata().getName())
            .json()
            .get("summary")
            .asText();
    PodCondition condition =
        Workloads.scheduledCondition(w.get(pending.getMetadata().getName())).orElseThrow();
    assertThat(condition.getMessage()).isEqualTo(summary);
  }

  @RealClusterTest
  void withTheExtenderAloneDecidingAndBindingItsPreBindWritesTheAllocations() {
    Workloads w = Workloads.scope(api, "dra-bind");
    OwnPlugins extenderOnly = OwnPlugins.EXTENDER_DECIDES.withoutDynamicResources();
    threeDevicesForFourPods(
        w, Extender.filterAndPrioritize(extenderUrl()).withBind(), extenderOnly);

    // Two pods sharing one claim land where its device is, both reserved (a scope of their own:
    // the pod left pending above would take the new device).
    Workloads s = Workloads.scope(api, "dra-shared");
    String c = s.node("shared", "4");
    publish(c, 1);
    claim(s, "shared", 1);
    try (KubeScheduler ks =
        KubeScheduler.start(
            cp, Extender.filterAndPrioritize(extenderUrl()).withBind(), extenderOnly)) {
      podWithClaim(s, "s1", "shared");
      podWithClaim(s, "s2", "shared");
      await()
          .atMost(PATIENCE)
          .untilAsserted(
              () -> {
                assertThat(s.nodeOf("s1")).isEqualTo(c);
                assertThat(s.nodeOf("s2")).isEqualTo(c);
                assertThat(reservedFor(claimOf(s, "shared"))).containsExactlyInAnyOrder("s1", "s2");
              });
      assertThat(devices(claimOf(s, "shared"))).containsExactly(c + "/gpu-0");
      assertThat(claimOf(s, "shared").getMetadata().getFinalizers())
          .containsExactly("resource.kubernetes.io/delete-protection");
    }
  }

  @RealClusterTest
  void withBothPluginsAndTheExtenderBindingKubeSchedulersAllocationStands() {
    Workloads w = Workloads.scope(api, "dra-both");
    threeDevicesForFourPods(
        w, Extender.filterAndPrioritize(extenderUrl()).withBind(), OwnPlugins.EXTENDER_DECIDES);
  }
}
