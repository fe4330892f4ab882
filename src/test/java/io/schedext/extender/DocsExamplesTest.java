package io.schedext.extender;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.schedext.testing.Http;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.test.context.SpringBootTest;

/** The request files under docs/examples work as written against the bundled demo cluster. */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
class DocsExamplesTest {

  @Value("${local.server.port}")
  int port;

  private Http.Reply post(String verb, String file) throws Exception {
    return new Http(port)
        .post("/scheduler/" + verb, Files.readString(Path.of("docs/examples/" + file)));
  }

  @Test
  void filterKeepsSchedulableNodesAndGivesUpstreamReasonsForTheOthers() throws Exception {
    Http.Reply r = post("filter", "filter.json");
    assertThat(r.status()).isEqualTo(200);
    JsonNode j = r.json();
    assertThat(j.get("Error").asText()).isEmpty();
    assertThat(j.get("NodeNames").size()).isPositive();
    assertThat(j.get("FailedAndUnresolvableNodes").get("node-b4").asText())
        .isEqualTo("node(s) were unschedulable");
    assertThat(j.get("FailedAndUnresolvableNodes").get("node-c4").asText())
        .isEqualTo("node(s) had untolerated taint(s)");
  }

  @Test
  void filterWithFullNodesAnswersInNodes() throws Exception {
    Http.Reply r = post("filter", "filter-nodes.json");
    assertThat(r.status()).isEqualTo(200);
    assertThat(r.json().get("NodeNames").isNull()).isTrue();
    assertThat(r.json().get("Nodes").get("items").isArray()).isTrue();
    assertThat(r.json().get("Error").asText()).isEmpty();
  }

  @Test
  void prioritizeScoresEveryNode() throws Exception {
    Http.Reply r = post("prioritize", "prioritize.json");
    assertThat(r.status()).isEqualTo(200);
    assertThat(r.json().size()).isEqualTo(10);
  }

  @Test
  void explainCoversEveryNodeOfTheCache() throws Exception {
    Http.Reply r = post("explain", "explain.json");
    assertThat(r.status()).isEqualTo(200);
    JsonNode j = r.json();
    assertThat(j.get("pod").asText()).isEqualTo("shop/redis-2");
    assertThat(j.get("nodes").size()).isEqualTo(12);
    assertThat(j.get("filterPlugins").size()).isPositive();
  }

  @Test
  void explainShowsWhatPreemptionWouldDoWhenNoNodeFits() throws Exception {
    Http.Reply r = post("explain", "explain-preemption.json");
    assertThat(r.status()).isEqualTo(200);
    JsonNode j = r.json();
    assertThat(j.get("feasibleNodes").size()).isZero();
    JsonNode p = j.get("preemption");
    assertThat(p.get("code").asText()).isEqualTo("Success");
    assertThat(p.get("nominatedNode").asText()).isEqualTo("node-b3");
    assertThat(p.get("victims"))
        .extracting(v -> v.get("pod").asText())
        .containsExactly("batch/etl-1");
  }

  @Test
  void preemptAnswersByUid() throws Exception {
    Http.Reply r = post("preempt", "preempt.json");
    assertThat(r.status()).isEqualTo(200);
    assertThat(r.json().get("NodeNameToMetaVictims").isObject()).isTrue();
  }

  @Test
  void bindBindsThePendingPodAndTheNodeViewShowsIt() throws Exception {
    Http.Reply r = post("bind", "bind.json");
    assertThat(r.status()).isEqualTo(200);
    assertThat(r.json().get("Error").asText()).isEmpty();
    assertThat(new Http(port).get("/debug/cache/nodes/node-c1").body()).contains("shop/web-7d9c-4");
  }

  @Test
  void aPodWithAClaimFitsWhereItsDeviceIsAndBindingAllocatesIt() throws Exception {
    JsonNode f = post("filter", "filter-claim.json").json();
    assertThat(f.get("NodeNames"))
        .extracting(JsonNode::asText)
        .containsExactly("node-c2", "node-c3");
    assertThat(f.get("FailedAndUnresolvableNodes").get("node-c1").asText())
        .isEqualTo("cannot allocate all claims");
    assertThat(post("bind", "bind-claim.json").json().get("Error").asText()).isEmpty();
    JsonNode training = new Http(port).get("/scheduler/explain/ml/training").json();
    for (JsonNode n : training.get("nodes")) {
      if (n.get("node").asText().equals("node-c2")) {
        JsonNode dra = n.get("filters").get(n.get("filters").size() - 1);
        assertThat(dra.get("plugin").asText()).isEqualTo("DynamicResources");
        assertThat(dra.at("/detail/data/requests/0/allocated").asInt()).isEqualTo(1);
        assertThat(dra.at("/detail/data/requests/0/usable").asInt()).isEqualTo(1);
      }
    }
  }
}
