package io.schedext.realcluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import io.fabric8.kubernetes.api.model.Pod;
import io.schedext.testing.Http;
import io.schedext.testing.StallingProxy;
import io.schedext.testing.realcluster.ControlPlane;
import io.schedext.testing.realcluster.RealCluster;
import io.schedext.testing.realcluster.RealClusterExtension;
import io.schedext.testing.realcluster.RealClusterTest;
import java.net.InetSocketAddress;
import java.time.Duration;
import org.junit.jupiter.api.AfterAll;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * The extender's connection to a real API server stalls while it binds (a proxy holds every byte,
 * in both directions, and delivers them later: a network that delivers late). The Binding's outcome
 * is unknown, so the pod stays assumed on its node and the next pod is kept off the room it may
 * take; afterwards the node holds at most the one pod, whether the held Binding landed late or was
 * lost and the assumed pod expired.
 */
@RealCluster
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
@DirtiesContext(classMode = DirtiesContext.ClassMode.AFTER_CLASS)
class BindFaultsTest {

  static final Duration PATIENCE = Duration.ofSeconds(60);
  static StallingProxy proxy;

  @Value("${local.server.port}")
  int port;

  @DynamicPropertySource
  static void properties(DynamicPropertyRegistry registry) {
    ControlPlane cp = RealClusterExtension.get();
    proxy = new StallingProxy(new InetSocketAddress("127.0.0.1", cp.port()));
    Workloads.watchAsDeployed(cp, registry, "https://127.0.0.1:" + proxy.port());
    registry.add("extender.bind.timeout", () -> "1s");
    registry.add("extender.cache.assumed-pod-ttl", () -> "10s");
    // The watches stall with the Binding: readiness must not go down meanwhile for this test.
    registry.add("extender.cluster.sync-grace", () -> "1h");
  }

  @AfterAll
  static void stop() {
    proxy.close();
  }

  @RealClusterTest
  void aBindingHeldUpOnTheWayNeverOverCommitsTheNode() {
    ControlPlane cp = RealClusterExtension.get();
    Http http = new Http(port);
    Workloads w = Workloads.scope(cp.client(), "late");
    String node = w.node("one-cpu", "1");
    Pod a = w.create(w.pod("a", "1"));
    Pod b = w.create(w.pod("b", "1"));
    await()
        .atMost(PATIENCE)
        .until(
            () ->
                http.get("/actuator/health/readiness").status() == 200
                    && http.get("/debug/cache/nodes/" + node).status() == 200
                    && http.get("/debug/cache/compare").json().get("equal").asBoolean());

    proxy.stall();
    try {
      assertThat(bind(http, w, a, node))
          .contains("the outcome is unknown")
          .contains("stays assumed on node " + node);
      assertThat(filter(http, b, node).get("FailedNodes").get(node).asText())
          .isEqualTo("Insufficient cpu");
      assertThat(bind(http, w, b, node)).contains("Insufficient cpu");
    } finally {
      proxy.resume();
    }

    // The held Binding either lands late, or is lost with its connection (a connection opened
    // during the stall has its TLS handshake held too, and the client gives up on it): then the pod
    // expires from the cache after its TTL.
    await()
        .atMost(PATIENCE)
        .until(
            () ->
                node.equals(w.nodeOf("a"))
                    || filter(http, b, node).path("NodeNames").toString().contains(node));
    await()
        .atMost(PATIENCE)
        .until(() -> http.get("/debug/cache/compare").json().get("equal").asBoolean());
    assertThat(w.nodeOf("b")).as("the pod kept off the node").isNull();
    if (node.equals(w.nodeOf("a"))) {
      assertThat(filter(http, b, node).get("FailedNodes").get(node).asText())
          .isEqualTo("Insufficient cpu");
    } else {
      assertThat(filter(http, b, node).get("NodeNames"))
          .extracting(JsonNode::asText)
          .containsExactly(node);
    }
  }

  private static String bind(Http http, Workloads w, Pod pod, String node) {
    return http.post(
            "/scheduler/bind",
            "{\"PodName\":\""
                + pod.getMetadata().getName()
                + "\",\"PodNamespace\":\""
                + w.id()
                + "\",\"PodUID\":\""
                + pod.getMetadata().getUid()
                + "\",\"Node\":\""
                + node
                + "\"}")
        .json()
        .get("Error")
        .asText();
  }

  private static JsonNode filter(Http http, Pod pod, String node) {
    return http.post(
            "/scheduler/filter",
            "{\"Pod\":" + new Http.Json(pod) + ",\"NodeNames\":[\"" + node + "\"]}")
        .json();
  }
}
