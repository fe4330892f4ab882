package io.schedext.profiles;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;
import java.util.Optional;

/**
 * The plugin args a Policy's custom predicates and priorities add up to, as v1.22's {@code
 * ConfigProducerArgs}: every LabelsPresence and LabelPreference lands in one NodeLabel args, every
 * ServiceAffinity and ServiceAntiAffinity in one ServiceAffinity args. Not thread-safe.
 */
final class PolicyArgs {

  private ObjectNode nodeLabel;
  private ObjectNode serviceAffinity;
  private ObjectNode requestedToCapacityRatio;
  private Integer hardPodAffinityWeight;

  /** A LabelsPresence predicate: nodes must have (or lack) every label. */
  void labelsPresence(List<String> labels, boolean presence) {
    ArrayNode list = nodeLabel().withArray(presence ? "presentLabels" : "absentLabels");
    labels.forEach(list::add);
  }

  /** A LabelPreference priority: nodes with (or without) the label score higher. */
  void labelPreference(String label, boolean presence) {
    nodeLabel()
        .withArray(presence ? "presentLabelsPreference" : "absentLabelsPreference")
        .add(label);
  }

  /** A ServiceAffinity predicate: a service's pods share the values of these node labels. */
  void serviceAffinity(List<String> labels) {
    ArrayNode list = serviceAffinity().withArray("affinityLabels");
    labels.forEach(list::add);
  }

  /** A ServiceAntiAffinity priority: a service's pods spread over the values of this node label. */
  void serviceAntiAffinity(String label) {
    serviceAffinity().withArray("antiAffinityLabelsPreference").add(label);
  }

  /** The RequestedToCapacityRatio priority's scoring strategy. */
  void requestedToCapacityRatio(ObjectNode strategy) {
    requestedToCapacityRatio = strategy;
  }

  /** The Policy's hardPodAffinitySymmetricWeight (set only when not 0). */
  void hardPodAffinityWeight(int weight) {
    hardPodAffinityWeight = weight;
  }

  /** The NodeLabel plugin's args the Policy's label predicates and priorities built, if any. */
  Optional<ObjectNode> nodeLabelArgs() {
    return Optional.ofNullable(nodeLabel);
  }

  /**
   * The ServiceAffinity plugin's args the Policy's service predicates and priorities built, if any.
   */
  Optional<ObjectNode> serviceAffinityArgs() {
    return Optional.ofNullable(serviceAffinity);
  }

  /** The RequestedToCapacityRatio scoring strategy, if the Policy has that priority. */
  Optional<ObjectNode> requestedToCapacityRatio() {
    return Optional.ofNullable(requestedToCapacityRatio);
  }

  /** The Policy's hardPodAffinitySymmetricWeight, or null when it is not set (or 0). */
  Integer hardPodAffinityWeight() {
    return hardPodAffinityWeight;
  }

  /** The NodeLabel args being built, created on first use. */
  private ObjectNode nodeLabel() {
    if (nodeLabel == null) {
      nodeLabel = JsonNodeFactory.instance.objectNode();
    }
    return nodeLabel;
  }

  /** The ServiceAffinity args being built, created on first use. */
  private ObjectNode serviceAffinity() {
    if (serviceAffinity == null) {
      serviceAffinity = JsonNodeFactory.instance.objectNode();
    }
    return serviceAffinity;
  }
}
