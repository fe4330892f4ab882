package io.schedext.warmup;

import io.fabric8.kubernetes.api.model.Namespace;
import io.fabric8.kubernetes.api.model.NamespaceSpec;
import io.fabric8.kubernetes.api.model.NamespaceStatus;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodConditionBuilder;
import io.fabric8.kubernetes.api.model.PodStatus;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import io.schedext.kube.ManagedFields;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The texts of the watch events the warm-up decodes ({@link
 * io.schedext.cluster.ClusterSource#readWatchEvents}), written as the API server writes them, so
 * that the code compiled on them is the code real events run.
 */
final class WarmUpEvents {

  private WarmUpEvents() {}

  /** An object's leading {@code apiVersion} and {@code kind}, as the client writes them. */
  private static final Pattern CLIENT_ORDER =
      Pattern.compile("\\{\"apiVersion\":\"([^\"]+)\",\"kind\":\"([^\"]+)\",");

  /**
   * The watch events a pod brings over its life, written as the API server writes them: created
   * pending, bound to {@code nodeName}, being deleted, deleted. Each object has {@code kind} first,
   * its fields managed by the client that created it (and by kube-scheduler once bound), and each
   * event ends with a newline. Code compiled on events without them met its first managed fields,
   * its first trailing newline and its first deletion in real events, and was thrown away there
   * (docs/performance.md).
   */
  static List<String> podLife(KubernetesSerialization serialization, Pod pod, String nodeName) {
    Pod created = serialization.clone(pod);
    created.getMetadata().setManagedFields(List.of(ManagedFields.createdBy(created)));
    Pod bound = serialization.clone(created);
    bound.getSpec().setNodeName(nodeName);
    if (bound.getStatus() == null) {
      bound.setStatus(new PodStatus());
    }
    bound
        .getStatus()
        .setConditions(
            List.of(
                new PodConditionBuilder()
                    .withType("PodScheduled")
                    .withStatus("True")
                    .withLastTransitionTime(Instant.EPOCH.toString())
                    .build()));
    bound
        .getMetadata()
        .setManagedFields(List.of(ManagedFields.createdBy(created), ManagedFields.boundBy()));
    Pod deleting = serialization.clone(bound);
    // The client's serialization skips managed fields when it reads, so a clone has none.
    deleting.getMetadata().setManagedFields(bound.getMetadata().getManagedFields());
    deleting.getMetadata().setDeletionTimestamp(Instant.EPOCH.plusSeconds(60).toString());
    deleting.getMetadata().setDeletionGracePeriodSeconds(30L);
    String deletingJson = withNullProbeTime(serialization.asJson(deleting));
    return List.of(
        watchEvent("ADDED", serialization.asJson(created)),
        watchEvent("MODIFIED", withNullProbeTime(serialization.asJson(bound))),
        watchEvent("MODIFIED", deletingJson),
        watchEvent("DELETED", deletingJson));
  }

  /**
   * Watch events of other kinds the watches bring while pods are scheduled, as the API server
   * writes them: a namespace created, being deleted and deleted, and a status update of {@code
   * node} (none when null). Decoded, they take the path every kind but Pod takes (the mapper's
   * deserializers, through the parsers {@link WatchEventSerialization} reads them with), whose
   * first real event otherwise came after the warm-up had compiled those deserializers for one
   * parser class only.
   */
  static List<String> otherKinds(
      KubernetesSerialization serialization, String namespace, Node node) {
    String name = namespace == null ? "default" : namespace;
    Namespace created = new Namespace();
    created.setMetadata(new ObjectMeta());
    created.getMetadata().setName(name);
    created.getMetadata().setUid("00000000-0000-0000-0000-000000000000");
    created.getMetadata().setResourceVersion("1");
    created.getMetadata().setCreationTimestamp(Instant.EPOCH.toString());
    created.getMetadata().setLabels(Map.of("kubernetes.io/metadata.name", name));
    created.getMetadata().setManagedFields(List.of(ManagedFields.namespaceCreatedBy()));
    created.setSpec(new NamespaceSpec(List.of("kubernetes")));
    created.setStatus(new NamespaceStatus(null, "Active"));
    Namespace deleting = serialization.clone(created);
    deleting.getMetadata().setManagedFields(created.getMetadata().getManagedFields());
    deleting.getMetadata().setDeletionTimestamp(Instant.EPOCH.plusSeconds(60).toString());
    deleting.setStatus(new NamespaceStatus(null, "Terminating"));
    String deletingJson = serialization.asJson(deleting);
    List<String> out = new ArrayList<>();
    out.add(watchEvent("ADDED", serialization.asJson(created)));
    out.add(watchEvent("MODIFIED", deletingJson));
    out.add(watchEvent("DELETED", deletingJson));
    if (node != null) {
      Node updated = serialization.clone(node);
      updated.getMetadata().setManagedFields(List.of(ManagedFields.nodeStatusBy()));
      out.add(watchEvent("MODIFIED", serialization.asJson(updated)));
    }
    return out;
  }

  /**
   * A watch event of {@code type} over {@code object} as the API server writes it: the object's
   * {@code kind} before its {@code apiVersion} (the client writes them the other way round), and a
   * newline after the event.
   */
  static String watchEvent(String type, String object) {
    Matcher clientOrder = CLIENT_ORDER.matcher(object);
    String served =
        clientOrder.lookingAt()
            ? "{\"kind\":\""
                + clientOrder.group(2)
                + "\",\"apiVersion\":\""
                + clientOrder.group(1)
                + "\","
                + object.substring(clientOrder.end())
            : object;
    return "{\"type\":\"" + type + "\",\"object\":" + served + "}\n";
  }

  /**
   * {@code json} with {@code "lastProbeTime":null} in its PodScheduled condition, as the API server
   * writes a condition nobody probes (a zero time is written as null); the client's serialization
   * leaves null fields out, and the decoder's branch for a null string would otherwise first run on
   * a real event.
   */
  static String withNullProbeTime(String json) {
    return json.replace(
        "\"type\":\"PodScheduled\"", "\"lastProbeTime\":null,\"type\":\"PodScheduled\"");
  }
}
