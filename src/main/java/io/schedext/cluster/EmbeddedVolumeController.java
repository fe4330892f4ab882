package io.schedext.cluster;

import io.fabric8.kubernetes.api.model.NodeSelectorRequirementBuilder;
import io.fabric8.kubernetes.api.model.NodeSelectorTermBuilder;
import io.fabric8.kubernetes.api.model.ObjectReference;
import io.fabric8.kubernetes.api.model.ObjectReferenceBuilder;
import io.fabric8.kubernetes.api.model.PersistentVolume;
import io.fabric8.kubernetes.api.model.PersistentVolumeBuilder;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaim;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaimBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.storage.StorageClass;
import java.util.Map;
import java.util.Objects;
import java.util.UUID;
import java.util.function.Function;
import java.util.function.LongSupplier;

/**
 * Stands in for kube-controller-manager's PV controller and a dynamic provisioner in the embedded
 * cluster, so a pod whose claims VolumeBinding binds in PreBind gets them bound: a volume written
 * with a claim reference is bound to that claim (volume phase Bound; claim gets {@code
 * spec.volumeName}, the bind-completed annotation and phase Bound), or given back when the claim is
 * bound elsewhere; a claim written with the selected-node annotation, no volume and a class with a
 * real provisioner gets a new volume ({@code pvc-<claim uid>}) pinned by node affinity to that
 * node's {@code kubernetes.io/hostname} label, or loses the annotation when the node is unknown
 * (provisioning failed). Reacts synchronously to each write; never touches what it was not asked
 * about. Callers serialize the calls.
 */
final class EmbeddedVolumeController {

  static final String ANN_BIND_COMPLETED = "pv.kubernetes.io/bind-completed";
  static final String ANN_BOUND_BY_CONTROLLER = "pv.kubernetes.io/bound-by-controller";
  static final String ANN_SELECTED_NODE = "volume.kubernetes.io/selected-node";
  static final String ANN_PROVISIONED_BY = "pv.kubernetes.io/provisioned-by";
  static final String NO_PROVISIONER = "kubernetes.io/no-provisioner";
  static final String HOSTNAME = "kubernetes.io/hostname";
  private static final String BOUND = "Bound";

  private final ObjectStore store;
  private final LongSupplier nextVersion;
  private final Function<String, Map<String, String>> nodeLabels;

  /**
   * A controller writing to {@code store}, stamping each change with {@code nextVersion}, and
   * reading the labels of a node by name ({@code nodeLabels} returns null for an unknown node).
   */
  EmbeddedVolumeController(
      ObjectStore store,
      LongSupplier nextVersion,
      Function<String, Map<String, String>> nodeLabels) {
    this.store = store;
    this.nextVersion = nextVersion;
    this.nodeLabels = nodeLabels;
  }

  /** Reacts to a volume write: binds a volume that names a claim and is not bound yet. */
  void volumeWritten(PersistentVolume pv) {
    ObjectReference ref = pv.getSpec() == null ? null : pv.getSpec().getClaimRef();
    if (ref == null || pv.getStatus() != null && BOUND.equals(pv.getStatus().getPhase())) {
      return;
    }
    PersistentVolumeClaim claim =
        store.get(PersistentVolumeClaim.class, str(ref.getNamespace()), ref.getName());
    if (claim == null
        || !str(ref.getUid()).isEmpty() && !ref.getUid().equals(claim.getMetadata().getUid())) {
      return;
    }
    String boundTo = claim.getSpec() == null ? "" : str(claim.getSpec().getVolumeName());
    if (!boundTo.isEmpty() && !boundTo.equals(pv.getMetadata().getName())) {
      unbind(pv);
      return;
    }
    store.put(
        new PersistentVolumeBuilder(pv)
            .editMetadata()
            .withResourceVersion(next())
            .endMetadata()
            .editOrNewStatus()
            .withPhase(BOUND)
            .endStatus()
            .build());
    PersistentVolumeClaimBuilder b =
        new PersistentVolumeClaimBuilder(claim)
            .editMetadata()
            .withResourceVersion(next())
            .addToAnnotations(ANN_BIND_COMPLETED, "yes")
            .endMetadata()
            .editOrNewSpec()
            .withVolumeName(pv.getMetadata().getName())
            .endSpec()
            .editOrNewStatus()
            .withPhase(BOUND)
            .withAccessModes(pv.getSpec().getAccessModes())
            .withCapacity(pv.getSpec().getCapacity())
            .endStatus();
    if (boundTo.isEmpty()) {
      b.editMetadata().addToAnnotations(ANN_BOUND_BY_CONTROLLER, "yes").endMetadata();
    }
    store.put(b.build());
  }

  /**
   * Reacts to a claim write: provisions a volume for a claim with a selected node and a
   * provisioner.
   */
  void claimWritten(PersistentVolumeClaim claim) {
    Map<String, String> ann = claim.getMetadata().getAnnotations();
    String node = ann == null ? null : ann.get(ANN_SELECTED_NODE);
    String className = claim.getSpec() == null ? null : claim.getSpec().getStorageClassName();
    if (node == null
        || className == null
        || claim.getSpec().getVolumeName() != null && !claim.getSpec().getVolumeName().isEmpty()) {
      return;
    }
    StorageClass sc = store.get(StorageClass.class, "", className);
    if (sc == null
        || sc.getProvisioner() == null
        || sc.getProvisioner().isEmpty()
        || NO_PROVISIONER.equals(sc.getProvisioner())) {
      return;
    }
    Map<String, String> labels = nodeLabels.apply(node);
    if (labels == null) {
      store.put(
          new PersistentVolumeClaimBuilder(claim)
              .editMetadata()
              .withResourceVersion(next())
              .removeFromAnnotations(ANN_SELECTED_NODE)
              .endMetadata()
              .build());
      return;
    }
    String hostname = labels.getOrDefault(HOSTNAME, node);
    Map<String, Quantity> requests =
        claim.getSpec().getResources() == null
            ? null
            : claim.getSpec().getResources().getRequests();
    Quantity size = requests == null ? null : requests.get("storage");
    PersistentVolume pv =
        new PersistentVolumeBuilder()
            .withNewMetadata()
            .withName("pvc-" + claim.getMetadata().getUid())
            .withUid(UUID.randomUUID().toString())
            .withResourceVersion(next())
            .addToAnnotations(ANN_PROVISIONED_BY, sc.getProvisioner())
            .addToAnnotations(ANN_BOUND_BY_CONTROLLER, "yes")
            .endMetadata()
            .withNewSpec()
            .withStorageClassName(className)
            .withAccessModes(claim.getSpec().getAccessModes())
            .withVolumeMode(claim.getSpec().getVolumeMode())
            .withPersistentVolumeReclaimPolicy(
                Objects.requireNonNullElse(sc.getReclaimPolicy(), "Delete"))
            .withClaimRef(claimRef(claim))
            .withNewNodeAffinity()
            .withNewRequired()
            .withNodeSelectorTerms(
                new NodeSelectorTermBuilder()
                    .withMatchExpressions(
                        new NodeSelectorRequirementBuilder()
                            .withKey(HOSTNAME)
                            .withOperator("In")
                            .withValues(hostname)
                            .build())
                    .build())
            .endRequired()
            .endNodeAffinity()
            .endSpec()
            .withNewStatus()
            .withPhase("Available")
            .endStatus()
            .build();
    if (size != null) {
      pv.getSpec().setCapacity(Map.of("storage", size));
    }
    store.put(pv);
    volumeWritten(pv);
  }

  /**
   * The PV controller's unbindVolume: a volume it bound loses the claim, one pre-bound by a user
   * the claim UID.
   */
  private void unbind(PersistentVolume pv) {
    PersistentVolumeBuilder b =
        new PersistentVolumeBuilder(pv)
            .editMetadata()
            .withResourceVersion(next())
            .endMetadata()
            .editOrNewStatus()
            .withPhase("Available")
            .endStatus();
    Map<String, String> ann = pv.getMetadata().getAnnotations();
    if (ann != null && ann.containsKey(ANN_BOUND_BY_CONTROLLER)) {
      b.editSpec()
          .withClaimRef(null)
          .endSpec()
          .editMetadata()
          .removeFromAnnotations(ANN_BOUND_BY_CONTROLLER)
          .endMetadata();
    } else {
      b.editSpec().editClaimRef().withUid(null).endClaimRef().endSpec();
    }
    store.put(b.build());
  }

  private static ObjectReference claimRef(PersistentVolumeClaim claim) {
    return new ObjectReferenceBuilder()
        .withKind("PersistentVolumeClaim")
        .withApiVersion("v1")
        .withNamespace(claim.getMetadata().getNamespace())
        .withName(claim.getMetadata().getName())
        .withUid(claim.getMetadata().getUid())
        .withResourceVersion(claim.getMetadata().getResourceVersion())
        .build();
  }

  private String next() {
    return Long.toString(nextVersion.getAsLong());
  }

  private static String str(String s) {
    return s == null ? "" : s;
  }
}
