package io.schedext.extender;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import io.fabric8.kubernetes.api.model.Pod;
import io.schedext.cache.SchedulerCache;
import io.schedext.cluster.ClusterSource;
import io.schedext.testing.Http;
import io.schedext.testing.MakeNode;
import io.schedext.testing.MakePod;
import io.schedext.testing.MockApi;
import io.schedext.testing.MutableClock;
import io.schedext.testing.StallingProxy;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
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
 * A Binding whose answer never comes (the extender's API connection stalled or cut, through a proxy
 * in front of fabric8's mock API server) is not reported as failed: the pod stays assumed on its
 * node, so the next pod cannot be filtered onto or bound to the room it may take, whether the
 * Binding lands late, is lost and expires, or is retried.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
class BindOutcomeUnknownTest {

  static final MockApi API = new MockApi();
  static final StallingProxy PROXY = new StallingProxy(API.address());
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

  @Autowired SchedulerCache cache;

  @Autowired ClusterSource source;

  @DynamicPropertySource
  static void properties(DynamicPropertyRegistry registry) {
    registry.add("extender.cluster.source", () -> "kubernetes");
    registry.add("extender.cluster.kubeconfig", () -> API.kubeconfig(PROXY.url()).toString());
    registry.add("extender.cluster.sync-grace", () -> "1h");
    registry.add("extender.bind.timeout", () -> "1s");
    registry.add("extender.cache.assumed-pod-ttl", () -> "30s");
    registry.add("spring.main.allow-bean-definition-overriding", () -> "true");
  }

  @AfterEach
  void flow() {
    PROXY.heal();
    PROXY.resume();
  }

  @AfterAll
  static void stop() {
    PROXY.close();
    API.close();
  }

  /** A 1-CPU node and two pending 1-CPU pods, as the watch sees them. */
  private Pod[] oneCpuNodeAndTwoPods(String node, String a, String b) {
    API.client()
        .nodes()
        .resource(
            MakeNode.node()
                .name(node)
                .capacity(Map.of("cpu", "1", "memory", "8Gi", "pods", "110"))
                .obj())
        .create();
    Pod[] pods = {pending(a), pending(b)};
    Http http = new Http(port);
    await()
        .atMost(Duration.ofSeconds(20))
        .until(
            () ->
                http.get("/actuator/health/readiness").status() == 200
                    && cache.snapshot().get(node) != null
                    && source.findPod("default", a, pods[0].getMetadata().getUid()) != null
                    && source.findPod("default", b, pods[1].getMetadata().getUid()) != null);
    MockApi.awaitWatchesOpen(source);
    return pods;
  }

  private static Pod pending(String name) {
    Pod p = MakePod.pod().name(name).namespace("default").req(Map.of("cpu", "1")).obj();
    p.getMetadata().setUid(null);
    p.getStatus().setPhase("Pending");
    return API.client().pods().inNamespace("default").resource(p).create();
  }

  private String bind(Pod pod, String node) {
    return new Http(port)
        .post(
            "/scheduler/bind",
            "{\"PodName\":\""
                + pod.getMetadata().getName()
                + "\",\"PodNamespace\":\"default\",\"PodUID\":\""
                + pod.getMetadata().getUid()
                + "\",\"Node\":\""
                + node
                + "\"}")
        .json()
        .get("Error")
        .asText();
  }

  private JsonNode filter(Pod pod, String node) {
    return new Http(port)
        .post(
            "/scheduler/filter",
            "{\"Pod\":" + new Http.Json(pod) + ",\"NodeNames\":[\"" + node + "\"]}")
        .json();
  }

  @Test
  void aBindingThatLandsAfterItsTimeoutNeverOverCommitsTheNode() {
    Pod[] p = oneCpuNodeAndTwoPods("late", "late-a", "late-b");
    PROXY.stall();

    String first = bind(p[0], "late");

    assertThat(first).contains("the outcome is unknown").contains("stays assumed on node late");
    assertThat(cache.isAssumedPod(p[0].getMetadata().getUid())).isTrue();
    assertThat(filter(p[1], "late").get("FailedNodes").get("late").asText())
        .isEqualTo("Insufficient cpu");
    assertThat(bind(p[1], "late")).contains("does not fit node late any more: Insufficient cpu");

    PROXY.resume();
    await()
        .atMost(Duration.ofSeconds(20))
        .until(
            () ->
                "late"
                    .equals(
                        API.client()
                            .pods()
                            .inNamespace("default")
                            .withName("late-a")
                            .get()
                            .getSpec()
                            .getNodeName()));
    await()
        .atMost(Duration.ofSeconds(20))
        .until(
            () ->
                !cache.isAssumedPod(p[0].getMetadata().getUid())
                    && cache.getPod(p[0].getMetadata().getUid()) != null);
    assertThat(filter(p[1], "late").get("FailedNodes").get("late").asText())
        .isEqualTo("Insufficient cpu");
    assertThat(
            API.client()
                .pods()
                .inNamespace("default")
                .withName("late-b")
                .get()
                .getSpec()
                .getNodeName())
        .isNull();
  }

  @Test
  void aBindingLostWithTheConnectionKeepsThePodAssumedAndARetryToTheSameNodeBindsIt() {
    Pod[] p = oneCpuNodeAndTwoPods("retry", "retry-a", "retry-b");
    PROXY.stall();
    assertThat(bind(p[0], "retry")).contains("the outcome is unknown");
    PROXY.cut();
    PROXY.heal();

    assertThat(filter(p[1], "retry").get("FailedNodes").get("retry").asText())
        .isEqualTo("Insufficient cpu");
    assertThat(bind(p[0], "other")).contains("stays assumed on node retry");
    int calls = API.bindingCalls();
    assertThat(bind(p[0], "retry")).isEmpty();
    assertThat(API.bindingCalls()).isEqualTo(calls + 1);
    await()
        .atMost(Duration.ofSeconds(20))
        .until(
            () ->
                "retry"
                    .equals(
                        API.client()
                            .pods()
                            .inNamespace("default")
                            .withName("retry-a")
                            .get()
                            .getSpec()
                            .getNodeName()));
    assertThat(bind(p[1], "retry")).contains("Insufficient cpu");
  }

  @Test
  void aBindingLostWithTheConnectionFreesTheNodeWhenTheAssumedPodExpires() {
    Pod[] p = oneCpuNodeAndTwoPods("lost", "lost-a", "lost-b");
    PROXY.stall();
    assertThat(bind(p[0], "lost")).contains("the outcome is unknown");
    PROXY.cut();
    PROXY.heal();
    assertThat(filter(p[1], "lost").get("FailedNodes").get("lost").asText())
        .isEqualTo("Insufficient cpu");

    CLOCK.advance(Duration.ofSeconds(31));

    await()
        .atMost(Duration.ofSeconds(20))
        .until(() -> cache.getPod(p[0].getMetadata().getUid()) == null);
    assertThat(filter(p[1], "lost").get("NodeNames"))
        .extracting(JsonNode::asText)
        .containsExactly("lost");
    assertThat(bind(p[1], "lost")).isEmpty();
    assertThat(
            API.client()
                .pods()
                .inNamespace("default")
                .withName("lost-a")
                .get()
                .getSpec()
                .getNodeName())
        .isNull();
  }

  @Test
  void aPodInDoubtIsOfferedItsOwnNodeAloneWithItsRoomAndItsRetryThereSettlesIt() {
    Pod[] p = oneCpuNodeAndTwoPods("own", "own-a", "own-b");
    API.client()
        .nodes()
        .resource(
            MakeNode.node()
                .name("spare")
                .capacity(Map.of("cpu", "1", "memory", "8Gi", "pods", "110"))
                .obj())
        .create();
    await().atMost(Duration.ofSeconds(20)).until(() -> cache.snapshot().get("spare") != null);
    PROXY.stall();
    assertThat(bind(p[0], "own")).contains("the outcome is unknown");
    PROXY.cut();
    PROXY.heal();

    // kube-scheduler retries the pod: its own assumed copy must not make "own" look full to it (it
    // would find no node, and wait for a cluster event that the copy's expiry is not), and the
    // node it may already be on is the only one a bind would accept.
    JsonNode retry =
        new Http(port)
            .post(
                "/scheduler/filter",
                "{\"Pod\":" + new Http.Json(p[0]) + ",\"NodeNames\":[\"spare\",\"own\"]}")
            .json();
    assertThat(retry.get("NodeNames")).extracting(JsonNode::asText).containsExactly("own");
    assertThat(retry.get("FailedAndUnresolvableNodes").get("spare").asText())
        .startsWith("pod default/own-a stays assumed on node own");
    // Every other pod still finds the room taken.
    assertThat(filter(p[1], "own").get("FailedNodes").get("own").asText())
        .isEqualTo("Insufficient cpu");

    assertThat(bind(p[0], "own")).isEmpty();
    await()
        .atMost(Duration.ofSeconds(20))
        .until(
            () ->
                "own"
                    .equals(
                        API.client()
                            .pods()
                            .inNamespace("default")
                            .withName("own-a")
                            .get()
                            .getSpec()
                            .getNodeName()));
  }
}
