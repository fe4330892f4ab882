package io.schedext.kube;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.FieldsV1;
import io.fabric8.kubernetes.api.model.ManagedFieldsEntry;
import io.fabric8.kubernetes.api.model.Pod;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Managed-fields entries as the API server records them on a pod, for objects made to look like the
 * API server's: every pod it writes carries them, in watch events and in kube-scheduler's calls
 * alike, and the decoders skip them ({@link UnreadFields}). Pods and events made before real
 * objects come carry them, so that the skipping, and the field names it parses, have run.
 */
public final class ManagedFields {

  private ManagedFields() {}

  /**
   * The entry a client that created {@code pod} has in its managed fields (an update, as clients
   * that do not apply make): its containers and the fields the API server defaults.
   */
  public static ManagedFieldsEntry createdBy(Pod pod) {
    Map<String, Object> containers = new LinkedHashMap<>();
    for (Container c : pod.getSpec().getContainers()) {
      containers.put(
          "k:{\"name\":\"" + c.getName() + "\"}",
          Map.of(
              ".",
              Map.of(),
              "f:image",
              Map.of(),
              "f:imagePullPolicy",
              Map.of(),
              "f:name",
              Map.of(),
              "f:resources",
              Map.of(".", Map.of(), "f:requests", Map.of(".", Map.of(), "f:cpu", Map.of())),
              "f:terminationMessagePath",
              Map.of(),
              "f:terminationMessagePolicy",
              Map.of()));
    }
    Map<String, Object> spec = new LinkedHashMap<>();
    spec.put("f:containers", containers);
    for (String f :
        List.of(
            "f:dnsPolicy",
            "f:enableServiceLinks",
            "f:restartPolicy",
            "f:schedulerName",
            "f:securityContext",
            "f:terminationGracePeriodSeconds")) {
      spec.put(f, Map.of());
    }
    FieldsV1 fields = new FieldsV1();
    fields.setAdditionalProperty("f:spec", spec);
    return managedBy("kubectl-create", null, fields);
  }

  /**
   * The entry kube-scheduler's binding leaves in a pod's managed fields: its PodScheduled
   * condition.
   */
  public static ManagedFieldsEntry boundBy() {
    FieldsV1 fields = new FieldsV1();
    fields.setAdditionalProperty(
        "f:status",
        Map.of(
            "f:conditions",
            Map.of(
                ".",
                Map.of(),
                "k:{\"type\":\"PodScheduled\"}",
                Map.of(
                    ".", Map.of(),
                    "f:lastProbeTime", Map.of(),
                    "f:lastTransitionTime", Map.of(),
                    "f:status", Map.of(),
                    "f:type", Map.of()))));
    return managedBy("kube-scheduler", "status", fields);
  }

  /**
   * The entry a client that created a namespace has in its managed fields: the name label the API
   * server adds.
   */
  public static ManagedFieldsEntry namespaceCreatedBy() {
    FieldsV1 fields = new FieldsV1();
    fields.setAdditionalProperty(
        "f:metadata",
        Map.of("f:labels", Map.of(".", Map.of(), "f:kubernetes.io/metadata.name", Map.of())));
    return managedBy("kubectl-create", null, fields);
  }

  /** The entry the kubelet's status updates leave in a node's managed fields: its conditions. */
  public static ManagedFieldsEntry nodeStatusBy() {
    Map<String, Object> conditions = new LinkedHashMap<>();
    conditions.put(".", Map.of());
    for (String type : List.of("DiskPressure", "MemoryPressure", "PIDPressure", "Ready")) {
      conditions.put(
          "k:{\"type\":\"" + type + "\"}",
          Map.of("f:lastHeartbeatTime", Map.of(), "f:lastTransitionTime", Map.of()));
    }
    FieldsV1 fields = new FieldsV1();
    fields.setAdditionalProperty("f:status", Map.of("f:conditions", conditions));
    return managedBy("kubelet", "status", fields);
  }

  private static ManagedFieldsEntry managedBy(String manager, String subresource, FieldsV1 fields) {
    ManagedFieldsEntry entry = new ManagedFieldsEntry();
    entry.setManager(manager);
    entry.setOperation("Update");
    entry.setApiVersion("v1");
    entry.setTime(Instant.EPOCH.toString());
    entry.setFieldsType("FieldsV1");
    entry.setFieldsV1(fields);
    entry.setSubresource(subresource);
    return entry;
  }
}
