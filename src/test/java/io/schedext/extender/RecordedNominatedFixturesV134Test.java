package io.schedext.extender;

import static io.schedext.extender.V134Fixtures.body;
import static io.schedext.extender.V134Fixtures.names;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.schedext.testing.Http;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.test.context.SpringBootTest;

/**
 * Replays the calls kube-scheduler v1.34.9 made for the preemptor {@code high} (3.6 cpu) once its
 * preemption had evicted {@code low1} from n1 and nominated it there, against the cluster as it was
 * then ({@code cluster.nominated.yaml}: n1 empty, {@code high} pending with {@code
 * status.nominatedNodeName: n1}). kube-scheduler 1.34 tries the nominated node first, alone.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
@SpringBootTest(
    webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
    properties = "extender.cluster.file=" + V134Fixtures.CLUSTER_NOMINATED)
class RecordedNominatedFixturesV134Test {

  @Value("${local.server.port}")
  int port;

  private Http http() {
    return new Http(port);
  }

  private static Map<String, String> failed(JsonNode reply) {
    Map<String, String> out = new LinkedHashMap<>();
    reply
        .get("FailedNodes")
        .fields()
        .forEachRemaining(e -> out.put(e.getKey(), e.getValue().asText()));
    return out;
  }

  @ParameterizedTest
  @ValueSource(strings = {"filter.nominated.ncc-true.json", "filter.nominated.ncc-false.json"})
  void theNominatedNodeAloneFitsThePodItIsNominatedFor(String file) {
    Http.Reply r = http().post("/scheduler/filter", body(file));

    assertThat(r.status()).isEqualTo(200);
    JsonNode j = r.json();
    assertThat(j.get("Error").asText()).isEmpty();
    assertThat(failed(j)).isEmpty();
    assertThat(j.get("FailedAndUnresolvableNodes").size()).isZero();
    if (file.endsWith(".ncc-true.json")) {
      assertThat(j.get("Nodes").isNull()).isTrue();
      assertThat(names(j.get("NodeNames"))).containsExactly("n1");
    } else {
      assertThat(j.get("NodeNames").isNull()).isTrue();
      assertThat(names(j.get("Nodes").get("items"))).containsExactly("n1");
    }
  }

  @Test
  void offeredEveryNodeThePreemptorFitsOnlyTheOneItsVictimLeft() {
    Http.Reply r =
        http()
            .post(
                "/scheduler/filter",
                V134Fixtures.withNodeNames(
                    "filter.nominated.ncc-true.json", "n1", "n2", "n3", "n4"));

    assertThat(r.status()).isEqualTo(200);
    assertThat(names(r.json().get("NodeNames"))).containsExactly("n1");
    assertThat(failed(r.json()))
        .isEqualTo(
            Map.of("n2", "Insufficient cpu", "n3", "Insufficient cpu", "n4", "Insufficient cpu"));
  }

  @Test
  void aLowerPriorityPodIsKeptOffTheNodeNominatedForThePreemptor() {
    // The plain 500m pod's recorded call: n1 is empty, but high (3.6 cpu, priority 1000) is
    // nominated there, and upstream counts a nominated pod of at least the same priority.
    Http.Reply r =
        http()
            .post(
                "/scheduler/filter",
                V134Fixtures.withNodeNames("filter.ncc-true.json", "n1", "n2", "n3", "n4"));

    assertThat(r.status()).isEqualTo(200);
    assertThat(names(r.json().get("NodeNames"))).containsExactly("n2", "n3", "n4");
    assertThat(failed(r.json())).isEqualTo(Map.of("n1", "Insufficient cpu"));
  }

  /** Last: the pod it binds is the one the other calls are about. */
  @Test
  @Order(Integer.MAX_VALUE)
  void bindOfTheNominatedPodPlacesItOnItsNominatedNode() {
    Http http = http();

    Http.Reply r = http.post("/scheduler/bind", body("bind.nominated.json"));

    assertThat(r.status()).isEqualTo(200);
    assertThat(r.json().get("Error").asText()).isEmpty();
    List<String> pods = new ArrayList<>();
    http.get("/debug/cache/nodes/n1")
        .json()
        .get("pods")
        .forEach(p -> pods.add(p.get("pod").asText()));
    assertThat(pods).containsExactly("default/high");
  }
}
