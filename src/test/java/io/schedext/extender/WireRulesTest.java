package io.schedext.extender;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.schedext.testing.Http;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.test.context.SpringBootTest;

/**
 * The node fields of filter and prioritize as docs/api.md states them, against the bundled demo
 * cluster.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
class WireRulesTest {

  private static final String POD =
      "{\"metadata\":{\"name\":\"p\",\"namespace\":\"default\",\"uid\":\"u\"},"
          + "\"spec\":{\"containers\":[{\"name\":\"c\",\"resources\":{\"requests\":{\"cpu\":\"100m\"}}}]}}";

  @Value("${local.server.port}")
  int port;

  @Test
  void aNodeNameGivenTwiceIsAnsweredOnce() {
    String body =
        "{\"Pod\":"
            + POD
            + ",\"NodeNames\":[\"node-a1\",\"node-b4\",\"node-a1\",\"node-x\",\"node-b4\","
            + "\"node-x\"]}";
    JsonNode j = new Http(port).post("/scheduler/filter", body).json();
    assertThat(j.get("NodeNames")).extracting(JsonNode::asText).containsExactly("node-a1");
    assertThat(j.get("FailedAndUnresolvableNodes").size()).isEqualTo(2);

    JsonNode scores = new Http(port).post("/scheduler/prioritize", body).json();
    assertThat(scores)
        .extracting(s -> s.get("Host").asText())
        .containsExactly("node-a1", "node-b4", "node-x");
  }

  @Test
  void aNodeObjectGivenTwiceIsAnsweredOnce() {
    String node =
        "{\"metadata\":{\"name\":\"fresh\"},\"status\":{\"allocatable\":{\"cpu\":\"2\",\"memory\":\"4Gi\","
            + "\"pods\":\"10\"}}}";
    String body = "{\"Pod\":" + POD + ",\"Nodes\":{\"items\":[" + node + "," + node + "]}}";
    JsonNode j = new Http(port).post("/scheduler/filter", body).json();
    assertThat(j.get("Nodes").get("items"))
        .extracting(n -> n.get("metadata").get("name").asText())
        .containsExactly("fresh");
    assertThat(j.get("NodeNames").isNull()).isTrue();
  }

  @Test
  void theLargestQuantitiesTheApiServerAcceptsAreScoredNotA500() {
    String huge =
        "{\"metadata\":{\"name\":\"huge\",\"namespace\":\"default\",\"uid\":\"huge\"},\"spec\":"
            + "{\"containers\":[{\"name\":\"c\",\"resources\":{\"requests\":{\"cpu\":\"9223372036854775\","
            + "\"memory\":\"8Ei\"}}}]}}";
    String body = "{\"Pod\":" + huge + ",\"NodeNames\":[\"node-a1\",\"node-b1\",\"node-c1\"]}";
    Http.Reply scores = new Http(port).post("/scheduler/prioritize", body);
    assertThat(scores.status()).as(scores.body()).isEqualTo(200);
    assertThat(scores.json())
        .hasSize(3)
        .allSatisfy(s -> assertThat(s.get("Score").asLong()).isBetween(0L, 10L));
    JsonNode filtered = new Http(port).post("/scheduler/filter", body).json();
    assertThat(filtered.get("NodeNames")).isEmpty();
    assertThat(filtered.get("FailedAndUnresolvableNodes").get("node-a1").asText())
        .isEqualTo("Insufficient cpu, Insufficient memory");
  }
}
