package io.schedext.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import io.schedext.framework.PodInfo;
import io.schedext.testing.MakeNode;
import io.schedext.testing.MakePod;
import java.io.ByteArrayInputStream;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The empty collections a decoded pod or node carries are shared ones after compaction, and nothing
 * else changes.
 */
class CompactionTest {

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final KubernetesSerialization SERIALIZATION = new KubernetesSerialization();

  /** The model classes whose empty collections compaction replaces. */
  private static final Set<String> COMPACTED =
      Set.of(
          "Pod",
          "ObjectMeta",
          "PodSpec",
          "Container",
          "ResourceRequirements",
          "Quantity",
          "PodStatus",
          "PodCondition",
          "ContainerPort",
          "Toleration",
          "OwnerReference",
          "Node",
          "NodeSpec",
          "NodeStatus",
          "Taint",
          "ContainerImage",
          "ContainerStatus");

  @Test
  void aRecordedPodKeepsItsValueAndLosesItsEmptyCollections() throws Exception {
    ObjectNode recorded =
        (ObjectNode)
            JSON.readTree(
                    Files.readString(
                        Path.of(
                            "src/test/resources/fixtures/kube-scheduler-v1.26/filter.ncc-true.json")))
                .get("Pod");
    Pod pod = decode(recorded.toString(), Pod.class);
    Pod original = decode(recorded.toString(), Pod.class);
    List<String> before = emptyMutable(pod);

    Compaction.compact(pod);

    assertThat(before).as("fabric8 starts every collection as a new one").hasSizeGreaterThan(30);
    assertThat(emptyMutable(pod))
        .as("left in the parts compaction covers")
        .noneMatch(CompactionTest::covered);
    assertThat(emptyMutable(pod).size()).isLessThan(before.size() / 4);
    assertThat(pod).isEqualTo(original);
    assertThat(SERIALIZATION.asJson(pod)).isEqualTo(SERIALIZATION.asJson(original));
  }

  @Test
  void aPodWithEverySchedulingFieldIsUnchangedForThePlugins() {
    String json =
        SERIALIZATION.asJson(
            MakePod.pod()
                .name("p")
                .namespace("ns")
                .uid("u")
                .node("n1")
                .label("app", "a")
                .priority(100)
                .req(Map.of("cpu", "1500m", "memory", "1Gi"))
                .overhead(Map.of("cpu", "10m"))
                .hostPort("TCP", "", 8080)
                .toleration("k", "Equal", "v", "NoSchedule")
                .nodeSelector(Map.of("disk", "ssd"))
                .nodeAffinityTerm("zone", "In", "z1")
                .podAntiAffinityIn("kubernetes.io/hostname", "app", "a")
                .spreadConstraint(1, "zone", "DoNotSchedule", null)
                .pvc("data")
                .owner("ReplicaSet", "rs")
                .startTime("2026-11-01T00:00:00Z")
                .obj());
    Pod pod = decode(json, Pod.class);
    PodInfo before = PodInfo.of(decode(json, Pod.class));

    Compaction.compact(pod);
    PodInfo after = PodInfo.of(pod);

    assertThat(pod).isEqualTo(decode(json, Pod.class));
    assertThat(after.request()).isEqualTo(before.request());
    assertThat(after.hostPorts()).isEqualTo(before.hostPorts());
    assertThat(after.pvcKeys()).isEqualTo(before.pvcKeys());
    assertThat(emptyMutable(pod)).noneMatch(CompactionTest::covered);
  }

  @Test
  void emptyPartsAnswerQueriesForNullAsBeforeAndSharedOnesAreNotChanged() {
    Pod pod =
        decode(
            SERIALIZATION.asJson(MakePod.pod().name("p").namespace("ns").uid("u").obj()),
            Pod.class);

    Compaction.compact(pod);

    assertThat(pod.getMetadata().getAnnotations()).isEmpty();
    assertThat(pod.getMetadata().getAnnotations().get(null)).isNull();
    assertThat(pod.getMetadata().getAnnotations().containsKey(null)).isFalse();
    assertThat(pod.getSpec().getTolerations().contains(null)).isFalse();
    assertThat(pod.getSpec().getTolerations()).isSameAs(pod.getSpec().getVolumes());
  }

  @Test
  void aNodeKeepsItsValueAndLosesItsEmptyCollections() {
    String json =
        SERIALIZATION.asJson(
            MakeNode.node()
                .name("n1")
                .label("zone", "z1")
                .taint("k", "v", "NoSchedule")
                .capacity(Map.of("cpu", "4", "pods", "110"))
                .image(100, "img:1")
                .obj());
    Node node = decode(json, Node.class);
    int before = emptyMutable(node).size();

    Compaction.compact(node);

    assertThat(node).isEqualTo(decode(json, Node.class));
    assertThat(emptyMutable(node)).noneMatch(CompactionTest::covered).hasSizeLessThan(before);
  }

  @Test
  void theEmbeddedClusterAndTheInformersHandOverCompactedObjects() {
    String file =
        "{\"apiVersion\":\"v1\",\"kind\":\"List\",\"items\":["
            + SERIALIZATION.asJson(
                MakePod.pod()
                    .name("p")
                    .namespace("ns")
                    .uid("u")
                    .node("n1")
                    .req(Map.of("cpu", "1"))
                    .obj())
            + ","
            + SERIALIZATION.asJson(MakeNode.node().name("n1").capacity(Map.of("cpu", "4")).obj())
            + "]}";
    List<?> read =
        ClusterFile.read(
            "cluster.json", new ByteArrayInputStream(file.getBytes(StandardCharsets.UTF_8)));
    Pod watched =
        decode(
            SERIALIZATION.asJson(
                MakePod.pod()
                    .name("q")
                    .namespace("ns")
                    .uid("v")
                    .req(Map.of("cpu", "1"))
                    .statusResources("c0", Map.of("cpu", "2"), Map.of("cpu", "2"))
                    .obj()),
            Pod.class);

    Trim.object(watched);

    for (Object o : List.of(read.get(0), read.get(1), watched)) {
      assertThat(emptyMutable(o)).as("%s", o).noneMatch(CompactionTest::covered);
    }
  }

  private static <T> T decode(String json, Class<T> type) {
    return SERIALIZATION.unmarshal(json, type);
  }

  private static boolean covered(String where) {
    return COMPACTED.contains(where.substring(0, where.indexOf('.')));
  }

  /**
   * "Class.field" of every empty mutable list or map reachable from {@code root} through fabric8
   * model objects.
   */
  private static List<String> emptyMutable(Object root) {
    List<String> found = new ArrayList<>();
    walk(root, found, Collections.newSetFromMap(new IdentityHashMap<>()));
    return found;
  }

  private static void walk(Object o, List<String> found, Set<Object> seen) {
    if (o == null || !seen.add(o)) {
      return;
    }
    if (o instanceof Collection<?> c) {
      c.forEach(e -> walk(e, found, seen));
      return;
    }
    if (o instanceof Map<?, ?> m) {
      m.values().forEach(v -> walk(v, found, seen));
      return;
    }
    if (!o.getClass().getName().startsWith("io.fabric8.kubernetes.api.model")) {
      return;
    }
    for (Class<?> c = o.getClass(); c != Object.class; c = c.getSuperclass()) {
      for (Field f : c.getDeclaredFields()) {
        if (Modifier.isStatic(f.getModifiers())) {
          continue;
        }
        f.setAccessible(true);
        Object v;
        try {
          v = f.get(o);
        } catch (IllegalAccessException e) {
          throw new IllegalStateException(e);
        }
        if ((v instanceof ArrayList<?> l && l.isEmpty())
            || (v instanceof HashMap<?, ?> h && h.isEmpty())) {
          found.add(o.getClass().getSimpleName() + "." + f.getName());
        }
        walk(v, found, seen);
      }
    }
  }
}
