package io.schedext.cluster;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.MappingIterator;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Namespace;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.PersistentVolume;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaim;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.ReplicationController;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.apps.ReplicaSet;
import io.fabric8.kubernetes.api.model.apps.StatefulSet;
import io.fabric8.kubernetes.api.model.policy.v1.PodDisruptionBudget;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceClass;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceSlice;
import io.fabric8.kubernetes.api.model.storage.CSIDriver;
import io.fabric8.kubernetes.api.model.storage.CSINode;
import io.fabric8.kubernetes.api.model.storage.CSIStorageCapacity;
import io.fabric8.kubernetes.api.model.storage.StorageClass;
import io.fabric8.kubernetes.api.model.storage.VolumeAttachment;
import io.schedext.framework.PodInfo;
import io.schedext.framework.Resource;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * Reads a cluster description: a Kubernetes {@code v1 List} in JSON, or multi-document YAML whose
 * documents are objects or Lists. Every object is decoded into its fabric8 type and checked (name
 * present, quantities valid); the first problem fails the whole load with a message naming the file
 * and the object. Objects without a UID get a stable one derived from kind, namespace and name.
 */
public final class ClusterFile {

  /** Supported kinds and their types. */
  public static final Map<String, Class<? extends HasMetadata>> KINDS = kinds();

  private static final ObjectMapper JSON =
      JsonMapper.builder().disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES).build();
  private static final ObjectMapper YAML =
      YAMLMapper.builder().disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES).build();

  private ClusterFile() {}

  private static Map<String, Class<? extends HasMetadata>> kinds() {
    Map<String, Class<? extends HasMetadata>> m = new LinkedHashMap<>();
    m.put("Node", Node.class);
    m.put("Pod", Pod.class);
    m.put("Service", Service.class);
    m.put("Namespace", Namespace.class);
    m.put("PersistentVolume", PersistentVolume.class);
    m.put("PersistentVolumeClaim", PersistentVolumeClaim.class);
    m.put("StorageClass", StorageClass.class);
    m.put("CSINode", CSINode.class);
    m.put("CSIDriver", CSIDriver.class);
    m.put("CSIStorageCapacity", CSIStorageCapacity.class);
    m.put("VolumeAttachment", VolumeAttachment.class);
    m.put("PodDisruptionBudget", PodDisruptionBudget.class);
    m.put("ReplicaSet", ReplicaSet.class);
    m.put("StatefulSet", StatefulSet.class);
    m.put("ReplicationController", ReplicationController.class);
    m.put("ResourceClaim", ResourceClaim.class);
    m.put("DeviceClass", DeviceClass.class);
    m.put("ResourceSlice", ResourceSlice.class);
    return Collections.unmodifiableMap(m);
  }

  /** Parses the content of {@code source} (named {@code name} in errors) into checked objects. */
  public static List<HasMetadata> read(String name, InputStream source) {
    byte[] bytes;
    try {
      bytes = source.readAllBytes();
    } catch (IOException e) {
      throw new ClusterSourceException(
          "cluster file " + name + ": cannot be read: " + e.getMessage(), e);
    }
    List<JsonNode> docs = documents(name, bytes);
    List<JsonNode> objects = new ArrayList<>();
    for (JsonNode d : docs) {
      if (d == null || d.isNull() || d.isMissingNode() || (d.isObject() && d.isEmpty())) {
        continue;
      }
      if ("List".equals(d.path("kind").asText()) || d.path("kind").asText().endsWith("List")) {
        d.path("items").forEach(objects::add);
      } else {
        objects.add(d);
      }
    }
    List<HasMetadata> out = new ArrayList<>(objects.size());
    for (int i = 0; i < objects.size(); i++) {
      out.add(decode(name, i + 1, objects.get(i)));
    }
    return out;
  }

  private static List<JsonNode> documents(String name, byte[] bytes) {
    String text = new String(bytes, StandardCharsets.UTF_8).stripLeading();
    try {
      if (text.startsWith("{") || text.startsWith("[")) {
        JsonNode n = JSON.readTree(text);
        List<JsonNode> out = new ArrayList<>();
        if (n.isArray()) {
          n.forEach(out::add);
        } else {
          out.add(n);
        }
        return out;
      }
      try (MappingIterator<JsonNode> it =
          YAML.readerFor(JsonNode.class).readValues(new YAMLFactory().createParser(bytes))) {
        return it.readAll();
      }
    } catch (IOException e) {
      throw new ClusterSourceException(
          "cluster file " + name + ": not valid JSON or YAML: " + e.getMessage(), e);
    }
  }

  private static HasMetadata decode(String file, int index, JsonNode node) {
    String kind = node.path("kind").asText("");
    String objName =
        node.path("metadata").path("namespace").asText("").isEmpty()
            ? node.path("metadata").path("name").asText("")
            : node.path("metadata").path("namespace").asText()
                + "/"
                + node.path("metadata").path("name").asText("");
    String where =
        "cluster file "
            + file
            + ": object #"
            + index
            + " ("
            + (kind.isEmpty() ? "no kind" : kind)
            + " "
            + (objName.isEmpty() ? "<no name>" : objName)
            + "): ";
    Class<? extends HasMetadata> type = KINDS.get(kind);
    if (type == null) {
      throw new ClusterSourceException(
          where + "unsupported kind \"" + kind + "\"; supported kinds: " + KINDS.keySet());
    }
    HasMetadata obj;
    try {
      obj = JSON.treeToValue(node, type);
    } catch (IOException | IllegalArgumentException e) {
      throw new ClusterSourceException(where + e.getMessage(), e);
    }
    if (obj.getMetadata() == null
        || obj.getMetadata().getName() == null
        || obj.getMetadata().getName().isEmpty()) {
      throw new ClusterSourceException(where + "metadata.name is required");
    }
    if (obj.getMetadata().getUid() == null || obj.getMetadata().getUid().isEmpty()) {
      String seed = kind + "/" + objName;
      obj.getMetadata()
          .setUid(UUID.nameUUIDFromBytes(seed.getBytes(StandardCharsets.UTF_8)).toString());
    }
    try {
      if (obj instanceof Pod p) {
        if (p.getMetadata().getNamespace() == null) {
          p.getMetadata().setNamespace("default");
        }
        PodInfo.of(p);
        Compaction.compact(p);
      } else if (obj instanceof Node n) {
        if (n.getStatus() != null) {
          Resource.fromQuantities(n.getStatus().getAllocatable());
        }
        Compaction.compact(n);
      }
    } catch (IllegalArgumentException e) {
      throw new ClusterSourceException(where + e.getMessage(), e);
    }
    return obj;
  }
}
