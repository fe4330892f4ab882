package io.schedext.plugins.noderesources;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Pod;
import io.schedext.framework.NodeInfo;
import io.schedext.framework.PodInfo;
import java.util.List;

/**
 * One row of upstream's score tables: the pod to place, the nodes with the pods already on them,
 * the plugin arguments (JSON), whether PreScore runs first, and the expected scores in node order.
 */
record ScoreCase(
    String name,
    Pod pod,
    List<Node> nodes,
    List<Pod> existing,
    String argsJson,
    boolean runPreScore,
    List<Long> want) {

  @Override
  public String toString() {
    return name;
  }

  /** The incoming pod. */
  PodInfo podInfo() {
    return PodInfo.of(pod);
  }

  /** The nodes holding the existing pods. */
  List<NodeInfo> nodeInfos() {
    return Fixtures.infos(nodes, existing);
  }

  /** The Fit arguments for {@code type} over {@code resourcesJson}, plus an optional shape. */
  static String fitArgs(String type, String resourcesJson, String shapeJson) {
    String shape =
        shapeJson == null ? "" : ",\"requestedToCapacityRatio\":{\"shape\":" + shapeJson + "}";
    return "{\"scoringStrategy\":{\"type\":\""
        + type
        + "\",\"resources\":"
        + resourcesJson
        + shape
        + "}}";
  }

  /** cpu and memory, weight 1 each (upstream's defaultResources). */
  static final String DEFAULT_RESOURCES =
      "[{\"name\":\"cpu\",\"weight\":1},{\"name\":\"memory\",\"weight\":1}]";

  /** cpu, memory and abc.com/xyz, weight 1 each (upstream's extendedResourceSet). */
  static final String EXTENDED_RESOURCE_SET =
      "[{\"name\":\"cpu\",\"weight\":1},{\"name\":\"memory\",\"weight\":1},"
          + "{\"name\":\"abc.com/xyz\",\"weight\":1}]";
}
