package io.schedext.extender;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.schedext.testing.Http;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.test.context.SpringBootTest;

/**
 * Replays every request body recorded from a real kube-scheduler v1.26.5 over real HTTP against the
 * cluster they were recorded on, and checks the replies are what kube-scheduler needs.
 */
@SpringBootTest(
    webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
    properties = "extender.cluster.file=classpath:fixtures-cluster.yaml")
class RecordedFixturesTest {

  private static final String DIR = "fixtures/kube-scheduler-v1.26/";

  @Value("${local.server.port}")
  int port;

  private Http http() {
    return new Http(port);
  }

  private static List<String> names(JsonNode array) {
    List<String> out = new ArrayList<>();
    array.forEach(
        n -> out.add(n.isTextual() ? n.asText() : n.path("metadata").path("name").asText()));
    return out;
  }

  @Test
  void filterWithNodeNamesAnswersInNodeNamesAndLetsEveryRecordedNodeThrough() {
    Http.Reply r = http().post("/scheduler/filter", Http.resource(DIR + "filter.ncc-true.json"));
    assertThat(r.status()).isEqualTo(200);
    JsonNode j = r.json();
    assertThat(j.get("Nodes").isNull()).isTrue();
    assertThat(names(j.get("NodeNames"))).containsExactly("n1", "n3", "n2");
    assertThat(j.get("FailedNodes").size()).isZero();
    assertThat(j.get("FailedAndUnresolvableNodes").size()).isZero();
    assertThat(j.get("Error").asText()).isEmpty();
  }

  @Test
  void repliesGoOutWithTheirLengthRatherThanChunked() throws Exception {
    // A reply far larger than the connector's buffer: the recorded filter call with 5,000 more
    // (unknown) names.
    ObjectNode body =
        (ObjectNode) new ObjectMapper().readTree(Http.resource(DIR + "filter.ncc-true.json"));
    ArrayNode names = (ArrayNode) body.get("NodeNames");
    for (int i = 0; i < 5000; i++) {
      names.add("unknown-node-" + i);
    }
    Http.Reply large = http().post("/scheduler/filter", body.toString());
    assertThat(large.json().get("FailedAndUnresolvableNodes").size()).isEqualTo(5000);
    assertThat(large.body().length()).isGreaterThan(100_000);

    for (Http.Reply r :
        List.of(
            large,
            http()
                .post("/scheduler/prioritize", Http.resource(DIR + "prioritize.ncc-true.json")))) {
      assertThat(r.status()).isEqualTo(200);
      assertThat(r.header("Transfer-Encoding")).isNull();
      assertThat(r.header("Content-Length"))
          .isEqualTo(
              Integer.toString(r.body().getBytes(java.nio.charset.StandardCharsets.UTF_8).length));
    }
  }

  @Test
  void filterWithFullNodesAnswersInNodesWithTheNodeObjects() {
    Http.Reply r = http().post("/scheduler/filter", Http.resource(DIR + "filter.ncc-false.json"));
    assertThat(r.status()).isEqualTo(200);
    JsonNode j = r.json();
    assertThat(j.get("NodeNames").isNull()).isTrue();
    assertThat(names(j.get("Nodes").get("items"))).containsExactly("n1", "n3", "n2");
    assertThat(
            j.get("Nodes")
                .get("items")
                .get(0)
                .path("status")
                .path("allocatable")
                .path("cpu")
                .asText())
        .isEqualTo("4");
    assertThat(j.get("Error").asText()).isEmpty();
  }

  @Test
  void prioritizeAnswersABareListWithAScoreFromZeroToTenForEveryNode() {
    for (String f : List.of("prioritize.ncc-true.json", "prioritize.ncc-false.json")) {
      Http.Reply r = http().post("/scheduler/prioritize", Http.resource(DIR + f));
      assertThat(r.status()).as(f).isEqualTo(200);
      JsonNode j = r.json();
      assertThat(j.isArray()).as(f).isTrue();
      List<String> hosts = new ArrayList<>();
      j.forEach(
          h -> {
            hosts.add(h.get("Host").asText());
            assertThat(h.get("Score").asLong()).as(f).isBetween(0L, 10L);
          });
      assertThat(hosts).as(f).containsExactlyInAnyOrder("n1", "n2", "n3");
    }
  }

  @Test
  void preemptAnswersByUidInBothModesAndOnlyWithVictimsRunningOnTheNode() {
    for (String f : List.of("preempt.ncc-true.json", "preempt.ncc-false.json")) {
      Http.Reply r = http().post("/scheduler/preempt", Http.resource(DIR + f));
      assertThat(r.status()).as(f).isEqualTo(200);
      JsonNode victims = r.json().get("NodeNameToMetaVictims");
      assertThat(victims.isObject()).as(f).isTrue();
      assertThat(victims.size()).as(f).isPositive();
      victims
          .fields()
          .forEachRemaining(
              e -> {
                assertThat(e.getValue().get("Pods").size()).as(f + " " + e.getKey()).isPositive();
                e.getValue()
                    .get("Pods")
                    .forEach(p -> assertThat(p.get("UID").asText()).isNotEmpty());
              });
    }
  }

  @Test
  void bindOfAPodSeenInFilterBindsItAndTheCacheShowsItOnThatNode() {
    Http http = http();
    assertThat(http.post("/scheduler/filter", Http.resource(DIR + "filter.ncc-true.json")).status())
        .isEqualTo(200);
    Http.Reply r = http.post("/scheduler/bind", Http.resource(DIR + "bind.json"));
    assertThat(r.status()).isEqualTo(200);
    assertThat(r.json().get("Error").asText()).isEmpty();
    JsonNode n2 = http.get("/debug/cache/nodes/n2").json();
    List<String> pods = new ArrayList<>();
    n2.get("pods").forEach(p -> pods.add(p.get("pod").asText()));
    assertThat(pods).contains("default/p1");
    Http.Reply again = http.post("/scheduler/bind", Http.resource(DIR + "bind.json"));
    assertThat(again.json().get("Error").asText()).as("a retried bind is idempotent").isEmpty();
    Http.Reply elsewhere =
        http.post("/scheduler/bind", Http.resource(DIR + "bind.json").replace("\"n2\"", "\"n1\""));
    assertThat(elsewhere.json().get("Error").asText())
        .isEqualTo("pod default/p1 is already bound to node n2");
  }
}
