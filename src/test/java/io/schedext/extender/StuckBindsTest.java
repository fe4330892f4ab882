package io.schedext.extender;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.fabric8.kubernetes.api.model.Pod;
import io.schedext.cluster.ClusterSource;
import io.schedext.testing.Http;
import io.schedext.testing.MakeNode;
import io.schedext.testing.MakePod;
import io.schedext.testing.MockApi;
import io.schedext.testing.StallingProxy;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * 100 binds against an API server that no longer answers (its connection stalled by a proxy): 16
 * run on the bind threads and wait, the other 84 are refused at once, and meanwhile filter,
 * prioritize and readiness answer, and answer correctly. The filter latencies before and during the
 * stall are printed (measured, never asserted).
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
class StuckBindsTest {

  static final MockApi API = new MockApi();
  static final StallingProxy PROXY = new StallingProxy(API.address());
  static final int BINDS = 100;
  static final int WORKERS = 16;
  static final ObjectMapper JSON = new ObjectMapper();

  @Value("${local.server.port}")
  int port;

  @Autowired ClusterSource source;

  @Autowired BindWorkers workers;

  @DynamicPropertySource
  static void properties(DynamicPropertyRegistry registry) {
    registry.add("extender.cluster.source", () -> "kubernetes");
    registry.add("extender.cluster.kubeconfig", () -> API.kubeconfig(PROXY.url()).toString());
    registry.add("extender.bind.timeout", () -> "5m");
    registry.add("extender.bind.workers", () -> String.valueOf(WORKERS));
  }

  @AfterAll
  static void stop() {
    PROXY.close();
    API.close();
  }

  @Test
  void bindsStuckOnTheApiServerNeitherDelayNorChangeFilterPrioritizeOrReadiness() throws Exception {
    for (String n : List.of("big", "full")) {
      API.client()
          .nodes()
          .resource(
              MakeNode.node()
                  .name(n)
                  .capacity(
                      Map.of("cpu", n.equals("big") ? "64" : "1", "memory", "64Gi", "pods", "500"))
                  .obj())
          .create();
    }
    List<Pod> pods = new ArrayList<>();
    for (int i = 0; i < BINDS; i++) {
      Pod p =
          MakePod.pod().name("stuck-" + i).namespace("default").req(Map.of("cpu", "100m")).obj();
      p.getMetadata().setUid(null);
      p.getStatus().setPhase("Pending");
      pods.add(API.client().pods().inNamespace("default").resource(p).create());
    }
    Http http = new Http(port);
    await()
        .atMost(Duration.ofSeconds(30))
        .until(
            () ->
                http.get("/actuator/health/readiness").status() == 200
                    && pods.stream()
                        .allMatch(
                            p ->
                                source.findPod(
                                        "default",
                                        p.getMetadata().getName(),
                                        p.getMetadata().getUid())
                                    != null));
    MockApi.awaitWatchesOpen(source);
    Pod probe =
        MakePod.pod()
            .name("probe")
            .namespace("default")
            .uid("probe-uid")
            .req(Map.of("cpu", "2"))
            .obj();
    String filterBody = "{\"Pod\":" + new Http.Json(probe) + ",\"NodeNames\":[\"big\",\"full\"]}";
    filterLatencies(http, filterBody);
    long[] before = filterLatencies(http, filterBody);

    PROXY.stall();
    HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
    List<CompletableFuture<HttpResponse<String>>> binds = new ArrayList<>();
    for (Pod p : pods) {
      String body =
          "{\"PodName\":\""
              + p.getMetadata().getName()
              + "\",\"PodNamespace\":\"default\",\"PodUID\":\""
              + p.getMetadata().getUid()
              + "\",\"Node\":\"big\"}";
      binds.add(
          client.sendAsync(
              HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/scheduler/bind"))
                  .POST(HttpRequest.BodyPublishers.ofString(body))
                  .build(),
              HttpResponse.BodyHandlers.ofString()));
    }
    await()
        .atMost(Duration.ofSeconds(30))
        .until(
            () ->
                binds.stream().filter(CompletableFuture::isDone).count() == BINDS - WORKERS
                    && workers.busy() == WORKERS);
    List<CompletableFuture<HttpResponse<String>>> stuck =
        binds.stream().filter(f -> !f.isDone()).toList();
    for (CompletableFuture<HttpResponse<String>> f : binds) {
      if (f.isDone()) {
        assertThat(error(f))
            .isEqualTo(
                "bind refused: all 16 bind workers (extender.bind.workers) are busy; "
                    + "nothing was done");
      }
    }

    long[] during = filterLatencies(http, filterBody);
    JsonNode filtered = http.post("/scheduler/filter", filterBody).json();
    assertThat(filtered.get("NodeNames")).extracting(JsonNode::asText).containsExactly("big");
    assertThat(filtered.path("FailedAndUnresolvableNodes").path("full").asText())
        .as(filtered.toString())
        .isEqualTo("Insufficient cpu");
    Http.Reply prioritized = http.post("/scheduler/prioritize", filterBody);
    assertThat(prioritized.status()).isEqualTo(200);
    assertThat(prioritized.json()).hasSize(2);
    assertThat(http.get("/actuator/health/readiness").status()).isEqualTo(200);
    assertThat(stuck).hasSize(WORKERS).noneMatch(CompletableFuture::isDone);

    PROXY.cut();
    CompletableFuture.allOf(stuck.toArray(CompletableFuture[]::new)).get();
    for (CompletableFuture<HttpResponse<String>> f : stuck) {
      assertThat(error(f)).contains("the outcome is unknown");
    }
    System.out.printf(
        "filter latency, 2 nodes: before the stall p50 %.2f ms p99 %.2f ms; with %d binds stuck "
            + "(%d refused) p50 %.2f ms p99 %.2f ms%n",
        pct(before, 50),
        pct(before, 99),
        WORKERS,
        BINDS - WORKERS,
        pct(during, 50),
        pct(during, 99));
  }

  private static String error(CompletableFuture<HttpResponse<String>> f) throws Exception {
    return JSON.readTree(f.get().body()).get("Error").asText();
  }

  /** The latencies of 500 filter calls, in nanoseconds, sorted (the first run warms the JIT up). */
  private static long[] filterLatencies(Http http, String body) {
    long[] out = new long[500];
    for (int i = 0; i < out.length; i++) {
      long t0 = System.nanoTime();
      assertThat(http.post("/scheduler/filter", body).status()).isEqualTo(200);
      out[i] = System.nanoTime() - t0;
    }
    Arrays.sort(out);
    return out;
  }

  private static double pct(long[] sorted, int p) {
    return sorted[Math.min(sorted.length - 1, (int) Math.ceil(sorted.length * p / 100.0) - 1)]
        / 1e6;
  }
}
