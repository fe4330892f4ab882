package io.schedext.extender;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.schedext.testing.Http;
import io.schedext.testing.MakeNode;
import io.schedext.testing.MakePod;
import io.schedext.testing.MockApi;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * The whole service with {@code extender.cluster.source=kubernetes} against fabric8's mock API
 * server: readiness follows the informers, nodeCacheCapable requests are answered from the
 * watch-synced cache, and bind goes through the API.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
class KubernetesSourceServiceTest {

  static final MockApi API = new MockApi();

  @Value("${local.server.port}")
  int port;

  @DynamicPropertySource
  static void properties(DynamicPropertyRegistry registry) {
    seed(API.client());
    registry.add("extender.cluster.source", () -> "kubernetes");
    registry.add("extender.cluster.kubeconfig", () -> API.kubeconfig().toString());
  }

  static void seed(KubernetesClient client) {
    for (String n : List.of("n1", "n2")) {
      client
          .nodes()
          .resource(
              MakeNode.node()
                  .name(n)
                  .label("topology.kubernetes.io/zone", "z1")
                  .capacity(Map.of("cpu", "4", "memory", "8Gi", "pods", "110"))
                  .obj())
          .create();
    }
    client.pods().inNamespace("default").resource(pod("big", "n2", "3500m")).create();
    client.pods().inNamespace("default").resource(pod("pending", null, "1")).create();
  }

  static Pod pod(String name, String node, String cpu) {
    Pod p = MakePod.pod().name(name).namespace("default").node(node).req(Map.of("cpu", cpu)).obj();
    p.getMetadata().setUid(null);
    p.getStatus().setPhase(node == null ? "Pending" : "Running");
    return p;
  }

  @BeforeAll
  static void ready() {
    // The context starts the informers; nothing to do until a test asks.
  }

  @AfterAll
  static void stop() {
    API.close();
  }

  private Http.Reply awaitReady() {
    Http http = new Http(port);
    await()
        .atMost(Duration.ofSeconds(20))
        .until(() -> http.get("/actuator/health/readiness").status() == 200);
    return http.get("/actuator/health/readiness");
  }

  @Test
  void filterWithNodeNamesUsesTheWatchSyncedCache() {
    awaitReady();
    Pod pending = API.client().pods().inNamespace("default").withName("pending").get();
    String body =
        "{\"Pod\":"
            + new Http.Json(pending)
            + ",\"Nodes\":null,\"NodeNames\":[\"n1\",\"n2\",\"n9\"]}";
    JsonNode j = new Http(port).post("/scheduler/filter", body).json();
    assertThat(j.get("NodeNames")).extracting(JsonNode::asText).containsExactly("n1");
    assertThat(j.get("FailedNodes").get("n2").asText()).isEqualTo("Insufficient cpu");
    assertThat(j.get("FailedAndUnresolvableNodes").get("n9").asText())
        .isEqualTo("node \"n9\" is not in the extender's cache");
  }

  @Test
  void bindGoesThroughTheApiAndTheNextFilterSeesThePod() {
    awaitReady();
    Http http = new Http(port);
    API.client().pods().inNamespace("default").resource(pod("web", null, "3")).create();
    Pod web =
        await()
            .until(
                () -> API.client().pods().inNamespace("default").withName("web").get(),
                p -> p != null);
    String bind =
        "{\"PodName\":\"web\",\"PodNamespace\":\"default\",\"PodUID\":\""
            + web.getMetadata().getUid()
            + "\",\"Node\":\"n1\"}";
    assertThat(http.post("/scheduler/bind", bind).json().get("Error").asText()).isEmpty();
    await()
        .until(
            () ->
                "n1"
                    .equals(
                        API.client()
                            .pods()
                            .inNamespace("default")
                            .withName("web")
                            .get()
                            .getSpec()
                            .getNodeName()));
    Pod another = pod("another", null, "2");
    another.getMetadata().setUid("another-uid");
    String body = "{\"Pod\":" + new Http.Json(another) + ",\"NodeNames\":[\"n1\"]}";
    JsonNode j = http.post("/scheduler/filter", body).json();
    assertThat(j.get("FailedNodes").get("n1").asText()).isEqualTo("Insufficient cpu");
    await().until(() -> http.get("/debug/cache/compare").json().get("equal").asBoolean());
  }

  @Test
  void readinessNamesTheSourceAndTheCacheSize() {
    JsonNode j = awaitReady().json();
    assertThat(j.get("status").asText()).isEqualTo("UP");
    assertThat(j.path("components").path("clusterState").path("details").path("source").asText())
        .startsWith("kubernetes API server at http://");
    List<String> kinds = new ArrayList<>();
    j.path("components").fieldNames().forEachRemaining(kinds::add);
    assertThat(kinds).contains("clusterState", "readinessState");
  }
}
