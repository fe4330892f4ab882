package io.schedext.profiles;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.schedext.testing.Http;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.StreamSupport;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.test.context.SpringBootTest;

/** The service started with a configuration file of two profiles serves each at its own path. */
@SpringBootTest(
    webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
    properties = "extender.config.file=classpath:profiles/two-profiles.yaml")
class ProfilesServiceTest {

  @Value("${local.server.port}")
  int port;

  private JsonNode filter(String path) throws Exception {
    Http.Reply r =
        new Http(port).post(path, Files.readString(Path.of("docs/examples/filter.json")));
    assertThat(r.status()).isEqualTo(200);
    return r.json();
  }

  private static List<String> names(JsonNode array) {
    return StreamSupport.stream(array.spliterator(), false).map(JsonNode::asText).toList();
  }

  @Test
  void theStrictProfileRefusesCordonedAndTaintedNodes() throws Exception {
    JsonNode j = filter("/profiles/strict/filter");
    assertThat(j.get("Error").asText()).isEmpty();
    assertThat(j.get("FailedAndUnresolvableNodes").get("node-b4").asText())
        .isEqualTo("node(s) were unschedulable");
    assertThat(j.get("FailedAndUnresolvableNodes").get("node-c4").asText())
        .isEqualTo("node(s) had untolerated taint(s)");
    assertThat(names(j.get("NodeNames"))).doesNotContain("node-b4", "node-c4");
  }

  @Test
  void theLenientProfileLetsThePodOntoThem() throws Exception {
    JsonNode j = filter("/profiles/lenient/filter");
    assertThat(j.get("Error").asText()).isEmpty();
    assertThat(names(j.get("NodeNames"))).contains("node-b4", "node-c4");
    assertThat(j.get("FailedAndUnresolvableNodes").has("node-b4")).isFalse();
  }

  @Test
  void theFirstProfileServesScheduler() throws Exception {
    assertThat(filter("/scheduler/filter")).isEqualTo(filter("/profiles/strict/filter"));
  }

  @Test
  void debugConfigShowsBothProfilesAsTheyRun() {
    Http.Reply r = new Http(port).get("/debug/config");
    assertThat(r.status()).isEqualTo(200);
    JsonNode j = r.json();
    assertThat(j.get("defaultProfile").asText()).isEqualTo("strict");
    JsonNode strict = j.get("profiles").get(0);
    JsonNode lenient = j.get("profiles").get(1);
    assertThat(
            List.of(
                strict.get("schedulerName").asText(),
                strict.get("servesScheduler").asBoolean(),
                lenient.get("schedulerName").asText(),
                lenient.get("servesScheduler").asBoolean()))
        .isEqualTo(List.of("strict", true, "lenient", false));
    assertThat(names(strict.at("/plugins/filter")))
        .startsWith("NodeUnschedulable", "NodeName", "TaintToleration");
    assertThat(names(lenient.at("/plugins/filter")))
        .doesNotContain("NodeUnschedulable", "TaintToleration");
    assertThat(names(lenient.at("/plugins/score"))).startsWith("ImageLocality");
    assertThat(lenient.at("/scoreWeights/ImageLocality").asInt()).isEqualTo(5);
    assertThat(names(strict.at("/plugins/bind"))).containsExactly("DefaultBinder");
    assertThat(
            StreamSupport.stream(strict.get("pluginConfig").spliterator(), false)
                .filter(c -> c.get("name").asText().equals("NodeResourcesFit"))
                .findFirst()
                .orElseThrow()
                .at("/args/scoringStrategy/type")
                .asText())
        .isEqualTo("LeastAllocated");
  }
}
