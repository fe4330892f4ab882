package io.schedext.extender;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import io.fabric8.kubernetes.api.model.Pod;
import io.schedext.testing.Http;
import io.schedext.testing.MakeNode;
import io.schedext.testing.MakePod;
import io.schedext.testing.MockApi;
import io.schedext.testing.MutableClock;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Primary;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * The bind verb against fabric8's mock API server (CRUD mode; the binding subresource emulated by
 * {@link MockApi}): bursts never over-commit a node, failed bindings leave the cache as before,
 * retries are idempotent, and an assumed pod whose confirmation never comes expires.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
class BindFlowTest {

  static final MockApi API = new MockApi();
  static final MutableClock CLOCK = new MutableClock(Instant.parse("2026-11-22T10:00:00Z"));

  @TestConfiguration
  static class Time {
    @Bean
    @Primary
    Clock testClock() {
      return CLOCK;
    }
  }

  @Value("${local.server.port}")
  int port;

  @Autowired io.schedext.cache.SchedulerCache cache;

  @Autowired io.schedext.cluster.ClusterSource source;

  @DynamicPropertySource
  static void properties(DynamicPropertyRegistry registry) {
    for (String n : List.of("burst", "solo", "spare")) {
      API.client()
          .nodes()
          .resource(
              MakeNode.node()
                  .name(n)
                  .capacity(Map.of("cpu", "4", "memory", "8Gi", "pods", "110"))
                  .obj())
          .create();
    }
    registry.add("extender.cluster.source", () -> "kubernetes");
    registry.add("extender.cluster.kubeconfig", () -> API.kubeconfig().toString());
    registry.add("extender.cache.assumed-pod-ttl", () -> "30s");
    registry.add("spring.main.allow-bean-definition-overriding", () -> "true");
  }

  @AfterAll
  static void stop() {
    API.close();
  }

  private Pod pending(String name, String cpu) {
    Pod p = MakePod.pod().name(name).namespace("default").req(Map.of("cpu", cpu)).obj();
    p.getMetadata().setUid(null);
    p.getStatus().setPhase("Pending");
    API.client().pods().inNamespace("default").resource(p).create();
    return await()
        .until(
            () -> API.client().pods().inNamespace("default").withName(name).get(), x -> x != null);
  }

  private Http http() {
    await()
        .atMost(Duration.ofSeconds(20))
        .until(() -> new Http(port).get("/actuator/health/readiness").status() == 200);
    MockApi.awaitWatchesOpen(source);
    return new Http(port);
  }

  private static String bindBody(Pod p, String node) {
    return "{\"PodName\":\""
        + p.getMetadata().getName()
        + "\",\"PodNamespace\":\"default\",\"PodUID\":\""
        + p.getMetadata().getUid()
        + "\",\"Node\":\""
        + node
        + "\"}";
  }

  private List<String> podsOn(Http http, String node) {
    List<String> out = new ArrayList<>();
    http.get("/debug/cache/nodes/" + node)
        .json()
        .get("pods")
        .forEach(p -> out.add(p.get("pod").asText()));
    return out;
  }

  @Test
  void aBurstOfConcurrentBindsNeverOverCommitsANode() throws Exception {
    Http http = http();
    List<Pod> pods = new ArrayList<>();
    for (int i = 0; i < 6; i++) {
      pods.add(pending("burst-" + i, "1"));
    }
    ExecutorService pool = Executors.newFixedThreadPool(6);
    List<Future<String>> results = new ArrayList<>();
    for (Pod p : pods) {
      Callable<String> bind =
          () -> http.post("/scheduler/bind", bindBody(p, "burst")).json().get("Error").asText();
      results.add(pool.submit(bind));
    }
    List<String> errors = new ArrayList<>();
    for (Future<String> f : results) {
      errors.add(f.get());
    }
    pool.shutdown();
    assertThat(errors.stream().filter(String::isEmpty)).hasSize(4);
    assertThat(errors.stream().filter(e -> !e.isEmpty()))
        .hasSize(2)
        .allSatisfy(
            e -> assertThat(e).endsWith("does not fit node burst any more: Insufficient cpu"));
    JsonNode node = http.get("/debug/cache/nodes/burst").json();
    assertThat(node.path("requested").path("milliCpu").asLong()).isEqualTo(4000);
    await()
        .until(
            () ->
                API.client().pods().inNamespace("default").list().getItems().stream()
                        .filter(p -> "burst".equals(p.getSpec().getNodeName()))
                        .count()
                    == 4);
  }

  @Test
  void theFilterRightAfterABindCountsTheAssumedPod() {
    Http http = http();
    Pod big = pending("solo-big", "3");
    API.loseNextBindings(1);
    assertThat(http.post("/scheduler/bind", bindBody(big, "solo")).json().get("Error").asText())
        .isEmpty();
    // No watch event will come for this binding: only the assumption can make the next filter see
    // the pod.
    assertThat(podsOn(http, "solo")).contains("default/solo-big");
    Pod next =
        MakePod.pod()
            .name("solo-next")
            .namespace("default")
            .uid("solo-next")
            .req(Map.of("cpu", "2"))
            .obj();
    JsonNode f =
        http.post(
                "/scheduler/filter",
                "{\"Pod\":" + new Http.Json(next) + ",\"NodeNames\":[\"solo\"]}")
            .json();
    assertThat(f.get("FailedNodes").get("solo").asText()).isEqualTo("Insufficient cpu");
    // ... until the assumption expires: 30 s after the binding finished, nothing confirmed it.
    CLOCK.advance(Duration.ofSeconds(31));
    await()
        .atMost(Duration.ofSeconds(10))
        .until(() -> !podsOn(http, "solo").contains("default/solo-big"));
    assertThat(http.get("/debug/cache").json().get("assumedPods").size()).isZero();
  }

  @Test
  void aFailedBindingLeavesTheCacheAsBeforeAndARetryBindsOnce() {
    Http http = http();
    Pod p = pending("retry-me", "1");
    // A refusal the client does not retry (the fabric8 client retries 5xx answers on its own).
    API.failNextBindings(1, 403);
    String err = http.post("/scheduler/bind", bindBody(p, "spare")).json().get("Error").asText();
    assertThat(err)
        .startsWith(
            "running Bind plugin \"DefaultBinder\": binding pod default/retry-me to spare failed: "
                + "HTTP 403");
    assertThat(podsOn(http, "spare")).doesNotContain("default/retry-me");
    assertThat(http.get("/debug/cache").json().get("assumedPods").size()).isZero();
    assertThat(http.post("/scheduler/bind", bindBody(p, "spare")).json().get("Error").asText())
        .isEmpty();
    int calls = API.bindingCalls();
    assertThat(http.post("/scheduler/bind", bindBody(p, "spare")).json().get("Error").asText())
        .as("a retried bind of a bound pod succeeds without another API call")
        .isEmpty();
    assertThat(API.bindingCalls()).isEqualTo(calls);
    assertThat(http.post("/scheduler/bind", bindBody(p, "solo")).json().get("Error").asText())
        .isEqualTo("pod default/retry-me is already bound to node spare");
  }

  @Test
  void aPodRecreatedUnderAnotherUidIsNotBound() {
    Http http = http();
    Pod p = pending("recreated", "1");
    String body = bindBody(p, "spare").replace(p.getMetadata().getUid(), "an-older-uid");
    String err = http.post("/scheduler/bind", body).json().get("Error").asText();
    assertThat(err)
        .isEqualTo(
            "pod default/recreated has UID "
                + p.getMetadata().getUid()
                + ", not an-older-uid (deleted and re-created?); nothing was bound");
    assertThat(
            API.client()
                .pods()
                .inNamespace("default")
                .withName("recreated")
                .get()
                .getSpec()
                .getNodeName())
        .isNull();
  }
}
