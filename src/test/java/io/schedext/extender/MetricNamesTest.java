package io.schedext.extender;

import static org.assertj.core.api.Assertions.assertThat;

import io.schedext.testing.Http;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.test.context.SpringBootTest;

/** {@code /actuator/prometheus} exposes kube-scheduler's metric names plus the extender's own. */
@SpringBootTest(
    webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
    properties = "extender.scheduling.plugin-metrics-sample-percent=100")
class MetricNamesTest {

  @Value("${local.server.port}")
  int port;

  @Test
  void afterOneCallOfEachVerbEveryDocumentedSeriesIsExposed() throws Exception {
    Http http = new Http(port);
    for (String verb : List.of("filter", "prioritize", "preempt", "bind", "explain")) {
      String body = Files.readString(Path.of("docs/examples/" + verb + ".json"));
      assertThat(http.post("/scheduler/" + verb, body).status()).as(verb).isEqualTo(200);
    }
    String text = http.get("/actuator/prometheus").body();
    for (String series :
        List.of(
            "scheduler_framework_extension_point_duration_seconds_bucket{application=\"scheduler-extender\","
                + "extension_point=\"Filter\",profile=\"default-scheduler\",status=\"Success\"",
            "scheduler_framework_extension_point_duration_seconds_bucket{application=\"scheduler-extender\","
                + "extension_point=\"Bind\",profile=\"default-scheduler\",status=\"Success\"",
            "scheduler_plugin_execution_duration_seconds_bucket{application=\"scheduler-extender\","
                + "extension_point=\"Filter\",plugin=\"NodeResourcesFit\",status=\"Success\"",
            "scheduler_cache_size{application=\"scheduler-extender\",type=\"nodes\"} 12.0",
            "scheduler_cache_size{application=\"scheduler-extender\",type=\"assumed_pods\"}",
            "scheduler_preemption_attempts_total{application=\"scheduler-extender\"} 1.0",
            "scheduler_preemption_victims_bucket",
            "extender_request_duration_seconds_bucket{application=\"scheduler-extender\",outcome=\"ok\",verb=\"filter\"",
            "extender_request_nodes_bucket{application=\"scheduler-extender\",verb=\"filter\"",
            "extender_bind_total{application=\"scheduler-extender\",result=\"bound\"} 1.0",
            // The other results are exported from the start, so the first of them is an increase.
            "extender_bind_total{application=\"scheduler-extender\",result=\"failed\"} 0.0",
            "extender_bind_total{application=\"scheduler-extender\",result=\"unknown\"} 0.0",
            "extender_bind_total{application=\"scheduler-extender\",result=\"refused\"} 0.0",
            "extender_cache_inconsistencies",
            "extender_cluster_ready{application=\"scheduler-extender\"} 1.0")) {
      assertThat(text).as(series).contains(series);
    }
  }

  @Test
  void springsHttpObservationSkipsTheSchedulingCallsAndKeepsTheRest() throws Exception {
    Http http = new Http(port);
    http.post("/scheduler/filter", Files.readString(Path.of("docs/examples/filter.json")));
    http.get("/actuator/health");
    String text = http.get("/actuator/prometheus").body();
    List<String> observed =
        text.lines().filter(l -> l.startsWith("http_server_requests_seconds_count{")).toList();
    assertThat(observed).anyMatch(l -> l.contains("uri=\"/actuator/health\""));
    // The scheduling call reached no observation at all: every series is another endpoint's.
    assertThat(observed)
        .allMatch(l -> l.contains("uri=\"/actuator/"), "an /actuator endpoint's series");
  }
}
