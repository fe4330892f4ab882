package io.schedext.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fabric8.kubernetes.api.model.ContainerStatus;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.ServiceBuilder;
import io.fabric8.kubernetes.api.model.Status;
import io.fabric8.kubernetes.api.model.WatchEvent;
import io.fabric8.kubernetes.api.model.storage.CSINodeBuilder;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import io.schedext.kube.UnreadFields;
import io.schedext.testing.MakeNode;
import io.schedext.testing.MakePod;
import io.schedext.testing.RichPod;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

class WatchEventSerializationTest {

  private static final ObjectMapper JSON = new ObjectMapper();

  private final WatchEventSerialization onePass = new WatchEventSerialization();
  private final KubernetesSerialization fabric8 = new KubernetesSerialization();

  static Stream<String> recordedPods() {
    return Stream.of(
        "kube-scheduler-v1.26/filter.ncc-true.json",
        // kube-scheduler v1.34: a generation, sidecars, pod-level resources, a spread with
        // matchLabelKeys, a condition's observedGeneration and a nominated node.
        "kube-scheduler-v1.34/filter.ncc-true.json",
        "kube-scheduler-v1.34/filter.sidecar.ncc-true.json",
        "kube-scheduler-v1.34/filter.pod-level.ncc-true.json",
        "kube-scheduler-v1.34/filter.spread.ncc-true.json",
        "kube-scheduler-v1.34/filter.nominated.ncc-true.json");
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("recordedPods")
  void aRecordedPodDecodesInOnePassToWhatFabric8Builds(String file) throws Exception {
    ObjectNode pod =
        (ObjectNode)
            JSON.readTree(Files.readString(Path.of("src/test/resources/fixtures", file)))
                .get("Pod");
    // As an API server writes objects: kind and apiVersion first.
    ObjectNode object = JSON.createObjectNode().put("kind", "Pod").put("apiVersion", "v1");
    object.setAll(pod);

    WatchEvent event = decodedInOnePass(event("MODIFIED", object));

    assertThat(event.getType()).isEqualTo("MODIFIED");
    assertThat(event.getObject()).isInstanceOf(Pod.class);
    // Managed fields are skipped, never built; everything else is what fabric8 builds.
    assertThat(object.get("metadata").get("managedFields")).isNotEmpty();
    assertThat(((Pod) event.getObject()).getMetadata().getManagedFields()).isEmpty();
    WatchEvent byFabric8 = fabric8.unmarshal(event("MODIFIED", object), WatchEvent.class);
    ((Pod) byFabric8.getObject()).getMetadata().setManagedFields(List.of());
    assertThat(event).isEqualTo(byFabric8);
  }

  @Test
  void podsWithEverySchedulingFieldDecodeAsFabric8DecodesThem() throws Exception {
    Pod pod = RichPod.schedulingFields();
    String text = event("ADDED", JSON.valueToTree(pod));

    assertThat(decodedInOnePass(text)).isEqualTo(fabric8.unmarshal(text, WatchEvent.class));
    assertThat(decodedInOnePass(text).getObject()).isEqualTo(pod);
  }

  @Test
  void everyWatchedKindIsBoundToItsOwnClass() throws Exception {
    for (HasMetadata o :
        new HasMetadata[] {
          MakeNode.node()
              .name("n1")
              .label("zone", "z1")
              .taint("k", "v", "NoSchedule")
              .capacity(Map.of("cpu", "4", "pods", "110"))
              .obj(),
          new ServiceBuilder()
              .withNewMetadata()
              .withName("s")
              .withNamespace("ns")
              .endMetadata()
              .withNewSpec()
              .addToSelector("app", "a")
              .endSpec()
              .build(),
          new CSINodeBuilder()
              .withNewMetadata()
              .withName("n1")
              .endMetadata()
              .withNewSpec()
              .addNewDriver()
              .withName("d")
              .withNodeID("n1")
              .endDriver()
              .endSpec()
              .build()
        }) {
      String text = event("DELETED", JSON.valueToTree(o));

      WatchEvent event = decodedInOnePass(text);

      assertThat(event.getObject()).isInstanceOf(o.getClass()).isEqualTo(o);
      assertThat(event).isEqualTo(fabric8.unmarshal(text, WatchEvent.class));
    }
  }

  @Test
  void theOrderOfFieldsDoesNotMatter() throws Exception {
    ObjectNode pod =
        JSON.valueToTree(MakePod.pod().name("p").namespace("ns").uid("u").label("app", "a").obj());
    ObjectNode kindLast = JSON.createObjectNode();
    pod.fields()
        .forEachRemaining(
            e -> {
              if (!e.getKey().equals("kind") && !e.getKey().equals("apiVersion")) {
                kindLast.set(e.getKey(), e.getValue());
              }
            });
    kindLast.put("kind", "Pod").put("apiVersion", "v1");
    String objectFirst =
        "{\"object\":" + JSON.writeValueAsString(kindLast) + ",\"type\":\"ADDED\"}";

    assertThat(decodedInOnePass(objectFirst))
        .isEqualTo(fabric8.unmarshal(objectFirst, WatchEvent.class));
  }

  @Test
  void errorAndBookmarkEventsDecodeAsFabric8DecodesThem() throws Exception {
    String error =
        "{\"type\":\"ERROR\",\"object\":{\"kind\":\"Status\",\"apiVersion\":\"v1\",\"metadata\":{},"
            + "\"status\":\"Failure\",\"message\":\"too old resource version: 1 (42)\",\"reason\":\"Expired\","
            + "\"code\":410}}";
    String bookmark =
        "{\"type\":\"BOOKMARK\",\"object\":{\"kind\":\"Pod\",\"apiVersion\":\"v1\","
            + "\"metadata\":{\"resourceVersion\":\"12345\",\"annotations\":{\"k8s.io/initial-events-end\":\"true\"}}}}";

    assertThat(decodedInOnePass(error).getObject()).isInstanceOf(Status.class);
    assertThat(((Status) decodedInOnePass(error).getObject()).getCode()).isEqualTo(410);
    assertThat(decodedInOnePass(error)).isEqualTo(fabric8.unmarshal(error, WatchEvent.class));
    assertThat(decodedInOnePass(bookmark)).isEqualTo(fabric8.unmarshal(bookmark, WatchEvent.class));
  }

  @Test
  void whatItDoesNotRecogniseGoesToFabric8sPathUnchanged() {
    String custom =
        "{\"type\":\"ADDED\",\"object\":{\"kind\":\"Widget\",\"apiVersion\":\"example.com/v1\","
            + "\"metadata\":{\"name\":\"w\"},\"spec\":{\"size\":3}}}";
    String extraField =
        "{\"type\":\"ADDED\",\"extra\":1,\"object\":{\"kind\":\"Pod\",\"apiVersion\":\"v1\","
            + "\"metadata\":{\"name\":\"p\"}}}";
    String noKind = "{\"type\":\"ADDED\",\"object\":{\"metadata\":{\"name\":\"p\"}}}";

    for (String text : new String[] {custom, extraField, noKind}) {
      assertThat(onePass.decodeWatchEvent(text)).as(text).isNull();
      assertThat((Object) onePass.unmarshal(text, WatchEvent.class))
          .as(text)
          .isEqualTo(fabric8.unmarshal(text, WatchEvent.class));
    }
    assertThat(onePass.unmarshal(custom, WatchEvent.class).getObject())
        .isInstanceOf(GenericKubernetesResource.class);
  }

  @Test
  void malformedTextFailsAsItFailsInFabric8() {
    String truncated =
        "{\"type\":\"ADDED\",\"object\":{\"kind\":\"Pod\",\"apiVersion\":\"v1\",\"metadata\":{";

    assertThat(onePass.decodeWatchEvent(truncated)).isNull();
    assertThatThrownBy(() -> fabric8.unmarshal(truncated, WatchEvent.class))
        .isInstanceOf(RuntimeException.class);
    assertThatThrownBy(() -> onePass.unmarshal(truncated, WatchEvent.class))
        .isInstanceOf(RuntimeException.class);
  }

  @Test
  void otherTypesAreFabric8s() throws Exception {
    Pod pod = MakePod.pod().name("p").namespace("ns").uid("u").obj();

    assertThat(onePass.unmarshal(JSON.writeValueAsString(pod), Pod.class)).isEqualTo(pod);
  }

  @Test
  void aPodUsingMostOfTheModelDecodesAsFabric8DecodesIt() throws Exception {
    Pod pod = RichPod.pod();
    // apiVersion and kind first, as fabric8 writes them: the decoder binds straight from the text.
    String text = "{\"type\":\"MODIFIED\",\"object\":" + fabric8.asJson(pod) + "}";

    WatchEvent event = decodedInOnePass(text);

    // The same but for what the containers run with, which the extender does not decode
    // (UnreadFields).
    WatchEvent byFabric8 = fabric8.unmarshal(text, WatchEvent.class);
    withoutWhatContainersRunWith((Pod) byFabric8.getObject());
    withoutWhatContainersRunWith((Pod) event.getObject());
    assertThat(event).isEqualTo(byFabric8);
    // Decoded, a pod has empty lists where it had none: compare the text the two encode to.
    assertThat(onePass.asJson(event.getObject()))
        .isEqualTo(fabric8.asJson(withoutWhatContainersRunWith(RichPod.pod())));
  }

  private static Pod withoutWhatContainersRunWith(Pod pod) {
    Trim.containers(pod.getSpec().getContainers());
    Trim.containers(pod.getSpec().getInitContainers());
    return pod;
  }

  /** What becomes of an event's text. */
  enum Outcome {
    /** Decoded here, to what fabric8's path builds. */
    DECODED,
    /** Handed to fabric8's path, which decodes it. */
    FABRIC8,
    /** Handed to fabric8's path, which fails on it. */
    FAILS
  }

  record Case(String name, String text, Outcome outcome) {
    @Override
    public String toString() {
      return name;
    }
  }

  private static final String KIND = "\"kind\":\"Pod\"";
  private static final String API = "\"apiVersion\":\"v1\"";

  /**
   * The recorded pod's fields (managed fields, owner references, resources, status...), without
   * kind and apiVersion and without the braces.
   */
  private static final String REST = recordedPodFields();

  /** A running pod whose container was resized in place, as the kubelet reports it. */
  private static final String RUNNING =
      "\"metadata\":{\"name\":\"p\",\"namespace\":\"ns\",\"uid\":\"u\"},"
          + "\"spec\":{\"nodeName\":\"n1\",\"containers\":[{\"name\":\"c\",\"image\":\"i\","
          + "\"resources\":{\"requests\":{\"cpu\":\"1\"}}}]},"
          + "\"status\":{\"phase\":\"Running\",\"containerStatuses\":[{\"name\":\"c\","
          + "\"ready\":true,\"restartCount\":0,\"image\":\"i\",\"imageID\":\"sha256:1\","
          + "\"state\":{\"running\":{\"startedAt\":\"2026-11-01T00:00:00Z\"}},"
          + "\"allocatedResources\":{\"cpu\":\"2\"},"
          + "\"resources\":{\"requests\":{\"cpu\":\"2\"},\"limits\":{\"cpu\":\"2\"}}}]}";

  static Stream<Case> cases() {
    return Stream.of(
        new Case(
            "kind, apiVersion first (the API server's order)",
            added(object(KIND, API, REST)),
            Outcome.DECODED),
        new Case(
            "apiVersion, kind first (fabric8's order)",
            added(object(API, KIND, REST)),
            Outcome.DECODED),
        new Case("kind and apiVersion last", added(object(REST, API, KIND)), Outcome.DECODED),
        new Case("kind first, apiVersion last", added(object(KIND, REST, API)), Outcome.DECODED),
        new Case("nothing but kind and apiVersion", added(object(KIND, API)), Outcome.DECODED),
        new Case(
            "a running pod's container statuses, of which the resources are read",
            added(object(KIND, API, RUNNING)),
            Outcome.DECODED),
        new Case(
            "type after object",
            "{\"object\":" + object(KIND, API, REST) + ",\"type\":\"MODIFIED\"}",
            Outcome.DECODED),
        new Case(
            "type after object, kind last",
            "{\"object\":" + object(REST, KIND, API) + ",\"type\":\"MODIFIED\"}",
            Outcome.DECODED),
        new Case(
            "extra fields in the object",
            added(object(KIND, API, REST, "\"extra\":{\"a\":[1,2.5,null,true,\"s\"]}")),
            Outcome.DECODED),
        new Case(
            "extra field in the object before kind",
            added(object("\"extra\":[{}]", KIND, API, REST)),
            Outcome.DECODED),
        new Case(
            "kind repeated after the rest", added(object(KIND, API, REST, KIND)), Outcome.DECODED),
        new Case("apiVersion missing", added(object(KIND, REST)), Outcome.FABRIC8),
        new Case("apiVersion missing, nothing but kind", added(object(KIND)), Outcome.FABRIC8),
        new Case("kind missing", added(object(API, REST)), Outcome.FABRIC8),
        new Case(
            "kind not a string",
            added(object("\"kind\":{\"name\":\"Pod\"}", API, REST)),
            Outcome.FABRIC8),
        new Case(
            "unknown kind",
            added(object("\"kind\":\"Widget\"", "\"apiVersion\":\"example.com/v1\"", REST)),
            Outcome.FABRIC8),
        new Case(
            "unknown version of a known kind",
            added(object(KIND, "\"apiVersion\":\"v2\"", REST)),
            Outcome.FABRIC8),
        new Case(
            "extra field in the event, after object",
            "{\"type\":\"ADDED\",\"object\":" + object(KIND, API, REST) + ",\"extra\":1}",
            Outcome.FABRIC8),
        new Case(
            "extra field in the event, between object and type",
            "{\"object\":" + object(KIND, API, REST) + ",\"extra\":1,\"type\":\"ADDED\"}",
            Outcome.FABRIC8),
        new Case("null object", "{\"type\":\"DELETED\",\"object\":null}", Outcome.FABRIC8),
        new Case(
            "malformed after kind and apiVersion",
            added(object(KIND, API, "\"metadata\":{\"name\":}", REST)),
            Outcome.FAILS),
        new Case(
            "malformed before kind and apiVersion are read",
            "{\"type\":\"ADDED\",\"object\":{\"kind\":\"Pod\",\"apiVersion\":}}",
            Outcome.FAILS),
        new Case(
            "malformed with kind last",
            added(object("\"metadata\":{\"name\" \"p\"}", REST, KIND, API)),
            Outcome.FAILS),
        new Case(
            "truncated after kind and apiVersion",
            "{\"type\":\"ADDED\",\"object\":{" + KIND + "," + API + ",\"metadata\":{",
            Outcome.FAILS),
        new Case(
            "malformed after the object",
            "{\"object\":" + object(KIND, API, REST) + ",\"type\":\"ADDED\",}",
            Outcome.FAILS),
        new Case("text after the event", added(object(KIND, API, REST)) + "{}", Outcome.FABRIC8));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void eachEventDecodesToWhatFabric8sPathBuilds(Case c) {
    switch (c.outcome()) {
      case DECODED -> {
        WatchEvent event = decodedInOnePass(c.text());
        assertThat(lessUnreadFields(event))
            .isEqualTo(lessUnreadFields(fabric8.unmarshal(c.text(), WatchEvent.class)));
        assertThat(event.getObject()).isInstanceOf(Pod.class);
      }
      case FABRIC8 -> {
        assertThat(onePass.decodeWatchEvent(c.text())).isNull();
        assertThat(lessUnreadFields(onePass.unmarshal(c.text(), WatchEvent.class)))
            .isEqualTo(lessUnreadFields(fabric8.unmarshal(c.text(), WatchEvent.class)));
      }
      case FAILS -> {
        assertThat(onePass.decodeWatchEvent(c.text())).isNull();
        assertThatThrownBy(() -> fabric8.unmarshal(c.text(), WatchEvent.class))
            .isInstanceOf(RuntimeException.class);
        assertThatThrownBy(() -> onePass.unmarshal(c.text(), WatchEvent.class))
            .isInstanceOf(RuntimeException.class);
      }
    }
  }

  @Test
  void eventsOneAfterAnotherDecodeAlike() throws Exception {
    // The same serialization decodes every event of a watch: nothing of one is left for the next.
    for (int i = 0; i < 3; i++) {
      for (Case c : cases().filter(c -> c.outcome() == Outcome.DECODED).toList()) {
        assertThat(lessUnreadFields(decodedInOnePass(c.text())))
            .as(c.name())
            .isEqualTo(lessUnreadFields(fabric8.unmarshal(c.text(), WatchEvent.class)));
      }
    }
  }

  /** {@code event} as this client builds it: without the fields {@link UnreadFields} skips. */
  private static WatchEvent lessUnreadFields(WatchEvent event) {
    if (event.getObject() instanceof HasMetadata o && o.getMetadata() != null) {
      o.getMetadata().setManagedFields(new ArrayList<>());
    }
    if (event.getObject() instanceof Pod pod && pod.getStatus() != null) {
      pod.getStatus()
          .setContainerStatuses(nameAndResources(pod.getStatus().getContainerStatuses()));
      pod.getStatus()
          .setInitContainerStatuses(nameAndResources(pod.getStatus().getInitContainerStatuses()));
      pod.getStatus().setEphemeralContainerStatuses(new ArrayList<>());
    }
    return event;
  }

  /** Of each container status, what the decoders read: the name and the resources. */
  private static List<ContainerStatus> nameAndResources(List<ContainerStatus> statuses) {
    List<ContainerStatus> out = new ArrayList<>();
    for (ContainerStatus s : statuses) {
      ContainerStatus kept = new ContainerStatus();
      kept.setName(s.getName());
      kept.setResources(s.getResources());
      kept.setAllocatedResources(s.getAllocatedResources());
      kept.setAdditionalProperties(s.getAdditionalProperties());
      out.add(kept);
    }
    return out;
  }

  private static String object(String... fields) {
    return "{" + String.join(",", fields) + "}";
  }

  private static String added(String object) {
    return "{\"type\":\"ADDED\",\"object\":" + object + "}";
  }

  private static String recordedPodFields() {
    try {
      ObjectNode pod =
          (ObjectNode)
              JSON.readTree(
                      Files.readString(
                          Path.of(
                              "src/test/resources/fixtures/kube-scheduler-v1.26",
                              "filter.ncc-true.json")))
                  .get("Pod");
      pod.remove(List.of("kind", "apiVersion"));
      String text = JSON.writeValueAsString(pod);
      return text.substring(1, text.length() - 1);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private WatchEvent decodedInOnePass(String text) {
    WatchEvent event = onePass.decodeWatchEvent(text);
    assertThat(event).as("decoded in one pass, not handed to fabric8: %s", text).isNotNull();
    assertThat((Object) onePass.unmarshal(text, WatchEvent.class)).isEqualTo(event);
    return event;
  }

  private static String event(String type, Object object) throws Exception {
    return JSON.writeValueAsString(Map.of("type", type, "object", object));
  }
}
