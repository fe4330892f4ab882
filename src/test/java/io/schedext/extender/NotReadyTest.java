package io.schedext.extender;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.schedext.cache.EventGate;
import io.schedext.cache.SchedulerCache;
import io.schedext.cluster.ClusterSource;
import io.schedext.cluster.ObjectStore;
import io.schedext.framework.runtime.Framework;
import io.schedext.framework.runtime.Frameworks;
import io.schedext.profiles.InTreeRegistry;
import io.schedext.profiles.ProfileDefaults;
import io.schedext.testing.FixedSource;
import io.schedext.testing.MakeNode;
import io.schedext.testing.TestFrameworks;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.mock.web.MockHttpServletRequest;
import org.springframework.mock.web.MockHttpServletResponse;

/**
 * While the cluster state is not in sync, filter answers an Error (never a silently empty list),
 * bind refuses, and explain by name answers 503 rather than "no such pod".
 */
class NotReadyTest {

  private final ObjectMapper json = new ObjectMapper();
  private final SimpleMeterRegistry meters = new SimpleMeterRegistry();

  private ExtenderEndpoint endpoint() {
    SchedulerCache cache = new SchedulerCache(Clock.systemUTC(), Duration.ZERO);
    cache.addNode(MakeNode.node().name("n1").capacity(Map.of("cpu", "4")).obj());
    ObjectStore store = new ObjectStore();
    var registry = InTreeRegistry.create();
    Framework fw =
        Framework.create(
            ProfileDefaults.profile(ProfileDefaults.NAME, registry.names()),
            registry,
            TestFrameworks.services(store));
    ClusterSource lost =
        FixedSource.notReady(
            "watches down for longer than PT30S: [Pod (since 2026-11-22T10:00:00Z)]");
    ExtenderMetrics metrics = new ExtenderMetrics(meters);
    VerbHarness service =
        new VerbHarness(
            cache,
            lost,
            new Frameworks(Map.of(fw.profileName(), fw), fw.profileName()),
            TestFrameworks.services(store).parallelizer(),
            new SeenPods(10, Duration.ofMinutes(1), System::nanoTime),
            metrics);
    return service.endpoint(EventGate.off(), new BindWorkers(1));
  }

  private JsonNode post(String verb, String body, int status) throws Exception {
    MockHttpServletResponse r =
        VerbHarness.post(endpoint(), "/scheduler/" + verb, body.getBytes(StandardCharsets.UTF_8));
    assertThat(r.getStatus()).isEqualTo(status);
    assertThat(r.getContentType()).isEqualTo("application/json");
    return json.readTree(r.getContentAsByteArray());
  }

  @Test
  void filterAnswersAnErrorNamingWhyInsteadOfAnEmptyList() throws Exception {
    JsonNode j =
        post(
            "filter",
            "{\"Pod\":{\"metadata\":{\"name\":\"p\",\"uid\":\"u\"}},\"NodeNames\":[\"n1\"]}",
            200);
    assertThat(j.get("Error").asText())
        .isEqualTo(
            "extender cluster state is not ready: watches down for longer than "
                + "PT30S: [Pod (since 2026-11-22T10:00:00Z)]");
    assertThat(j.get("NodeNames").isArray())
        .as("NodeNames, the field the request used, is a list")
        .isTrue();
    assertThat(j.get("NodeNames")).isEmpty();
    assertThat(j.get("Nodes").isNull()).isTrue();
  }

  @Test
  void aFilterWithFullNodesAnswersTheErrorWithAnEmptyNodeList() throws Exception {
    JsonNode j =
        post(
            "filter",
            "{\"Pod\":{\"metadata\":{\"name\":\"p\",\"uid\":\"u\"}},\"Nodes\":{\"items\":[]}}",
            200);
    assertThat(j.get("Error").asText()).startsWith("extender cluster state is not ready");
    assertThat(j.get("Nodes").get("items").isArray()).isTrue();
    assertThat(j.get("NodeNames").isNull()).isTrue();
  }

  @Test
  void prioritizeAndPreemptAnswer503AndBindRefuses() throws Exception {
    String args = "{\"Pod\":{\"metadata\":{\"name\":\"p\",\"uid\":\"u\"}},\"NodeNames\":[\"n1\"]}";
    assertThat(post("prioritize", args, 503).get("Error").asText())
        .startsWith("extender cluster state is not ready");
    assertThat(
            post(
                    "preempt",
                    "{\"Pod\":{\"metadata\":{\"name\":\"p\"}},\"NodeNameToMetaVictims\":{}}",
                    503)
                .get("Error")
                .asText())
        .startsWith("extender cluster state is not ready");
    assertThat(
            post(
                    "bind",
                    "{\"PodName\":\"p\",\"PodNamespace\":\"d\",\"PodUID\":\"u\",\"Node\":\"n1\"}",
                    200)
                .get("Error")
                .asText())
        .startsWith("extender cluster state is not ready");
  }

  @Test
  void everyNotReadyAnswerIsCountedAsUnavailableWhateverItsStatus() throws Exception {
    String args = "{\"Pod\":{\"metadata\":{\"name\":\"p\",\"uid\":\"u\"}},\"NodeNames\":[\"n1\"]}";
    post("filter", args, 200);
    post("prioritize", args, 503);
    post(
        "bind", "{\"PodName\":\"p\",\"PodNamespace\":\"d\",\"PodUID\":\"u\",\"Node\":\"n1\"}", 200);
    // Filter and bind answer 200 with an Error, as kube-scheduler reads them: the count says what
    // they were, so that not-ready answers show in extender_request_duration_seconds.
    for (String verb : List.of("filter", "prioritize", "bind")) {
      assertThat(
              meters
                  .find("extender.request.duration")
                  .tag("verb", verb)
                  .tag("outcome", "unavailable")
                  .timer())
          .as("%s answered while not ready", verb)
          .isNotNull()
          .satisfies(t -> assertThat(t.count()).isEqualTo(1));
    }
    assertThat(meters.find("extender.request.duration").tag("outcome", "ok").timers()).isEmpty();
  }

  @Test
  void explainByNameAnswers503InsteadOfNotFound() throws Exception {
    MockHttpServletRequest req = new MockHttpServletRequest("GET", "/scheduler/explain/default/p");
    MockHttpServletResponse r = VerbHarness.serve(endpoint(), req);
    assertThat(r.getStatus()).isEqualTo(503);
    assertThat(json.readTree(r.getContentAsByteArray()).get("Error").asText())
        .startsWith("extender cluster state is not ready");
  }
}
