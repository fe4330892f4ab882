package io.schedext.kube;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowable;

import com.fasterxml.jackson.annotation.JsonSetter;
import com.fasterxml.jackson.annotation.Nulls;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import io.schedext.testing.RichPod;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The field-by-field decoder builds what the mapper builds, or says it cannot ({@link
 * PodDecoder.Unsupported}) and never returns a pod for text the mapper rejects. Checked against
 * both mappers it is used with: fabric8's (the watch) and a plain Jackson mapper that ignores
 * unknown fields (the requests).
 */
class PodDecoderTest {

  private static final Path FIXTURES = Path.of("../shared/fixtures/kube-scheduler-v1.26");

  private static final Path FIXTURES_V134 =
      Path.of("src/test/resources/fixtures/kube-scheduler-v1.34");

  private static final ObjectMapper FABRIC8 = fabric8Mapper();

  private static final ObjectMapper REQUESTS =
      QuantityText.useIn(
          UnreadFields.skipIn(
              new ObjectMapper()
                  .disable(
                      com.fasterxml.jackson.databind.DeserializationFeature
                          .FAIL_ON_UNKNOWN_PROPERTIES)));

  private static final String BASE =
      "{\"metadata\":{\"name\":\"p\",\"namespace\":\"ns\",\"uid\":\"u\"},"
          + "\"spec\":{\"containers\":[{\"name\":\"c\",\"image\":\"i\","
          + "\"resources\":{\"requests\":{\"cpu\":\"100m\"}}}]},\"status\":{\"phase\":\"Pending\"}}";

  /** What the decoder must do with a pod's text. */
  enum Expect {
    /** Decode it field by field, to what the mapper builds. */
    DECODES,
    /** Either decode it to what the mapper builds or say it cannot; never anything else. */
    DECODES_OR_DEFERS,
    /** Say it cannot (the mapper keeps something this decoder does not build). */
    DEFERS
  }

  record Case(String name, String json, Expect expect) {
    @Override
    public String toString() {
      return name;
    }
  }

  static Stream<Case> cases() throws IOException {
    List<Case> cases = new ArrayList<>();
    for (String f :
        List.of(
            "filter.ncc-true.json",
            "filter.ncc-false.json",
            "prioritize.ncc-true.json",
            "preempt.ncc-true.json")) {
      JsonNode pod = REQUESTS.readTree(Files.readString(FIXTURES.resolve(f))).get("Pod");
      cases.add(new Case("recorded " + f, pod.toString(), Expect.DECODES));
    }
    // kube-scheduler v1.34: sidecars, pod-level resources, a spread with matchLabelKeys, a
    // nominated pod with a condition's observedGeneration, and the victims of a preempt call.
    for (String f :
        List.of(
            "filter.ncc-true.json",
            "filter.sidecar.ncc-true.json",
            "filter.pod-level.ncc-true.json",
            "filter.spread.ncc-true.json",
            "filter.nominated.ncc-true.json")) {
      String pod =
          REQUESTS.readTree(Files.readString(FIXTURES_V134.resolve(f))).get("Pod").toString();
      cases.add(new Case("recorded v1.34 " + f, pod, Expect.DECODES));
    }
    REQUESTS
        .readTree(Files.readString(FIXTURES_V134.resolve("preempt.ncc-false.json")))
        .get("NodeNameToVictims")
        .forEach(
            v ->
                v.get("Pods")
                    .forEach(
                        pod ->
                            cases.add(
                                new Case(
                                    "recorded v1.34 victim "
                                        + pod.path("metadata").path("name").asText(),
                                    pod.toString(),
                                    Expect.DECODES))));
    Pod scheduling = RichPod.schedulingFields();
    cases.add(
        new Case(
            "every scheduling field", REQUESTS.writeValueAsString(scheduling), Expect.DECODES));
    Pod rich = RichPod.pod();
    cases.add(
        new Case(
            "most of the model, with an unknown field",
            REQUESTS.writeValueAsString(rich),
            Expect.DEFERS));
    rich.getSpec().setAdditionalProperties(new HashMap<>());
    cases.add(new Case("most of the model", REQUESTS.writeValueAsString(rich), Expect.DECODES));
    cases.add(new Case("a small pod", BASE, Expect.DECODES));
    cases.add(new Case("an empty pod", "{}", Expect.DECODES));
    cases.add(
        new Case("fields in another order, kind and version last", REORDERED, Expect.DECODES));
    cases.add(
        new Case(
            "managed fields, ephemeral statuses and a container status' state skipped",
            BASE.replace(
                    "\"uid\":\"u\"",
                    "\"uid\":\"u\",\"managedFields\":[{\"manager\":\"m\",\"fieldsV1\":{\"f:a\":{}}}]")
                .replace(
                    "\"phase\":\"Pending\"",
                    "\"phase\":\"Running\",\"containerStatuses\":[{\"name\":\"c\",\"ready\":true}],"
                        + "\"initContainerStatuses\":[],\"ephemeralContainerStatuses\":null"),
            Expect.DECODES));
    cases.add(
        new Case(
            "container statuses keep their names and resources, and nothing else",
            BASE.replace(
                "\"phase\":\"Pending\"",
                "\"phase\":\"Running\",\"containerStatuses\":[{\"name\":\"c\",\"ready\":true,"
                    + "\"restartCount\":2,\"started\":true,\"image\":\"i\",\"imageID\":\"sha\","
                    + "\"containerID\":\"containerd://1\",\"state\":{\"running\":"
                    + "{\"startedAt\":\"2026-11-01T00:00:00Z\"}},\"lastState\":{},"
                    + "\"allocatedResources\":{\"cpu\":\"200m\"},"
                    + "\"resources\":{\"requests\":{\"cpu\":\"150m\"},\"limits\":{\"cpu\":\"1\"}},"
                    + "\"allocatedResourcesStatus\":[{\"name\":\"x\",\"resources\":[]}],"
                    + "\"user\":{\"linux\":{\"uid\":0,\"gid\":0}},\"stopSignal\":\"SIGTERM\","
                    + "\"volumeMounts\":[{\"name\":\"v\",\"mountPath\":\"/v\"}]}],"
                    + "\"initContainerStatuses\":[{\"name\":\"s\",\"ready\":false,"
                    + "\"resources\":{\"requests\":{\"memory\":\"1Gi\"}}}]"),
            Expect.DECODES));
    cases.add(
        new Case(
            "an unknown field of a container status",
            BASE.replace(
                "\"phase\":\"Pending\"",
                "\"phase\":\"Running\",\"containerStatuses\":[{\"name\":\"c\",\"future\":1}]"),
            Expect.DECODES_OR_DEFERS));
    cases.add(
        new Case(
            "conditions with a null probe time",
            BASE.replace(
                "\"phase\":\"Pending\"",
                "\"phase\":\"Pending\",\"conditions\":[{\"type\":\"PodScheduled\",\"status\":\"False\","
                    + "\"lastProbeTime\":null,\"lastTransitionTime\":\"2026-11-01T00:00:00Z\","
                    + "\"reason\":\"Unschedulable\",\"message\":\"0/3 nodes\"}]"),
            Expect.DECODES));
    // Values of another form go to the mapper's property deserializer, field by field.
    for (String[] r :
        new String[][] {
          {
            "security contexts",
            "\"containers\"",
            "\"securityContext\":{\"runAsUser\":1000,\"fsGroup\":2000,"
                + "\"seccompProfile\":{\"type\":\"RuntimeDefault\"}},\"containers\""
          },
          {
            "a container security context",
            "\"image\":\"i\"",
            "\"image\":\"i\",\"securityContext\":{\"privileged\":false,"
                + "\"capabilities\":{\"drop\":[\"ALL\"]}}"
          },
          {"an empty security context", "\"containers\"", "\"securityContext\":{},\"containers\""},
          {"a null name", "\"name\":\"p\"", "\"name\":null"},
          {"null labels", "\"uid\":\"u\"", "\"uid\":\"u\",\"labels\":null"},
          {"null containers", "\"containers\":[", "\"initContainers\":null,\"containers\":["},
          {"a null status", "\"status\":{\"phase\":\"Pending\"}", "\"status\":null"},
          {"a priority as a string", "\"containers\"", "\"priority\":\"7\",\"containers\""},
          {"a priority as a float", "\"containers\"", "\"priority\":7.0,\"containers\""},
          {
            "a grace period as a string",
            "\"containers\"",
            "\"terminationGracePeriodSeconds\":\"30\",\"containers\""
          },
          {
            "a long grace period",
            "\"containers\"",
            "\"terminationGracePeriodSeconds\":8589934592,\"containers\""
          },
          {"a boolean as a string", "\"containers\"", "\"hostNetwork\":\"true\",\"containers\""},
          {"a number for a string", "\"image\":\"i\"", "\"image\":12"},
          {
            "a single toleration, not a list",
            "\"containers\"",
            "\"tolerations\":{\"key\":\"k\"},\"containers\""
          },
          {
            "a port as a string",
            "\"image\":\"i\"",
            "\"image\":\"i\",\"ports\":[{\"containerPort\":\"80\"}]"
          },
        }) {
      cases.add(new Case(r[0], BASE.replace(r[1], r[2]), Expect.DECODES));
    }
    // Forms whose decoding this decoder leaves to the mapper, or which the mapper rejects.
    for (String[] r :
        new String[][] {
          {"an unknown field", "\"spec\"", "\"unknownField\":{\"a\":1},\"spec\""},
          {
            "an unknown field in a security context",
            "\"containers\"",
            "\"securityContext\":{\"futureField\":1},\"containers\""
          },
          {"an unknown container field", "\"image\":\"i\"", "\"image\":\"i\",\"gpu\":true"},
          {"a label that is not a string", "\"uid\":\"u\"", "\"uid\":\"u\",\"labels\":{\"a\":1}"},
          {"a null label", "\"uid\":\"u\"", "\"uid\":\"u\",\"labels\":{\"a\":null}"},
          {"a null container", "\"containers\":[", "\"containers\":[null,"},
          {"a container that is a number", "\"containers\":[", "\"containers\":[1,"},
          {"a priority too large", "\"containers\"", "\"priority\":3000000000,\"containers\""},
          {"a priority that is text", "\"containers\"", "\"priority\":\"high\",\"containers\""},
          {"a quantity as a number", "\"cpu\":\"100m\"", "\"cpu\":2"},
          {"a malformed value", "\"image\":\"i\"", "\"image\":i"},
        }) {
      cases.add(new Case(r[0], BASE.replace(r[1], r[2]), Expect.DECODES_OR_DEFERS));
    }
    return cases.stream();
  }

  /** A mapper as fabric8 configures it for the client, as the watch's decoder uses it. */
  private static ObjectMapper fabric8Mapper() {
    ObjectMapper m = new ObjectMapper();
    new KubernetesSerialization(m, true);
    return QuantityText.useIn(UnreadFields.skipIn(m));
  }

  private static final String REORDERED =
      "{\"status\":{\"phase\":\"Pending\"},\"spec\":{\"containers\":[{\"resources\":{\"requests\":"
          + "{\"cpu\":\"100m\"}},\"image\":\"i\",\"name\":\"c\"}]},\"kind\":\"Pod\","
          + "\"metadata\":{\"uid\":\"u\",\"namespace\":\"ns\",\"name\":\"p\"},\"apiVersion\":\"v1\"}";

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void decodesWhatEachMapperDecodesOrDefers(Case c) throws IOException {
    for (ObjectMapper mapper : List.of(FABRIC8, REQUESTS)) {
      Outcome byMapper = byMapper(mapper, c.json());
      Outcome byFields = byFields(mapper, c.json());
      String which = c.name() + (mapper == FABRIC8 ? " (fabric8's mapper)" : " (requests' mapper)");
      if (byFields.deferred()) {
        assertThat(c.expect()).as(which + ": deferred").isNotEqualTo(Expect.DECODES);
        continue;
      }
      assertThat(c.expect()).as(which + ": decoded").isNotEqualTo(Expect.DEFERS);
      if (byMapper.error() != null) {
        assertThat(byFields.error())
            .as(which + ": the mapper fails, so must the decoder")
            .isNotNull();
        continue;
      }
      assertThat(byFields.error()).as(which).isNull();
      assertThat(byFields.pod()).as(which).isEqualTo(byMapper.pod());
      assertThat(mapper.writeValueAsString(byFields.pod()))
          .as(which)
          .isEqualTo(mapper.writeValueAsString(byMapper.pod()));
      assertThat(byFields.endedAtPodEnd()).as(which + ": left at the pod's end").isTrue();
    }
  }

  /** A decode's result: a pod, an error, or the decoder deferring to the mapper. */
  record Outcome(Pod pod, Throwable error, boolean deferred, boolean endedAtPodEnd) {}

  private static Outcome byMapper(ObjectMapper mapper, String json) {
    try {
      return new Outcome(mapper.readValue(json, Pod.class), null, false, true);
    } catch (IOException | RuntimeException e) {
      return new Outcome(null, e, false, false);
    }
  }

  /** Decodes the pod inside an array, as it comes inside a request or an event. */
  private static Outcome byFields(ObjectMapper mapper, String json) throws IOException {
    try (JsonParser p = mapper.createParser("[" + json + ",7]")) {
      p.nextToken();
      p.nextToken();
      Pod pod;
      try {
        pod = new PodDecoder(mapper).decode(p, null);
      } catch (PodDecoder.Unsupported e) {
        return new Outcome(null, null, true, false);
      } catch (IOException | RuntimeException e) {
        return new Outcome(null, e, false, false);
      }
      boolean atEnd =
          p.currentToken() == JsonToken.END_OBJECT && p.nextToken() == JsonToken.VALUE_NUMBER_INT;
      return new Outcome(pod, null, false, atEnd);
    }
  }

  @Test
  void aPodWhoseKindAndVersionWereReadDecodesToTheSamePod() throws IOException {
    ObjectNode node = (ObjectNode) FABRIC8.readTree(BASE);
    ObjectNode object = FABRIC8.createObjectNode().put("kind", "Pod").put("apiVersion", "v1");
    object.setAll(node);
    try (JsonParser p = FABRIC8.createParser(object.toString())) {
      p.nextToken();
      for (int i = 0; i < 4; i++) {
        p.nextToken();
      }
      Pod pod = new PodDecoder(FABRIC8).decodeRest(p, "v1", "Pod");
      assertThat(pod).isEqualTo(FABRIC8.readValue(object.toString(), Pod.class));
      assertThat(p.currentToken()).isEqualTo(JsonToken.END_OBJECT);
      assertThat(p.nextToken()).isNull();
    }
  }

  @Test
  void nullsGoToTheMapperWhenItDoesNotSimplySetThem() throws IOException {
    ObjectMapper failing = fabric8Mapper();
    failing.setDefaultSetterInfo(JsonSetter.Value.forValueNulls(Nulls.FAIL));
    String json = BASE.replace("\"name\":\"p\"", "\"name\":null");

    assertThat(byMapper(failing, json).error()).isNotNull();
    assertThat(byFields(failing, json).error()).isNotNull();
    assertThat(byFields(REQUESTS, json).pod()).isEqualTo(byMapper(REQUESTS, json).pod());
  }

  @Test
  void aMapperThatDecodesOtherwiseIsRefused() {
    assertThatThrownBy(() -> new PodDecoder(new ObjectMapper()))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("UnreadFields");
    assertThatThrownBy(() -> new PodDecoder(UnreadFields.skipIn(new ObjectMapper())))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void somethingOtherThanAnObjectIsLeftToTheMapper() throws IOException {
    try (JsonParser p = REQUESTS.createParser("[1]")) {
      p.nextToken();
      assertThat(catchThrowable(() -> new PodDecoder(REQUESTS).decode(p, null)))
          .isInstanceOf(PodDecoder.Unsupported.class);
    }
  }
}
