package io.schedext.testing.realcluster;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.NodeCondition;
import io.fabric8.kubernetes.api.model.NodeConditionBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Schedulable nodes in a cluster without kubelets: the Node is created (admission taints it {@code
 * node.kubernetes.io/not-ready:NoSchedule}), its status written through the {@code status}
 * subresource (capacity, allocatable, a Ready condition), then the taint removed.
 */
public final class Nodes {

  private Nodes() {}

  /**
   * Creates node {@code name} with {@code cpu}, {@code memory} and 110 pods, labelled with {@code
   * labels}.
   */
  public static Node createReady(
      KubernetesClient client, String name, String cpu, String memory, Map<String, String> labels) {
    Map<String, String> all = new LinkedHashMap<>(labels);
    all.putIfAbsent("kubernetes.io/hostname", name);
    client
        .nodes()
        .resource(
            new NodeBuilder()
                .withNewMetadata()
                .withName(name)
                .withLabels(all)
                .endMetadata()
                .build())
        .create();
    Map<String, Quantity> capacity =
        Map.of(
            "cpu", new Quantity(cpu), "memory", new Quantity(memory), "pods", new Quantity("110"));
    String now = Instant.now().toString();
    NodeCondition ready =
        new NodeConditionBuilder()
            .withType("Ready")
            .withStatus("True")
            .withReason("KubeletReady")
            .withMessage("no kubelet: status written by the test")
            .withLastHeartbeatTime(now)
            .withLastTransitionTime(now)
            .build();
    client
        .nodes()
        .withName(name)
        .editStatus(
            n ->
                new NodeBuilder(n)
                    .editOrNewStatus()
                    .withCapacity(capacity)
                    .withAllocatable(capacity)
                    .withConditions(List.of(ready))
                    .endStatus()
                    .build());
    return client
        .nodes()
        .withName(name)
        .edit(
            n ->
                new NodeBuilder(n)
                    .editSpec()
                    .withTaints(
                        n.getSpec().getTaints() == null
                            ? List.of()
                            : n.getSpec().getTaints().stream()
                                .filter(t -> !"node.kubernetes.io/not-ready".equals(t.getKey()))
                                .toList())
                    .endSpec()
                    .build());
  }
}
