package io.schedext.extender;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.schedext.testing.Http;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.test.context.SpringBootTest;

/** The read-only views behind the web page, over real HTTP against the bundled demo cluster. */
@SpringBootTest(
    webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
    properties = ExplainByNameTest.UNTOUCHED_DEMO)
class ClusterViewTest {

  @Value("${local.server.port}")
  int port;

  @Test
  void theOverviewPagesThroughTheNodesInNameOrderWithTotals() {
    Http http = new Http(port);
    JsonNode first = http.get("/debug/overview?limit=5").json();
    JsonNode rest = http.get("/debug/overview?offset=5&limit=500").json();
    assertThat(first.get("nodes").asInt()).isEqualTo(12);
    assertThat(first.get("matchingNodes").asInt()).isEqualTo(12);
    List<String> names = new ArrayList<>();
    first.get("nodeList").forEach(n -> names.add(n.get("node").asText()));
    rest.get("nodeList").forEach(n -> names.add(n.get("node").asText()));
    assertThat(names).hasSize(12).isSorted().startsWith("node-a1");
    JsonNode a1 = first.get("nodeList").get(0);
    assertThat(a1.get("zone").asText()).isEqualTo("zone-a");
    assertThat(a1.get("allocatable").get("milliCpu").asLong()).isPositive();
    assertThat(a1.get("requested").get("pods").asInt()).isEqualTo(a1.get("pods").size());
    long podsOnNodes = 0;
    for (JsonNode page : List.of(first, rest)) {
      for (JsonNode n : page.get("nodeList")) {
        podsOnNodes += n.get("pods").size();
      }
    }
    assertThat(first.get("pods").asLong()).isEqualTo(podsOnNodes);
  }

  @Test
  void theOverviewFiltersByNodeName() {
    JsonNode j = new Http(port).get("/debug/overview?name=-c").json();
    assertThat(j.get("matchingNodes").asInt()).isEqualTo(4);
    assertThat(j.get("nodeList"))
        .extracting(n -> n.get("node").asText())
        .containsExactly("node-c1", "node-c2", "node-c3", "node-c4");
  }

  @Test
  void pendingPodsAreListedByNameWithTheirRequests() {
    JsonNode j = new Http(port).get("/debug/pending-pods").json();
    List<String> pods = new ArrayList<>();
    j.get("pods").forEach(p -> pods.add(p.get("pod").asText()));
    assertThat(pods).isSorted().contains("batch/big-batch", "batch/trainer-2", "shop/redis-2");
    assertThat(j.get("total").asInt()).isEqualTo(pods.size());
    JsonNode redis = j.get("pods").get(pods.indexOf("shop/redis-2"));
    assertThat(redis.get("priority").asInt()).isEqualTo(2000);
    assertThat(redis.get("milliCpu").asLong()).isEqualTo(1000);
    assertThat(redis.get("nominatedNode").isNull()).isTrue();
  }

  record Mistake(String name, String path, String error) {
    @Override
    public String toString() {
      return name;
    }
  }

  static Stream<Mistake> mistakes() {
    return Stream.of(
        new Mistake(
            "a limit of zero is refused",
            "/debug/overview?limit=0",
            "query parameter \"limit\": must be a whole number from 1 to 500, not \"0\""),
        new Mistake(
            "a limit over the maximum is refused",
            "/debug/pending-pods?limit=501",
            "query parameter \"limit\": must be a whole number from 1 to 500, not \"501\""),
        new Mistake(
            "an offset that is not a number is refused",
            "/debug/overview?offset=x",
            "query parameter \"offset\": must be a whole number from 0 to 2147483647, not \"x\""));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("mistakes")
  void badParametersGetA400InTheErrorForm(Mistake m) {
    Http.Reply r = new Http(port).get(m.path());
    assertThat(r.status()).isEqualTo(400);
    assertThat(r.json().get("Error").asText()).isEqualTo(m.error());
  }

  @Test
  void thePageIsServedAtTheRoot() {
    Http.Reply r = new Http(port).get("/");
    assertThat(r.status()).isEqualTo(200);
    assertThat(r.header("Content-Type")).startsWith("text/html");
    assertThat(r.body())
        .contains("<script src=\"app.js\"></script>")
        .doesNotContain("http://", "https://");
  }
}
