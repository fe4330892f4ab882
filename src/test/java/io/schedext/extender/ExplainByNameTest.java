package io.schedext.extender;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.schedext.testing.Http;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.test.context.SpringBootTest;

/**
 * Explain over real HTTP against the bundled demo cluster: a pod by name (pending or bound), the
 * summary in kube-scheduler's words, the text report, a pasted Pod in JSON or YAML, and the
 * mistakes.
 */
@SpringBootTest(
    webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
    properties = ExplainByNameTest.UNTOUCHED_DEMO)
class ExplainByNameTest {

  /**
   * The demo cluster in a context of its own: the tests that bind demo pods share the default one,
   * and what these tests (and the docs' examples) show depends on those pods still pending.
   */
  static final String UNTOUCHED_DEMO = "extender.cluster.file=classpath:cluster/demo-cluster.yaml";

  /**
   * Fits nowhere and preempting cannot help: no node has 64 allocatable CPUs (NodeResourcesFit:
   * unresolvable).
   */
  static final String HUGE_POD_YAML =
      """
      apiVersion: v1
      kind: Pod
      metadata:
        name: huge
        namespace: batch
      spec:
        containers:
        - name: main
          image: registry.k8s.io/pause:3.9
          resources:
            requests:
              cpu: "64"
      """;

  static final String HUGE_POD_SUMMARY =
      "0/12 nodes are available: 1 node(s) had untolerated taint(s), "
          + "1 node(s) were unschedulable, 10 Insufficient cpu. no new claims to deallocate, "
          + "preemption: 0/12 nodes are available: 12 Preemption is not helpful for scheduling.";

  @Value("${local.server.port}")
  int port;

  @Test
  void aPendingPodIsExplainedOverEveryNodeWithASummary() {
    Http.Reply r = new Http(port).get("/scheduler/explain/shop/redis-2");
    assertThat(r.status()).isEqualTo(200);
    JsonNode j = r.json();
    assertThat(j.get("pod").asText()).isEqualTo("shop/redis-2");
    assertThat(j.get("boundNode").isNull()).isTrue();
    assertThat(j.get("nodes").size()).isEqualTo(12);
    assertThat(j.get("summary").asText())
        .isEqualTo(
            "3/12 nodes are available; the highest total score is "
                + j.get("nodes").findValues("totalScore").stream()
                    .filter(JsonNode::isNumber)
                    .mapToLong(JsonNode::asLong)
                    .max()
                    .orElseThrow()
                + ", on "
                + j.get("bestNodes").get(0).asText()
                + ".");
  }

  @Test
  void theSameIsServedUnderTheProfile() {
    Http.Reply r = new Http(port).get("/profiles/default-scheduler/explain/shop/redis-2");
    assertThat(r.status()).isEqualTo(200);
    assertThat(r.json().get("profile").asText()).isEqualTo("default-scheduler");
  }

  @Test
  void aBoundPodIsExplainedAsIfUnboundAndStillFitsItsNode() {
    Http.Reply r = new Http(port).get("/scheduler/explain/shop/web-7d9c-0");
    assertThat(r.status()).isEqualTo(200);
    JsonNode j = r.json();
    String node = j.get("boundNode").asText();
    assertThat(node).isNotEmpty();
    assertThat(j.get("feasibleNodes")).extracting(JsonNode::asText).contains(node);
  }

  @Test
  void textReportStartsWithTheSummaryAndGroupsTheRejectedNodes() {
    Http.Reply r = new Http(port).get("/scheduler/explain/shop/redis-2", "text/plain");
    assertThat(r.status()).isEqualTo(200);
    assertThat(r.header("Content-Type")).startsWith("text/plain");
    assertThat(r.body())
        .startsWith("pod shop/redis-2 (profile default-scheduler)\n3/12 nodes are available")
        .contains("\nfeasible: 3 nodes, highest total score first")
        .contains(
            "\nrejected: 9 nodes, grouped by the filters that rejected them\n"
                + "  5  InterPodAffinity: node(s) didn't match pod anti-affinity rules\n");
    assertThat(new Http(port).get("/scheduler/explain/shop/redis-2?format=text").body())
        .isEqualTo(r.body());
  }

  @Test
  void aPastedPodInYamlGetsKubeSchedulersTextWithThePreemptionClause() {
    Http.Reply r =
        new Http(port)
            .post("/scheduler/explain", HUGE_POD_YAML, "application/yaml", "application/json");
    assertThat(r.status()).isEqualTo(200);
    assertThat(r.json().get("summary").asText()).isEqualTo(HUGE_POD_SUMMARY);

    Http.Reply text =
        new Http(port)
            .post("/scheduler/explain?format=text", HUGE_POD_YAML, "application/yaml", "*/*");
    assertThat(text.body())
        .contains(HUGE_POD_SUMMARY + "\n")
        .contains(
            "\npreemption (what-if; nothing is evicted)\n"
                + "  cannot help: no new claims to deallocate, preemption: 0/12 nodes are available");
  }

  @Test
  void aPastedBarePodInJsonIsExplainedToo() {
    String pod =
        "{\"apiVersion\":\"v1\",\"kind\":\"Pod\",\"metadata\":{\"name\":\"huge\",\"namespace\":\"batch\"},"
            + "\"spec\":{\"containers\":[{\"name\":\"main\",\"resources\":{\"requests\":{\"cpu\":\"64\"}}}]}}";
    Http.Reply r = new Http(port).post("/scheduler/explain", pod);
    assertThat(r.status()).isEqualTo(200);
    assertThat(r.json().get("summary").asText()).isEqualTo(HUGE_POD_SUMMARY);
  }

  record Mistake(String name, String method, String path, String body, int status, String error) {
    @Override
    public String toString() {
      return name;
    }
  }

  static Stream<Mistake> mistakes() {
    return Stream.of(
        new Mistake(
            "an unknown pod is a 404",
            "GET",
            "/scheduler/explain/shop/nope",
            null,
            404,
            "pod \"shop/nope\" is not known to the extender"),
        new Mistake(
            "an unknown profile is a 404",
            "GET",
            "/profiles/nope/explain/shop/redis-2",
            null,
            404,
            "unknown profile \"nope\""),
        new Mistake(
            "an unknown format is a 400",
            "GET",
            "/scheduler/explain/shop/redis-2?format=xml",
            null,
            400,
            "query parameter \"format\": must be \"json\" or \"text\", not \"xml\""),
        new Mistake(
            "malformed YAML is a 400 naming the problem and its position in one line",
            "YAML",
            "/scheduler/explain",
            "kind: Pod\n  metadata: [",
            400,
            "malformed YAML: mapping values are not allowed here (line 2, column 11)"),
        new Mistake(
            "a YAML pod without a name is a 400",
            "YAML",
            "/scheduler/explain",
            "kind: Pod\nspec: {}\n",
            400,
            "field \"Pod.metadata.name\": is required"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("mistakes")
  void mistakesGetTheErrorForm(Mistake m) {
    Http http = new Http(port);
    Http.Reply r =
        m.method().equals("GET")
            ? http.get(m.path())
            : http.post(m.path(), m.body(), "application/yaml", "text/plain");
    assertThat(r.status()).isEqualTo(m.status());
    assertThat(r.json().get("Error").asText()).contains(m.error());
  }
}
