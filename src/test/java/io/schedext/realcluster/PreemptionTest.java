package io.schedext.realcluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.schedext.plugins.defaultpreemption.ProposalReview;
import io.schedext.testing.Http;
import io.schedext.testing.StallingProxy;
import io.schedext.testing.realcluster.ControlPlane;
import io.schedext.testing.realcluster.KubeScheduler;
import io.schedext.testing.realcluster.KubeScheduler.Extender;
import io.schedext.testing.realcluster.KubeScheduler.OwnPlugins;
import io.schedext.testing.realcluster.RealCluster;
import io.schedext.testing.realcluster.RealClusterExtension;
import io.schedext.testing.realcluster.RealClusterTest;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.logging.LogLevel;
import org.springframework.boot.logging.LoggingSystem;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * Preemption through the extender evicts what one node needs, once. kube-scheduler 1.33 and later
 * preempt asynchronously: the preemptor is retried, on its nominated node first, as soon as its
 * victims' deletions are under way, usually before the extender's watch has delivered them. The
 * extender must then let the preemptor onto that node as kube-scheduler's own cache does, or
 * kube-scheduler, finding no node, preempts again elsewhere. The extender reaches the API server
 * through a proxy that can hold back what the server sends, so its watch lags kube-scheduler's by a
 * chosen time.
 */
@RealCluster
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
@DirtiesContext(classMode = DirtiesContext.ClassMode.AFTER_CLASS)
class PreemptionTest {

  static final Duration PATIENCE = Duration.ofSeconds(60);
  static StallingProxy proxy;

  @Value("${local.server.port}")
  int port;

  ControlPlane cp;
  KubernetesClient api;
  Http http;

  @DynamicPropertySource
  static void properties(DynamicPropertyRegistry registry) {
    ControlPlane cp = RealClusterExtension.get();
    proxy = new StallingProxy(new InetSocketAddress("127.0.0.1", cp.port()));
    Workloads.watchAsDeployed(cp, registry, "https://127.0.0.1:" + proxy.port());
    // API reads of bind wait on the delayed responses too.
    registry.add("extender.cluster.request-timeout", () -> "5s");
    registry.add("extender.bind.timeout", () -> "10s");
  }

  @BeforeEach
  void ready() {
    // Every verb's decision in the log, for reading a failure: each call's line says what was kept.
    LoggingSystem logs = LoggingSystem.get(getClass().getClassLoader());
    logs.setLogLevel("io.schedext.extender.decisions", LogLevel.DEBUG);
    logs.setLogLevel(ProposalReview.class.getName(), LogLevel.DEBUG);
    cp = RealClusterExtension.get();
    api = cp.client();
    http = new Http(port);
    proxy.delayFromServer(Duration.ZERO);
    await().atMost(PATIENCE).until(() -> http.get("/actuator/health/readiness").status() == 200);
  }

  @AfterEach
  void cacheEqualsTheApi() {
    proxy.delayFromServer(Duration.ZERO);
    await()
        .atMost(PATIENCE)
        .untilAsserted(
            () ->
                assertThat(http.get("/debug/cache/compare").json().get("equal").asBoolean())
                    .as("cache vs API")
                    .isTrue());
  }

  @RealClusterTest
  void aPreemptionEvictsWhatOneNodeNeedsOnce() {
    preemptOnFullNodes("once", Duration.ZERO);
  }

  @RealClusterTest
  void aPreemptionEvictsWhatOneNodeNeedsOnceWhileTheExtendersWatchLags() {
    preemptOnFullNodes("lagging", Duration.ofMillis(800));
  }

  /**
   * Three 4-CPU nodes, each full with four 1-CPU pods of low priority; then a 2-CPU pod of high
   * priority, with the extender registered for every verb. Exactly two pods of one node go, and the
   * preemptor lands there.
   */
  private void preemptOnFullNodes(String scope, Duration watchLag) {
    Workloads w = Workloads.scope(api, scope);
    w.priorityClass(w.id() + "-low", 10);
    w.priorityClass(w.id() + "-high", 1000);
    List<String> nodes = List.of(w.node("n0", "4"), w.node("n1", "4"), w.node("n2", "4"));
    for (int i = 0; i < 12; i++) {
      w.create(
          w.pod("low-" + i, "1")
              .editSpec()
              .withNodeName(nodes.get(i % 3))
              .withPriorityClassName(w.id() + "-low")
              .endSpec());
    }
    await()
        .atMost(PATIENCE)
        .until(() -> http.get("/debug/cache/compare").json().get("equal").asBoolean());
    proxy.delayFromServer(watchLag);

    try (KubeScheduler ks =
        KubeScheduler.start(
            cp,
            Extender.filterAndPrioritize(extenderUrl()).withPreempt().withBind(),
            OwnPlugins.ALL)) {
      w.create(w.pod("vip", "2").editSpec().withPriorityClassName(w.id() + "-high").endSpec());
      await().atMost(PATIENCE).until(() -> w.nodeOf("vip") != null);
      String landed = w.nodeOf("vip");
      // A second preemption would have been decided before the preemptor could bind, its last
      // deletion at most just under way: the count must hold once the extender has caught up.
      proxy.delayFromServer(Duration.ZERO);
      await()
          .atMost(PATIENCE)
          .until(() -> http.get("/debug/cache/compare").json().get("equal").asBoolean());
      await()
          .during(Duration.ofSeconds(2))
          .atMost(PATIENCE)
          .untilAsserted(
              () ->
                  assertThat(lowPods(w))
                      .extracting(p -> p.getMetadata().getName() + "@" + p.getSpec().getNodeName())
                      .as("low-priority pods left, the preemptor on %s", landed)
                      .hasSize(10));
      Map<String, Long> perNode =
          lowPods(w).stream()
              .collect(
                  Collectors.groupingBy(p -> p.getSpec().getNodeName(), Collectors.counting()));
      assertThat(perNode)
          .as("low-priority pods per node, the preemptor on %s", landed)
          .containsEntry(landed, 2L)
          .containsOnlyKeys(nodes)
          .containsValues(4L, 4L, 2L);
    }
  }

  private static List<Pod> lowPods(Workloads w) {
    return w.pods().stream().filter(p -> p.getMetadata().getName().startsWith("low-")).toList();
  }

  private String extenderUrl() {
    return "http://127.0.0.1:" + port + "/scheduler";
  }
}
