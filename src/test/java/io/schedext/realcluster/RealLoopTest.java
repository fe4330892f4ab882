package io.schedext.realcluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import io.fabric8.kubernetes.api.model.IntOrString;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodCondition;
import io.fabric8.kubernetes.api.model.policy.v1.PodDisruptionBudgetBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.schedext.testing.Http;
import io.schedext.testing.realcluster.ControlPlane;
import io.schedext.testing.realcluster.ControlPlane.AuditedRequest;
import io.schedext.testing.realcluster.KubeScheduler;
import io.schedext.testing.realcluster.KubeScheduler.Extender;
import io.schedext.testing.realcluster.KubeScheduler.OwnPlugins;
import io.schedext.testing.realcluster.OnEachVersion;
import io.schedext.testing.realcluster.RealCluster;
import io.schedext.testing.realcluster.RealClusterExtension;
import io.schedext.testing.realcluster.RealClusterTest;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ArgumentsSource;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * The loop users run: a real kube-scheduler (each supported version) calls the running service as
 * its extender, against a real kube-apiserver, and the service watches that API server with the
 * token of the ServiceAccount that {@code deployment/base} creates and binds.
 *
 * <p>kube-scheduler's own resource filter and scorers are turned off where a test is about the
 * extender's decision, so the placement can only come from the extender: with them on,
 * kube-scheduler would reach the same answer alone.
 */
@RealCluster
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
@DirtiesContext(classMode = DirtiesContext.ClassMode.AFTER_CLASS)
class RealLoopTest {

  static final String EXTENDER_USER =
      ControlPlane.serviceAccountUser(Workloads.EXTENDER_NAMESPACE, Workloads.EXTENDER_ACCOUNT);
  static final Duration PATIENCE = Duration.ofSeconds(60);

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
    api = cp.client();
    http = new Http(port);
    await().atMost(PATIENCE).until(() -> http.get("/actuator/health/readiness").status() == 200);
  }

  @AfterEach
  void cacheEqualsTheApiAndNothingWasRefused() {
    await()
        .atMost(PATIENCE)
        .untilAsserted(
            () -> {
              JsonNode compare = http.get("/debug/cache/compare").json();
              assertThat(compare.get("equal").asBoolean()).as("cache vs API: %s", compare).isTrue();
            });
    assertThat(cp.audited(EXTENDER_USER))
        .as("requests of the extender the API server refused")
        .filteredOn(r -> r.code() == 401 || r.code() == 403)
        .isEmpty();
  }

  private String extenderUrl() {
    return "http://127.0.0.1:" + port + "/scheduler";
  }

  @ParameterizedTest(name = "{0}")
  @ArgumentsSource(OnEachVersion.NodeCacheCapable.class)
  void aNodeTheExtenderRejectsNeverGetsThePod(boolean nodeCacheCapable) {
    Workloads w = Workloads.scope(api, "reject");
    List<String> small =
        List.of(w.node("small-a", "1"), w.node("small-b", "1"), w.node("small-c", "1"));
    String big = w.node("big", "4");
    try (KubeScheduler ks =
        KubeScheduler.start(
            cp,
            Extender.filterAndPrioritize(extenderUrl()).nodeCacheCapable(nodeCacheCapable),
            OwnPlugins.EXTENDER_DECIDES)) {
      // 1100m fits only the 4-CPU node, three times over; kube-scheduler alone would pick among
      // four at random.
      IntStream.rangeClosed(1, 3).forEach(i -> w.create(w.pod("p" + i, "1100m")));
      await()
          .atMost(PATIENCE)
          .untilAsserted(
              () ->
                  assertThat(w.pods())
                      .extracting(p -> p.getSpec().getNodeName())
                      .containsOnly(big));
    }
    assertThat(small)
        .allSatisfy(n -> assertThat(w.pods()).noneMatch(p -> n.equals(p.getSpec().getNodeName())));
  }

  @ParameterizedTest(name = "{0}")
  @ArgumentsSource(OnEachVersion.NodeCacheCapable.class)
  void thePrioritizedNodeWinsATie(boolean nodeCacheCapable) {
    Workloads w = Workloads.scope(api, "tie");
    String free = w.node("free", "4");
    for (String busy : List.of("busy-a", "busy-b", "busy-c")) {
      String node = w.node(busy, "4");
      w.create(w.pod("load-" + busy, "2").editSpec().withNodeName(node).endSpec());
    }
    try (KubeScheduler ks =
        KubeScheduler.start(
            cp,
            Extender.filterAndPrioritize(extenderUrl()).nodeCacheCapable(nodeCacheCapable),
            OwnPlugins.EXTENDER_DECIDES)) {
      // Every node fits and kube-scheduler scores none: only the extender's scores (least
      // allocated, balanced) separate the empty node from the three half-full ones.
      for (int i = 1; i <= 3; i++) {
        String name = "p" + i;
        w.create(w.pod(name, "100m"));
        await().atMost(PATIENCE).until(() -> w.nodeOf(name) != null);
        assertThat(w.nodeOf(name)).as("placement of %s", name).isEqualTo(free);
      }
    }
  }

  @RealClusterTest
  void aBurstThroughTheExtendersBindFillsTheNodeExactly() {
    Workloads w = Workloads.scope(api, "burst");
    String node = w.node("one-cpu", "1");
    try (KubeScheduler ks =
        KubeScheduler.start(
            cp,
            Extender.filterAndPrioritize(extenderUrl()).withBind(),
            OwnPlugins.EXTENDER_DECIDES)) {
      // Five pods of 300m at once: only the extender counts what it has bound and not yet seen
      // through its watch.
      IntStream.rangeClosed(1, 5).forEach(i -> w.create(w.pod("p" + i, "300m")));
      await()
          .atMost(PATIENCE)
          .untilAsserted(
              () -> {
                List<Pod> pods = w.pods();
                assertThat(pods).filteredOn(p -> node.equals(p.getSpec().getNodeName())).hasSize(3);
                assertThat(pods)
                    .filteredOn(p -> p.getSpec().getNodeName() == null)
                    .hasSize(2)
                    .allSatisfy(
                        p ->
                            assertThat(Workloads.scheduledCondition(p))
                                .get()
                                .satisfies(c -> assertThat(c.getStatus()).isEqualTo("False"))
                                .extracting(PodCondition::getMessage)
                                .asString()
                                .contains("Insufficient cpu"));
              });
    }
    List<AuditedRequest> bindings =
        cp.audited(EXTENDER_USER).stream()
            .filter(
                r ->
                    r.verb().equals("create")
                        && r.subresource().equals("binding")
                        && r.uri().contains("/namespaces/" + w.id() + "/"))
            .toList();
    assertThat(bindings)
        .as("Bindings the extender posted")
        .hasSize(3)
        .allSatisfy(r -> assertThat(r.code()).isEqualTo(201));
  }

  @RealClusterTest
  void preemptionEvictsTheVictimsDefaultPreemptionPicksAndRespectsTheBudget() {
    Workloads w = Workloads.scope(api, "preempt");
    String node = w.node("two-cpu", "2");
    w.priorityClass(w.id() + "-low", 10);
    w.priorityClass(w.id() + "-mid", 20);
    w.priorityClass(w.id() + "-high", 1000);
    w.create(
        w.pod("guarded", "1")
            .editMetadata()
            .withLabels(Map.of("app", "guarded"))
            .endMetadata()
            .editSpec()
            .withNodeName(node)
            .withPriorityClassName(w.id() + "-low")
            .endSpec());
    w.create(
        w.pod("unguarded", "1")
            .editSpec()
            .withNodeName(node)
            .withPriorityClassName(w.id() + "-mid")
            .endSpec());
    // No disruption controller runs: the budget's status (no disruption allowed) is written here,
    // as it would compute.
    api.policy()
        .v1()
        .podDisruptionBudget()
        .inNamespace(w.id())
        .resource(
            new PodDisruptionBudgetBuilder()
                .withNewMetadata()
                .withName("guarded")
                .endMetadata()
                .withNewSpec()
                .withMinAvailable(new IntOrString(1))
                .withNewSelector()
                .withMatchLabels(Map.of("app", "guarded"))
                .endSelector()
                .endSpec()
                .build())
        .create();
    api.policy()
        .v1()
        .podDisruptionBudget()
        .inNamespace(w.id())
        .withName("guarded")
        .editStatus(
            pdb ->
                new PodDisruptionBudgetBuilder(pdb)
                    .withNewStatus()
                    .withCurrentHealthy(1)
                    .withDesiredHealthy(1)
                    .withExpectedPods(1)
                    .withDisruptionsAllowed(0)
                    .withObservedGeneration(1L)
                    .endStatus()
                    .build());
    await()
        .atMost(PATIENCE)
        .untilAsserted(
            () ->
                assertThat(http.get("/debug/cache/compare").json().get("equal").asBoolean())
                    .isTrue());

    try (KubeScheduler ks =
        KubeScheduler.start(
            cp, Extender.filterAndPrioritize(extenderUrl()).withPreempt(), OwnPlugins.ALL)) {
      w.create(w.pod("urgent", "1").editSpec().withPriorityClassName(w.id() + "-high").endSpec());
      // Removing either victim makes room; the budget protects the lower-priority pod, so the other
      // one goes.
      await().atMost(PATIENCE).until(() -> node.equals(w.nodeOf("urgent")));
    }
    assertThat(w.get("unguarded")).as("the victim").isNull();
    assertThat(w.get("guarded")).as("the pod its budget protects").isNotNull();
  }

  @RealClusterTest
  void theExtenderWatchesWithItsServiceAccountAndIsRefusedNothing() {
    Workloads w = Workloads.scope(api, "rbac");
    String node = w.node("n", "2");
    await().atMost(PATIENCE).until(() -> http.get("/debug/cache/nodes/" + node).status() == 200);
    List<AuditedRequest> requests = cp.audited(EXTENDER_USER);
    assertThat(requests)
        .as("the extender's requests carry its ServiceAccount's identity")
        .extracting(r -> r.verb() + " " + r.resource())
        .contains("list nodes", "watch nodes", "list pods", "watch pods");
    Set<Integer> codes = Set.copyOf(requests.stream().map(AuditedRequest::code).toList());
    assertThat(codes).as("response codes").doesNotContain(401, 403);
  }
}
