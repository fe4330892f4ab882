package io.schedext.deployment;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import io.fabric8.kubernetes.api.model.Pod;
import io.schedext.cluster.ClusterSource;
import io.schedext.deployment.MonitoringFiles.Rule;
import io.schedext.testing.Http;
import io.schedext.testing.MakeNode;
import io.schedext.testing.MakePod;
import io.schedext.testing.MockApi;
import io.schedext.testing.PrometheusPrograms;
import io.schedext.testing.PrometheusServer;
import io.schedext.testing.StallingProxy;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * A real Prometheus (Debian's {@code prometheus}, on a free loopback port) scrapes the running
 * service's {@code /actuator/prometheus} every second and evaluates deployment/monitoring's rules
 * file as shipped, while the test sends filter, prioritize, preempt, bind and explain calls, some
 * of them bad. Then Prometheus's HTTP API proves that every recording rule, every panel query of
 * the dashboard and every series an alert reads returns data for the metric names the service
 * really exports, and that an alert fires: a Binding without an answer fires {@code
 * SchedulerExtenderBindOutcomeUnknown}, a Binding the API server lost fires {@code
 * SchedulerExtenderAssumedPodsExpired}.
 *
 * <p>The service watches fabric8's mock API server (through a proxy that can stall), not the
 * embedded demo cluster: the watch's series ({@code extender_informer_*}) exist only with the
 * Kubernetes source. Skipped, with one line, where Prometheus is not installed.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class PrometheusScrapeTest {

  private static final Logger log = LoggerFactory.getLogger(PrometheusScrapeTest.class);

  static final MockApi API = new MockApi();
  static final StallingProxy PROXY = new StallingProxy(API.address());

  @Value("${local.server.port}")
  int port;

  @Autowired ClusterSource source;

  private String missing;
  private Path dir;
  private PrometheusServer prometheus;
  private Pod app;
  private Pod bound;

  @DynamicPropertySource
  static void properties(DynamicPropertyRegistry registry) {
    registry.add("extender.cluster.source", () -> "kubernetes");
    registry.add("extender.cluster.kubeconfig", () -> API.kubeconfig(PROXY.url()).toString());
    // Readiness stays up through the stalls below; the Binding held up times out after 1 s.
    registry.add("extender.cluster.sync-grace", () -> "1h");
    registry.add("extender.bind.timeout", () -> "1s");
    // The Binding the API server loses is given up after 2 s.
    registry.add("extender.cache.assumed-pod-ttl", () -> "2s");
  }

  @BeforeAll
  void startPrometheusAndBindTwoPodsThatGoWrong() throws IOException {
    missing = PrometheusPrograms.missing("Prometheus scrape tests", PrometheusPrograms.PROMETHEUS);
    if (missing != null) {
      log.warn(missing);
      return;
    }
    seedTheCluster();
    dir = Files.createTempDirectory("prometheus-scrape-test");
    prometheus =
        PrometheusServer.start(
            dir,
            "127.0.0.1:" + port,
            "/actuator/prometheus",
            List.of(MonitoringFiles.RULES.toAbsolutePath()));
    // The rates start from what Prometheus scraped before the calls.
    await()
        .atMost(Duration.ofSeconds(30))
        .until(() -> prometheus.query("up{job=\"scheduler-extender\"} == 1").size() == 1);

    // A Binding held up on the way to the API server: no answer within extender.bind.timeout.
    Pod inDoubt = pending("in-doubt", "1");
    PROXY.stall();
    try {
      assertThat(bind(inDoubt, "n1")).contains("the outcome is unknown");
    } finally {
      PROXY.resume();
    }
    // A Binding the API server answers but never stores: the pod stays assumed until the TTL.
    Pod lost = pending("lost", "1");
    API.loseNextBindings(1);
    assertThat(bind(lost, "n2")).isEmpty();
  }

  /** Two 4-CPU nodes, a running pod, and the pending pods the calls are about. */
  private void seedTheCluster() {
    for (String n : List.of("n1", "n2")) {
      API.client()
          .nodes()
          .resource(
              MakeNode.node()
                  .name(n)
                  .label("topology.kubernetes.io/zone", "z1")
                  .capacity(Map.of("cpu", "4", "memory", "8Gi", "pods", "110"))
                  .obj())
          .create();
    }
    Pod running =
        MakePod.pod().name("running").namespace("default").node("n2").req(Map.of("cpu", "1")).obj();
    running.getMetadata().setUid(null);
    running.getStatus().setPhase("Running");
    API.client().pods().inNamespace("default").resource(running).create();
    Http http = new Http(port);
    await()
        .atMost(Duration.ofSeconds(30))
        .until(() -> http.get("/actuator/health/readiness").status() == 200);
    MockApi.awaitWatchesOpen(source);
    app = pending("app", "500m");
    bound = pending("bound", "500m");
    assertThat(bind(bound, "n1")).isEmpty();
  }

  private Pod pending(String name, String cpu) {
    Pod p = MakePod.pod().name(name).namespace("default").req(Map.of("cpu", cpu)).obj();
    p.getMetadata().setUid(null);
    p.getStatus().setPhase("Pending");
    Pod created = API.client().pods().inNamespace("default").resource(p).create();
    await()
        .atMost(Duration.ofSeconds(20))
        .until(() -> source.findPod("default", name, created.getMetadata().getUid()) != null);
    return created;
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

  /**
   * One round of what kube-scheduler and an operator send: filter and prioritize for a pending pod,
   * preempt, a retried bind (bound), a bind of a pod nobody knows (failed), a body that is not JSON
   * (bad_request) and an explain by name.
   */
  private void calls() {
    Http http = new Http(port);
    String args =
        "{\"Pod\":" + new Http.Json(app) + ",\"Nodes\":null,\"NodeNames\":[\"n1\",\"n2\"]}";
    assertThat(http.post("/scheduler/filter", args).status()).isEqualTo(200);
    assertThat(http.post("/scheduler/prioritize", args).status()).isEqualTo(200);
    String preempt =
        "{\"Pod\":"
            + new Http.Json(app)
            + ",\"NodeNameToVictims\":null,\"NodeNameToMetaVictims\":{\"n2\":{\"Pods\":[{\"UID\":\"nobody\"}],"
            + "\"NumPDBViolations\":0}}}";
    assertThat(http.post("/scheduler/preempt", preempt).status()).isEqualTo(200);
    assertThat(bind(bound, "n1")).isEmpty();
    assertThat(
            http.post(
                    "/scheduler/bind",
                    "{\"PodName\":\"ghost\",\"PodNamespace\":\"default\",\"PodUID\":\"ghost\",\"Node\":\"n1\"}")
                .json()
                .get("Error")
                .asText())
        .contains("is not known to the extender");
    assertThat(http.post("/scheduler/filter", "{").status()).isEqualTo(400);
    assertThat(http.get("/scheduler/explain/default/app?format=text").status()).isEqualTo(200);
  }

  @AfterAll
  void stop() {
    if (prometheus != null) {
      prometheus.close();
    }
    PROXY.close();
    API.close();
    if (dir != null) {
      deleteRecursively(dir);
    }
  }

  private void assumePrometheus() {
    Assumptions.assumeTrue(missing == null, missing);
  }

  // ------------------------------------------------------------------------------ the queries

  /**
   * Every query the monitoring files make, by what it is: each recording rule's expression and the
   * series it records; each panel query of the dashboard; each series selector an alert reads, and
   * the alert's expression without its thresholds (an alert that should not fire has an empty
   * answer, the series it compares do not: {@code SchedulerExtenderDown}'s {@code absent(up{...} ==
   * 1)} is asked as {@code up{...}}).
   */
  private static Map<String, String> queries() {
    Map<String, String> q = new LinkedHashMap<>();
    for (Rule r : MonitoringFiles.recordingRules()) {
      String labels = r.rule().path("labels").isMissingNode() ? "" : " " + r.rule().path("labels");
      q.put("recording rule " + r.name() + labels, r.expr());
      q.put("recorded series " + r.name(), r.name());
    }
    for (MonitoringFiles.PanelQuery p : MonitoringFiles.panelQueries()) {
      q.put("panel " + p, p.expr());
    }
    for (Rule a : MonitoringFiles.alerts()) {
      q.put(
          "alert " + a.name() + " without thresholds", MonitoringFiles.withoutThresholds(a.expr()));
      for (String s : MonitoringFiles.selectors(a.expr())) {
        q.put("alert " + a.name() + " reads " + s, s);
      }
    }
    return q;
  }

  /** The queries whose answer is empty or only NaN: those that show nothing. */
  private List<String> withoutData(Map<String, String> queries) {
    List<String> empty = new ArrayList<>();
    queries.forEach(
        (what, expr) -> {
          JsonNode result = prometheus.query(expr);
          boolean aNumber = false;
          for (JsonNode sample : result) {
            String v = sample.path("value").path(1).asText();
            aNumber |= !v.equals("NaN");
          }
          if (!aNumber) {
            empty.add(what + ": " + expr + " -> " + result);
          }
        });
    return empty;
  }

  @Test
  void everyRecordingRulePanelQueryAndSeriesAnAlertReadsReturnsDataFromTheExtender() {
    assumePrometheus();
    Map<String, String> queries = queries();
    // Calls go on until Prometheus has scraped them twice for every rate and evaluated every rule
    // on them; on a timeout the assertion lists the queries still without data.
    await()
        .atMost(Duration.ofSeconds(90))
        .pollInterval(Duration.ofSeconds(1))
        .untilAsserted(
            () -> {
              calls();
              assertThat(withoutData(queries)).as("queries that return no data").isEmpty();
            });
    log.info(
        "Prometheus answered all {} queries of deployment/monitoring with data; {} = {}",
        queries.size(),
        "instance_verb:extender_request_errors:ratio_rate5m",
        prometheus.query("instance_verb:extender_request_errors:ratio_rate5m"));
  }

  @Test
  void aBindingWithoutAnAnswerAndOneTheApiServerLostFireTheirAlertsAndNothingElseIsDown() {
    assumePrometheus();
    Set<String> firing = new TreeSet<>();
    await()
        .atMost(Duration.ofSeconds(60))
        .pollInterval(Duration.ofMillis(500))
        .until(
            () -> {
              firing.clear();
              for (JsonNode a : prometheus.alerts()) {
                if (a.path("state").asText().equals("firing")) {
                  firing.add(a.path("labels").path("alertname").asText());
                }
              }
              return firing.containsAll(
                  Set.of(
                      "SchedulerExtenderBindOutcomeUnknown",
                      "SchedulerExtenderAssumedPodsExpired"));
            });
    JsonNode alerts = prometheus.alerts();
    log.info("Prometheus's /api/v1/alerts: {}", alerts.toPrettyString());
    JsonNode unknown = null;
    for (JsonNode a : alerts) {
      if (a.path("labels")
          .path("alertname")
          .asText()
          .equals("SchedulerExtenderBindOutcomeUnknown")) {
        unknown = a;
      }
    }
    assertThat(unknown).isNotNull();
    assertThat(unknown.path("labels").path("severity").asText()).isEqualTo("warning");
    assertThat(unknown.path("labels").path("instance").asText()).isEqualTo("127.0.0.1:" + port);
    assertThat(unknown.path("annotations").path("description").asText())
        .startsWith(
            "Bindings sent by 127.0.0.1:"
                + port
                + " that got no answer from the API server within extender.bind.timeout, in the"
                + " last 10 minutes: 1.");
    assertThat(firing)
        .doesNotContain(
            "SchedulerExtenderDown",
            "SchedulerExtenderNotReady",
            "SchedulerExtenderWatchOutOfSync",
            "SchedulerExtenderCacheInconsistent",
            "SchedulerExtenderCacheRepairs");
  }

  private static void deleteRecursively(Path root) {
    try (var paths = Files.walk(root)) {
      paths.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
