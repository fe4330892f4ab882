package io.schedext.plugins.volumebinding;

import io.fabric8.kubernetes.api.model.LabelSelectorBuilder;
import io.fabric8.kubernetes.api.model.NodeSelectorRequirementBuilder;
import io.fabric8.kubernetes.api.model.NodeSelectorTermBuilder;
import io.fabric8.kubernetes.api.model.ObjectReferenceBuilder;
import io.fabric8.kubernetes.api.model.OwnerReferenceBuilder;
import io.fabric8.kubernetes.api.model.PersistentVolume;
import io.fabric8.kubernetes.api.model.PersistentVolumeBuilder;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaim;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaimBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.TopologySelectorLabelRequirement;
import io.fabric8.kubernetes.api.model.TopologySelectorTerm;
import io.fabric8.kubernetes.api.model.Volume;
import io.fabric8.kubernetes.api.model.VolumeBuilder;
import io.fabric8.kubernetes.api.model.storage.CSIDriverBuilder;
import io.fabric8.kubernetes.api.model.storage.CSIStorageCapacity;
import io.fabric8.kubernetes.api.model.storage.CSIStorageCapacityBuilder;
import io.fabric8.kubernetes.api.model.storage.StorageClass;
import io.fabric8.kubernetes.api.model.storage.StorageClassBuilder;
import io.schedext.cluster.ObjectStore;
import io.schedext.framework.PodInfo;
import io.schedext.testing.MakePod;
import io.schedext.testing.PodWrapper;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Test objects shaped like upstream's binder_test.go helpers ({@code makeTestPVC}, {@code
 * makeTestPV}, ...).
 */
final class Fixtures {

  static final String NS = "testns";
  static final String NODE_LABEL_KEY = "nodeKey";
  static final String PROVISIONER = "test-provisioner";
  static final String WAIT_CLASS = "waitClass";
  static final String IMMEDIATE_CLASS = "immediateClass";
  static final String WAIT_CLASS_WITH_PROVISIONER = "waitClassWithProvisioner";
  static final String TOPO_MISMATCH_CLASS = "topoMismatchClass";
  static final String SELECTED_NODE = "volume.kubernetes.io/selected-node";
  static final String BIND_COMPLETED = "pv.kubernetes.io/bind-completed";

  /** How a test claim relates to its volume. */
  enum ClaimState {
    UNBOUND,
    PREBOUND,
    BOUND,
    SELECTED_NODE
  }

  private Fixtures() {}

  static PersistentVolumeClaim claim(
      String name, String size, String node, ClaimState state, String pvName, String className) {
    return claim(name, size, node, state, pvName, "1", className);
  }

  static PersistentVolumeClaim claim(
      String name,
      String size,
      String node,
      ClaimState state,
      String pvName,
      String version,
      String className) {
    PersistentVolumeClaimBuilder b =
        new PersistentVolumeClaimBuilder()
            .withNewMetadata()
            .withName(name)
            .withNamespace(NS)
            .withUid("pvc-uid")
            .withResourceVersion(version)
            .endMetadata()
            .withNewSpec()
            .withNewResources()
            .addToRequests("storage", new Quantity(size))
            .endResources()
            .withStorageClassName(className)
            .withVolumeMode("Filesystem")
            .endSpec();
    switch (state) {
      case SELECTED_NODE -> b.editMetadata().addToAnnotations(SELECTED_NODE, node).endMetadata();
      case BOUND ->
          b.editMetadata()
              .addToAnnotations(BIND_COMPLETED, "yes")
              .endMetadata()
              .editSpec()
              .withVolumeName(pvName)
              .endSpec();
      case PREBOUND -> b.editSpec().withVolumeName(pvName).endSpec();
      default -> {}
    }
    return b.build();
  }

  static PersistentVolume volume(
      String name, String node, String capacity, PersistentVolumeClaim boundTo, String className) {
    return volume(name, node, capacity, "1", boundTo, className);
  }

  static PersistentVolume volume(
      String name,
      String node,
      String capacity,
      String version,
      PersistentVolumeClaim boundTo,
      String className) {
    PersistentVolumeBuilder b =
        new PersistentVolumeBuilder()
            .withNewMetadata()
            .withName(name)
            .withResourceVersion(version)
            .endMetadata()
            .withNewSpec()
            .addToCapacity("storage", new Quantity(capacity))
            .withStorageClassName(className)
            .withVolumeMode("Filesystem")
            .endSpec()
            .withNewStatus()
            .withPhase("Available")
            .endStatus();
    if (node != null) {
      b.editSpec()
          .withNewNodeAffinity()
          .withNewRequired()
          .withNodeSelectorTerms(
              new NodeSelectorTermBuilder()
                  .withMatchExpressions(
                      new NodeSelectorRequirementBuilder()
                          .withKey(NODE_LABEL_KEY)
                          .withOperator("In")
                          .withValues(node)
                          .build())
                  .build())
          .endRequired()
          .endNodeAffinity()
          .endSpec();
    }
    if (boundTo != null) {
      b.editSpec()
          .withClaimRef(
              new ObjectReferenceBuilder()
                  .withKind("PersistentVolumeClaim")
                  .withApiVersion("v1")
                  .withName(boundTo.getMetadata().getName())
                  .withNamespace(boundTo.getMetadata().getNamespace())
                  .withUid(boundTo.getMetadata().getUid())
                  .withResourceVersion(boundTo.getMetadata().getResourceVersion())
                  .build())
          .endSpec()
          .editMetadata()
          .addToAnnotations("pv.kubernetes.io/bound-by-controller", "yes")
          .endMetadata();
    }
    return b.build();
  }

  /**
   * A volume with node affinity {@code key In values} per entry, all in one term, as upstream's
   * makePV.
   */
  static PersistentVolume volumeWithAffinity(
      String name, String className, String capacity, String phase, Map<String, String> affinity) {
    PersistentVolumeBuilder b =
        new PersistentVolumeBuilder()
            .withNewMetadata()
            .withName(name)
            .endMetadata()
            .withNewSpec()
            .withStorageClassName(className)
            .endSpec()
            .withNewStatus()
            .withPhase(phase)
            .endStatus();
    if (capacity != null) {
      b.editSpec().addToCapacity("storage", new Quantity(capacity)).endSpec();
    }
    if (!affinity.isEmpty()) {
      NodeSelectorTermBuilder t = new NodeSelectorTermBuilder();
      affinity.forEach(
          (k, v) ->
              t.addToMatchExpressions(
                  new NodeSelectorRequirementBuilder()
                      .withKey(k)
                      .withOperator("In")
                      .withValues(v)
                      .build()));
      b.editSpec()
          .withNewNodeAffinity()
          .withNewRequired()
          .withNodeSelectorTerms(t.build())
          .endRequired()
          .endNodeAffinity()
          .endSpec();
    }
    return b.build();
  }

  static PersistentVolumeClaim ephemeralClaim(PodInfo pod, String volumeName, boolean owned) {
    PersistentVolumeClaim pvc =
        claim(
            pod.name() + "-" + volumeName, "1G", "", ClaimState.BOUND, "pv-bound", IMMEDIATE_CLASS);
    if (owned) {
      pvc.getMetadata()
          .setOwnerReferences(
              List.of(
                  new OwnerReferenceBuilder()
                      .withName(pod.name())
                      .withUid(pod.uid())
                      .withController(true)
                      .build()));
    }
    return pvc;
  }

  static Volume ephemeralVolume(String name) {
    return new VolumeBuilder().withName(name).withNewEphemeral().endEphemeral().build();
  }

  static PodInfo pod(List<PersistentVolumeClaim> claims) {
    PodWrapper w = MakePod.pod().name("test-pod").namespace(NS).node("node1");
    for (PersistentVolumeClaim c : claims) {
      w.pvc(c.getMetadata().getName());
    }
    return w.info();
  }

  static ObjectStore store() {
    ObjectStore s = new ObjectStore();
    s.put(
        storageClass(
            WAIT_CLASS_WITH_PROVISIONER,
            "WaitForFirstConsumer",
            PROVISIONER,
            "node1",
            "reference-value"));
    s.put(storageClass(IMMEDIATE_CLASS, "Immediate", null));
    s.put(storageClass(WAIT_CLASS, "WaitForFirstConsumer", "kubernetes.io/no-provisioner"));
    s.put(
        storageClass(TOPO_MISMATCH_CLASS, "WaitForFirstConsumer", PROVISIONER, "reference-value"));
    return s;
  }

  static StorageClass storageClass(
      String name, String mode, String provisioner, String... allowedNodeValues) {
    StorageClassBuilder b =
        new StorageClassBuilder()
            .withNewMetadata()
            .withName(name)
            .endMetadata()
            .withVolumeBindingMode(mode)
            .withProvisioner(provisioner);
    if (allowedNodeValues.length > 0) {
      TopologySelectorLabelRequirement r =
          new TopologySelectorLabelRequirement(
              NODE_LABEL_KEY, new ArrayList<>(List.of(allowedNodeValues)));
      b.withAllowedTopologies(new TopologySelectorTerm(new ArrayList<>(List.of(r))));
    }
    return b.build();
  }

  static void putDriver(ObjectStore s, String name, boolean storageCapacity) {
    s.put(
        new CSIDriverBuilder()
            .withNewMetadata()
            .withName(name)
            .endMetadata()
            .withNewSpec()
            .withStorageCapacity(storageCapacity)
            .endSpec()
            .build());
  }

  /**
   * A capacity of {@code className}; {@code nodeValue} null = reachable from every node (empty
   * topology).
   */
  static CSIStorageCapacity capacity(
      String name, String className, String nodeValue, String capacity, String maximumVolumeSize) {
    Map<String, String> match = new LinkedHashMap<>();
    if (nodeValue != null) {
      match.put(NODE_LABEL_KEY, nodeValue);
    }
    CSIStorageCapacityBuilder b =
        new CSIStorageCapacityBuilder()
            .withNewMetadata()
            .withName(name)
            .withNamespace("kube-system")
            .endMetadata()
            .withStorageClassName(className)
            .withNodeTopology(new LabelSelectorBuilder().withMatchLabels(match).build());
    if (capacity != null) {
      b.withCapacity(new Quantity(capacity));
    }
    if (maximumVolumeSize != null) {
      b.withMaximumVolumeSize(new Quantity(maximumVolumeSize));
    }
    return b.build();
  }
}
