package io.schedext.warmup;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Namespace;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodConditionBuilder;
import io.fabric8.kubernetes.api.model.WatchEvent;
import io.schedext.cluster.WatchEventSerialization;
import io.schedext.testing.MakeNode;
import io.schedext.testing.MakePod;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The watch events the warm-up has the cluster source read: written as the API server writes them,
 * and decoded by the service's own watch decoder into what a watch would bring.
 */
class WarmUpEventsTest {

  /** The decoder the service's watches use. */
  private static final WatchEventSerialization SERIALIZATION = new WatchEventSerialization();

  private static Node node(String name, String cpu) {
    return MakeNode.node()
        .name(name)
        .label("topology.kubernetes.io/zone", "z1")
        .capacity(Map.of("cpu", cpu, "memory", "8Gi", "pods", "110"))
        .obj();
  }

  private static Pod pod(String name, String node, String cpu) {
    Pod p = MakePod.pod().name(name).namespace("default").node(node).req(Map.of("cpu", cpu)).obj();
    p.getMetadata().setUid(null);
    p.getStatus().setPhase("Running");
    return p;
  }

  @Test
  void theWarmUpsBoundEventCarriesANullProbeTimeAsTheApiServerWritesIt() {
    Pod bound = pod("warm", "n1", "500m");
    bound
        .getStatus()
        .setConditions(
            List.of(new PodConditionBuilder().withType("PodScheduled").withStatus("True").build()));
    String json = WarmUpEvents.withNullProbeTime(SERIALIZATION.asJson(bound));

    assertThat(json).contains("\"lastProbeTime\":null,\"type\":\"PodScheduled\"");
    Pod decoded = SERIALIZATION.unmarshal(json, Pod.class);
    assertThat(decoded.getStatus().getConditions())
        .singleElement()
        .satisfies(
            c -> {
              assertThat(c.getType()).isEqualTo("PodScheduled");
              assertThat(c.getLastProbeTime()).isNull();
            });
  }

  @Test
  void theWarmUpsEventsAreAPodsLifeWrittenAsTheApiServerWritesIt() {
    Pod pending = pod("warm", null, "500m");
    pending.getStatus().setPhase("Pending");
    WatchEventSerialization serialization = SERIALIZATION;

    List<String> texts = WarmUpEvents.podLife(serialization, pending, "n1");

    assertThat(texts)
        .extracting(t -> t.substring(0, t.indexOf(",\"object\"")))
        .containsExactly(
            "{\"type\":\"ADDED\"",
            "{\"type\":\"MODIFIED\"",
            "{\"type\":\"MODIFIED\"",
            "{\"type\":\"DELETED\"");
    assertThat(texts)
        .allSatisfy(
            t -> {
              assertThat(t).contains(",\"object\":{\"kind\":\"Pod\",\"apiVersion\":\"v1\",");
              assertThat(t).endsWith("}}\n");
              assertThat(t)
                  .contains("\"managedFields\":[{")
                  .contains("\"manager\":\"kubectl-create\"");
            });
    assertThat(texts.get(0)).doesNotContain("kube-scheduler");
    assertThat(texts.get(1))
        .contains("\"manager\":\"kube-scheduler\"", "\"subresource\":\"status\"");
    List<Pod> decoded =
        texts.stream()
            .map(t -> (Pod) serialization.unmarshal(t, WatchEvent.class).getObject())
            .toList();
    assertThat(decoded)
        .extracting(p -> p.getSpec().getNodeName())
        .containsExactly(null, "n1", "n1", "n1");
    assertThat(decoded)
        .extracting(p -> p.getMetadata().getDeletionGracePeriodSeconds())
        .containsExactly(null, null, 30L, 30L);
    assertThat(decoded)
        .extracting(p -> p.getMetadata().getManagedFields())
        .as("skipped by the decoder, as in real events")
        .allSatisfy(m -> assertThat(m).isNullOrEmpty());
    assertThat(decoded.get(1).getStatus().getConditions())
        .singleElement()
        .satisfies(c -> assertThat(c.getType()).isEqualTo("PodScheduled"));
    assertThat(pending.getMetadata().getManagedFields())
        .as("the pod given is not changed")
        .isNullOrEmpty();
  }

  @Test
  void theWarmUpsOtherEventsAreANamespacesLifeAndANodesStatus() {
    WatchEventSerialization serialization = SERIALIZATION;
    Node node = node("n1", "4");

    List<String> texts = WarmUpEvents.otherKinds(serialization, "team-a", node);

    assertThat(texts).hasSize(4).allSatisfy(t -> assertThat(t).endsWith("}}\n"));
    assertThat(texts.subList(0, 3))
        .allSatisfy(
            t ->
                assertThat(t)
                    .contains("\"object\":{\"kind\":\"Namespace\",\"apiVersion\":\"v1\","));
    assertThat(texts.get(3)).contains("\"object\":{\"kind\":\"Node\",\"apiVersion\":\"v1\",");
    assertThat(texts).allSatisfy(t -> assertThat(t).contains("\"managedFields\":[{"));
    List<Object> decoded =
        texts.stream().map(t -> serialization.unmarshal(t, WatchEvent.class).getObject()).toList();
    assertThat(decoded.subList(0, 3))
        .allSatisfy(o -> assertThat(((Namespace) o).getMetadata().getName()).isEqualTo("team-a"));
    assertThat(((Namespace) decoded.get(1)).getStatus().getPhase()).isEqualTo("Terminating");
    assertThat(((Node) decoded.get(3)).getMetadata().getName()).isEqualTo("n1");
    assertThat(node.getMetadata().getManagedFields())
        .as("the node given is not changed")
        .isNullOrEmpty();
    assertThat(WarmUpEvents.otherKinds(serialization, null, null))
        .as("no node: the namespace's events alone")
        .hasSize(3);
  }

  @Test
  void anEventsObjectComesKindFirstAndTheEventWithANewline() {
    assertThat(
            WarmUpEvents.watchEvent(
                "ADDED", "{\"apiVersion\":\"v1\",\"kind\":\"Pod\",\"metadata\":{}}"))
        .isEqualTo(
            "{\"type\":\"ADDED\",\"object\":{\"kind\":\"Pod\",\"apiVersion\":\"v1\",\"metadata\":{}}}\n");
    assertThat(WarmUpEvents.watchEvent("DELETED", "{\"kind\":\"Pod\"}"))
        .as("another order is left as it is")
        .isEqualTo("{\"type\":\"DELETED\",\"object\":{\"kind\":\"Pod\"}}\n");
  }
}
