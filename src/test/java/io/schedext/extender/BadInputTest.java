package io.schedext.extender;

import static org.assertj.core.api.Assertions.assertThat;

import io.schedext.testing.Http;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.test.context.SpringBootTest;

/** Client mistakes get a 4xx whose JSON body fills {@code Error}, never a stack trace or a 500. */
@SpringBootTest(
    webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
    properties = "extender.http.max-request-bytes=4KB")
class BadInputTest {

  @Value("${local.server.port}")
  int port;

  record Case(String name, String path, String body, int status, String errorContains) {
    @Override
    public String toString() {
      return name;
    }
  }

  static Stream<Case> cases() {
    String pod = "{\"metadata\":{\"name\":\"p\",\"namespace\":\"default\",\"uid\":\"u\"}}";
    return Stream.of(
        new Case(
            "an empty body is rejected", "/scheduler/filter", "", 400, "request body is empty"),
        new Case(
            "a blank body is rejected",
            "/scheduler/prioritize",
            "  \n",
            400,
            "request body is empty"),
        new Case(
            "malformed JSON is rejected with its position",
            "/scheduler/filter",
            "{\"Pod\": {",
            400,
            "malformed JSON"),
        new Case(
            "trailing garbage is rejected",
            "/scheduler/filter",
            "{\"Pod\":" + pod + ",\"NodeNames\":[]} xyz",
            400,
            "malformed JSON"),
        new Case("JSON null is rejected", "/scheduler/filter", "null", 400, "JSON null"),
        new Case(
            "a missing Pod is named",
            "/scheduler/filter",
            "{\"NodeNames\":[\"node-a1\"]}",
            400,
            "field \"Pod\": is required"),
        new Case(
            "a pod without a name is named",
            "/scheduler/filter",
            "{\"Pod\":{\"metadata\":{}},\"NodeNames\":[]}",
            400,
            "field \"Pod.metadata.name\": is required"),
        new Case(
            "a wrong type names the field",
            "/scheduler/filter",
            "{\"Pod\":" + pod + ",\"NodeNames\":5}",
            400,
            "field \"NodeNames\""),
        new Case(
            "a wrong nested type names the path",
            "/scheduler/filter",
            "{\"Pod\":{\"metadata\":{\"name\":\"p\",\"labels\":[1]}},\"NodeNames\":[]}",
            400,
            "field \"Pod.metadata.labels\""),
        new Case(
            "neither Nodes nor NodeNames is rejected",
            "/scheduler/filter",
            "{\"Pod\":" + pod + "}",
            400,
            "one of \"Nodes\" or \"NodeNames\" is required"),
        new Case(
            "both Nodes and NodeNames are rejected: kube-scheduler sends one",
            "/scheduler/filter",
            "{\"Pod\":" + pod + ",\"Nodes\":{\"items\":[]},\"NodeNames\":[\"node-a1\"]}",
            400,
            Candidates.BOTH_NODE_FIELDS),
        new Case(
            "both node fields are rejected by prioritize too",
            "/scheduler/prioritize",
            "{\"Pod\":" + pod + ",\"Nodes\":{\"items\":[]},\"NodeNames\":[]}",
            400,
            Candidates.BOTH_NODE_FIELDS),
        new Case(
            "an invalid quantity is rejected",
            "/scheduler/filter",
            "{\"Pod\":{\"metadata\":{\"name\":\"p\"},\"spec\":{\"containers\":[{\"name\":\"c\",\"resources\":"
                + "{\"requests\":{\"cpu\":\"lots\"}}}]}},\"NodeNames\":[]}",
            400,
            "invalid quantity"),
        new Case(
            "a bind without its fields lists them",
            "/scheduler/bind",
            "{\"PodName\":\"p\"}",
            400,
            "missing required field(s): PodNamespace, PodUID, Node"),
        new Case(
            "a preempt with a wrong victims type names it",
            "/scheduler/preempt",
            "{\"Pod\":" + pod + ",\"NodeNameToMetaVictims\":[]}",
            400,
            "field \"NodeNameToMetaVictims\""),
        new Case(
            "an unknown verb is a 404",
            "/scheduler/schedule",
            "{}",
            404,
            "unknown verb \"schedule\""),
        new Case(
            "a path under the verbs' prefix that is no route is a 404",
            "/scheduler/filter/more",
            "{}",
            404,
            "Not Found (/scheduler/filter/more)"),
        new Case(
            "a profile without a verb is a 404",
            "/profiles/default-scheduler",
            "{}",
            404,
            "Not Found (/profiles/default-scheduler)"),
        new Case(
            "explain by name is a GET",
            "/scheduler/explain/default/p",
            "{}",
            405,
            "method POST is not allowed: use GET"),
        new Case(
            "an unknown profile is a 404",
            "/profiles/nope/filter",
            "{\"Pod\":" + pod + ",\"NodeNames\":[]}",
            404,
            "unknown profile \"nope\""),
        new Case(
            "a body over the limit is a 413",
            "/scheduler/filter",
            "{\"Pod\":" + pod + ",\"NodeNames\":[\"" + "x".repeat(5000) + "\"]}",
            413,
            "exceeds the limit of 4096 bytes"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void clientMistakesGetTheProtocolsErrorForm(Case c) {
    Http.Reply r = new Http(port).post(c.path(), c.body());
    assertThat(r.status()).isEqualTo(c.status());
    assertThat(r.json().get("Error").asText()).contains(c.errorContains());
    assertThat(r.body()).doesNotContain("Exception").doesNotContain("\tat ");
  }

  @Test
  void aGetOnAVerbIsA405InTheErrorForm() {
    Http.Reply r = new Http(port).get("/scheduler/filter");
    assertThat(r.status()).isEqualTo(405);
    assertThat(r.header("Allow")).isEqualTo("POST");
    assertThat(r.json().get("Error").asText()).contains("use POST");
  }
}
