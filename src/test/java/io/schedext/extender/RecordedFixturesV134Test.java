package io.schedext.extender;

import static io.schedext.extender.V134Fixtures.body;
import static io.schedext.extender.V134Fixtures.names;
import static io.schedext.extender.V134Fixtures.nodesSent;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.schedext.testing.Http;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.test.context.SpringBootTest;

/**
 * Replays the request bodies recorded from a real kube-scheduler v1.34.9 over real HTTP against the
 * cluster they were sent against ({@code cluster.yaml}: nodes n1 and n2 in zone z1 with 1.5 and 1.4
 * cpu free, n3 and n4 in zone z2 with 3.4 and 2.9), and checks the replies are what kube-scheduler
 * needs: every node it sent passes, in the field it used; offered every node, the ones its own
 * filters had left out are rejected (so sidecars, pod-level requests and matchLabelKeys are read as
 * it reads them); the scores follow the nodes' room; the victims it proposed are the ones needed;
 * the bind lands. The nominated pod's calls, sent after its victim had gone, are replayed by {@link
 * RecordedNominatedFixturesV134Test}.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
@SpringBootTest(
    webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
    properties = "extender.cluster.file=" + V134Fixtures.CLUSTER)
class RecordedFixturesV134Test {

  @Value("${local.server.port}")
  int port;

  /**
   * One recorded pod.
   *
   * @param name how the test names it
   * @param infix its files' infix ({@code filter<infix>.ncc-true.json})
   * @param failed the nodes kube-scheduler's own filters rejected, with the reason upstream's
   *     plugin gives
   */
  record Scenario(String name, String infix, Map<String, String> failed) {
    @Override
    public String toString() {
      return name;
    }
  }

  static Stream<Scenario> scenarios() {
    return Stream.of(
        new Scenario("a plain pod of 500m: every node has room", "", Map.of()),
        new Scenario(
            "a sidecar: 2.5 cpu while the init container runs beside it (1.5 as plain init"
                + " containers, which n1 has)",
            ".sidecar",
            Map.of("n1", "Insufficient cpu", "n2", "Insufficient cpu")),
        new Scenario(
            "pod-level requests of 2 cpu over containers asking 250m",
            ".pod-level",
            Map.of("n1", "Insufficient cpu", "n2", "Insufficient cpu")),
        new Scenario(
            "spread by revision with matchLabelKeys: z1 already has the one v2 pod (counting v1"
                + " too, z2 would be the fuller zone)",
            ".spread",
            Map.of(
                "n1", "node(s) didn't match pod topology spread constraints",
                "n2", "node(s) didn't match pod topology spread constraints")));
  }

  static Stream<String> filterBodies() {
    return scenarios()
        .flatMap(
            s ->
                Stream.of(
                    "filter" + s.infix() + ".ncc-true.json",
                    "filter" + s.infix() + ".ncc-false.json"));
  }

  static Stream<String> prioritizeBodies() {
    return scenarios()
        .flatMap(
            s ->
                Stream.of(
                    "prioritize" + s.infix() + ".ncc-true.json",
                    "prioritize" + s.infix() + ".ncc-false.json"));
  }

  private Http http() {
    return new Http(port);
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("filterBodies")
  void filterLetsEveryNodeKubeSchedulerSentThroughInTheFieldItUsed(String file) {
    Http.Reply r = http().post("/scheduler/filter", body(file));

    assertThat(r.status()).isEqualTo(200);
    JsonNode j = r.json();
    assertThat(j.get("Error").asText()).isEmpty();
    assertThat(j.get("FailedNodes").size()).isZero();
    assertThat(j.get("FailedAndUnresolvableNodes").size()).isZero();
    if (file.endsWith(".ncc-true.json")) {
      assertThat(j.get("Nodes").isNull()).isTrue();
      assertThat(names(j.get("NodeNames"))).isEqualTo(nodesSent(file));
    } else {
      assertThat(j.get("NodeNames").isNull()).isTrue();
      assertThat(names(j.get("Nodes").get("items"))).isEqualTo(nodesSent(file));
      j.get("Nodes")
          .get("items")
          .forEach(
              n ->
                  assertThat(n.path("status").path("allocatable").path("cpu").asText())
                      .isEqualTo("4"));
    }
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("scenarios")
  void filterOfEveryNodeRejectsTheNodesKubeSchedulerLeftOut(Scenario s) {
    String file = "filter" + s.infix() + ".ncc-true.json";
    Http.Reply r =
        http().post("/scheduler/filter", V134Fixtures.withNodeNames(file, "n1", "n2", "n3", "n4"));

    assertThat(r.status()).isEqualTo(200);
    JsonNode j = r.json();
    assertThat(j.get("Error").asText()).isEmpty();
    assertThat(names(j.get("NodeNames"))).containsExactlyInAnyOrderElementsOf(nodesSent(file));
    Map<String, String> failed = new LinkedHashMap<>();
    j.get("FailedNodes")
        .fields()
        .forEachRemaining(e -> failed.put(e.getKey(), e.getValue().asText()));
    assertThat(failed).isEqualTo(s.failed());
    assertThat(j.get("FailedAndUnresolvableNodes").size()).isZero();
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("prioritizeBodies")
  void prioritizeScoresEveryNodeSentFromZeroToTenTheSameAfterItsFilterCallAsAlone(String file) {
    Http http = http();
    // Alone first: after another pod's filter call, nothing of one for this pod is reused.
    http.post("/scheduler/filter", body("filter.nominated.ncc-true.json"));
    Map<String, Long> alone = scores(http.post("/scheduler/prioritize", body(file)), file);
    http.post("/scheduler/filter", body(file.replace("prioritize", "filter")));
    Map<String, Long> afterFilter = scores(http.post("/scheduler/prioritize", body(file)), file);

    assertThat(afterFilter).isEqualTo(alone);
    assertThat(new ArrayList<>(alone.keySet())).isEqualTo(nodesSent(file));
    assertThat(alone.values()).allSatisfy(score -> assertThat(score).isBetween(0L, 10L));
    // n3 and n4 have more room than n1 and n2, and n3 more than n4.
    assertThat(alone.get("n3")).isGreaterThanOrEqualTo(alone.get("n4"));
    if (alone.containsKey("n1")) {
      assertThat(Math.min(alone.get("n3"), alone.get("n4")))
          .isGreaterThan(Math.max(alone.get("n1"), alone.get("n2")));
    }
  }

  private static Map<String, Long> scores(Http.Reply r, String file) {
    assertThat(r.status()).as(file).isEqualTo(200);
    JsonNode j = r.json();
    assertThat(j.isArray()).as(file).isTrue();
    Map<String, Long> out = new LinkedHashMap<>();
    j.forEach(h -> out.put(h.get("Host").asText(), h.get("Score").asLong()));
    return out;
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("preemptBodies")
  void preemptKeepsTheVictimKubeSchedulerProposedOnEachNodeByUid(String file) throws Exception {
    Http.Reply r = http().post("/scheduler/preempt", body(file));

    assertThat(r.status()).isEqualTo(200);
    String low1 = V134Fixtures.uid(V134Fixtures.CLUSTER, "low1");
    String low2 = V134Fixtures.uid(V134Fixtures.CLUSTER, "low2");
    JsonNode want =
        new ObjectMapper()
            .readTree(
                """
                {"NodeNameToMetaVictims": {
                  "n1": {"Pods": [{"UID": "%s"}], "NumPDBViolations": 0},
                  "n2": {"Pods": [{"UID": "%s"}], "NumPDBViolations": 0}}}
                """
                    .formatted(low1, low2));
    assertThat(r.json()).isEqualTo(want);
  }

  static Stream<String> preemptBodies() {
    return Stream.of("preempt.ncc-true.json", "preempt.ncc-false.json");
  }

  /** Last: the pod it binds is the one the other calls are about. */
  @Test
  @Order(Integer.MAX_VALUE)
  void bindOfThePlainPodSeenInFilterBindsItAndTheCacheShowsItOnThatNode() {
    Http http = http();
    String node = V134Fixtures.json("bind.json").get("Node").asText();
    assertThat(http.post("/scheduler/filter", body("filter.ncc-true.json")).status())
        .isEqualTo(200);

    Http.Reply r = http.post("/scheduler/bind", body("bind.json"));

    assertThat(r.status()).isEqualTo(200);
    assertThat(r.json().get("Error").asText()).isEmpty();
    List<String> pods = new ArrayList<>();
    http.get("/debug/cache/nodes/" + node)
        .json()
        .get("pods")
        .forEach(p -> pods.add(p.get("pod").asText()));
    assertThat(pods).contains("default/p1");
    Http.Reply again = http.post("/scheduler/bind", body("bind.json"));
    assertThat(again.json().get("Error").asText()).as("a retried bind is idempotent").isEmpty();
    String other = node.equals("n3") ? "n4" : "n3";
    Http.Reply elsewhere =
        http.post(
            "/scheduler/bind",
            body("bind.json").replace("\"Node\":\"" + node + "\"", "\"Node\":\"" + other + "\""));
    assertThat(elsewhere.json().get("Error").asText())
        .isEqualTo("pod default/p1 is already bound to node " + node);
  }
}
