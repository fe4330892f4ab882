package io.schedext.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.ServiceBuilder;
import io.fabric8.kubernetes.api.model.Status;
import io.fabric8.kubernetes.api.model.WatchEvent;
import io.fabric8.kubernetes.api.model.storage.CSINodeBuilder;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import io.schedext.testing.MakeNode;
import io.schedext.testing.MakePod;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class WatchEventSerializationTest {

  private static final ObjectMapper JSON = new ObjectMapper();

  private final WatchEventSerialization onePass = new WatchEventSerialization();
  private final KubernetesSerialization fabric8 = new KubernetesSerialization();

  @Test
  void aRecordedPodDecodesInOnePassToWhatFabric8Builds() throws Exception {
    ObjectNode pod =
        (ObjectNode)
            JSON.readTree(
                    Files.readString(
                        Path.of(
                            "src/test/resources/fixtures/kube-scheduler-v1.26/filter.ncc-true.json")))
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
    Pod pod =
        MakePod.pod()
            .name("p")
            .namespace("ns")
            .uid("u")
            .node("n1")
            .label("app", "a")
            .priority(100)
            .req(Map.of("cpu", "1500m", "memory", "1Gi"))
            .reqLim(Map.of("cpu", "1"), Map.of("cpu", "2"))
            .overhead(Map.of("cpu", "10m"))
            .hostPort("TCP", "", 8080)
            .toleration("k", "Equal", "v", "NoSchedule")
            .nodeSelector(Map.of("disk", "ssd"))
            .nodeAffinityTerm("zone", "In", "z1", "z2")
            .preferredNodeAffinity(5, "type", "NotIn", "spot")
            .podAntiAffinityIn("kubernetes.io/hostname", "app", "a")
            .preferredPodAffinityIn(20, "zone", "tier", "web")
            .pvc("data")
            .owner("ReplicaSet", "rs")
            .startTime("2026-11-01T00:00:00Z")
            .obj();
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
