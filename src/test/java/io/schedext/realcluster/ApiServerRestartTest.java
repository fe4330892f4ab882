package io.schedext.realcluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.schedext.testing.Http;
import io.schedext.testing.realcluster.ControlPlane;
import io.schedext.testing.realcluster.KubeScheduler;
import io.schedext.testing.realcluster.KubeScheduler.Extender;
import io.schedext.testing.realcluster.KubeScheduler.OwnPlugins;
import io.schedext.testing.realcluster.RealCluster;
import io.schedext.testing.realcluster.RealClusterExtension;
import io.schedext.testing.realcluster.RealClusterTest;
import java.time.Duration;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * The API server goes away and comes back, as in an upgrade of the control plane: readiness goes
 * DOWN once the watches have been down for the sync grace, comes back UP when they resume, and what
 * changed around the outage reaches the cache. A kube-scheduler running through it schedules
 * through the extender afterwards.
 */
@RealCluster
@ExtendWith(OutputCaptureExtension.class)
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
@DirtiesContext(classMode = DirtiesContext.ClassMode.AFTER_CLASS)
class ApiServerRestartTest {

  static final Duration PATIENCE = Duration.ofSeconds(90);

  @Value("${local.server.port}")
  int port;

  @DynamicPropertySource
  static void properties(DynamicPropertyRegistry registry) {
    Workloads.watchAsDeployed(RealClusterExtension.get(), registry);
    registry.add("extender.cluster.sync-grace", () -> "2s");
  }

  @RealClusterTest
  void readinessFollowsTheApiServerAndNothingIsLostAcrossItsRestart(CapturedOutput log) {
    ControlPlane cp = RealClusterExtension.get();
    KubernetesClient api = cp.client();
    Http http = new Http(port);
    await().atMost(PATIENCE).until(() -> http.get("/actuator/health/readiness").status() == 200);
    Workloads w = Workloads.scope(api, "restart");
    String before = w.node("before", "2");
    w.create(w.pod("doomed", "500m").editSpec().withNodeName(before).endSpec());
    await().atMost(PATIENCE).until(() -> compare(http).get("equal").asBoolean());

    try (KubeScheduler ks =
        KubeScheduler.start(
            cp,
            Extender.filterAndPrioritize("http://127.0.0.1:" + port + "/scheduler"),
            OwnPlugins.EXTENDER_DECIDES)) {
      // Opening the watches after the first lists at start is not an outage.
      assertThat(log.getOut()).doesNotContainPattern("watch(es)? dropped");
      cp.stopApiServer();
      await().atMost(PATIENCE).until(() -> http.get("/actuator/health/readiness").status() == 503);
      assertThat(
              http.get("/actuator/health/readiness")
                  .json()
                  .path("components")
                  .path("clusterState")
                  .path("status")
                  .asText())
          .isNotEqualTo("UP");

      cp.startApiServer();
      // Changed while the extender's watches are still reconnecting: they must arrive by resuming
      // or relisting.
      String after = w.node("after", "2");
      api.pods().inNamespace(w.id()).withName("doomed").withGracePeriod(0).delete();
      await().atMost(PATIENCE).until(() -> http.get("/actuator/health/readiness").status() == 200);
      await()
          .atMost(PATIENCE)
          .untilAsserted(
              () ->
                  assertThat(compare(http).get("equal").asBoolean())
                      .as("cache vs API: %s", compare(http))
                      .isTrue());
      assertThat(http.get("/debug/cache/nodes/" + after).status()).isEqualTo(200);
      // What an operator reads: a line for the watches that dropped together and one for their
      // recovery (a watch that dropped or came back a second apart from the others has its own),
      // and one per readiness change, no stack traces.
      assertThat(log.getOut())
          .containsPattern("(Node watch|watches) dropped at")
          .containsPattern("(Pod watch|watches) recovered")
          .contains("Cluster state not ready: ", "Cluster state ready");

      // The loop works again: a pod that fits only the node created during the outage's recovery
      // goes there.
      w.create(w.pod("heavy", "1500m").editSpec().withNodeName(before).endSpec());
      w.create(w.pod("later", "2"));
      await().atMost(PATIENCE).until(() -> after.equals(w.nodeOf("later")));
    }
  }

  private static JsonNode compare(Http http) {
    return http.get("/debug/cache/compare").json();
  }
}
