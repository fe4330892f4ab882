package io.schedext.plugins.volumebinding;

import io.fabric8.kubernetes.api.model.ObjectReference;
import io.fabric8.kubernetes.api.model.PersistentVolume;
import io.fabric8.kubernetes.api.model.PersistentVolumeSpec;
import io.fabric8.kubernetes.api.model.Quantity;
import io.schedext.kube.NodeSelectorTerms;
import io.schedext.kube.Quantities;
import java.math.BigDecimal;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A PersistentVolume with what matching reads pre-computed once per cycle: capacity, volume mode,
 * attributes class, storage class, phase, access modes and compiled node affinity. Immutable and
 * thread-safe.
 *
 * @param pv the volume object (read-only)
 * @param name the volume name
 * @param capacity the storage capacity (0 when unset)
 * @param volumeMode the volume mode, Filesystem when unset
 * @param attributesClass the volume attributes class name, "" when unset
 * @param className the storage class name (beta annotation first)
 * @param phase the status phase, "" when unset
 * @param deleting true when the volume has a deletion timestamp
 * @param labels the volume labels (never null)
 * @param accessModes the access modes
 * @param claimRef the claim the volume is (pre-)bound to, or null
 * @param nodeAffinity the compiled required node affinity, or null when the volume has none (fits
 *     every node)
 */
public record CandidateVolume(
    PersistentVolume pv,
    String name,
    BigDecimal capacity,
    String volumeMode,
    String attributesClass,
    String className,
    String phase,
    boolean deleting,
    Map<String, String> labels,
    Set<String> accessModes,
    ObjectReference claimRef,
    NodeSelectorTerms nodeAffinity) {

  static final String FILESYSTEM = "Filesystem";
  static final String STORAGE = "storage";

  /** Pre-computes {@code pv}; throws {@link IllegalArgumentException} for a malformed capacity. */
  public static CandidateVolume of(PersistentVolume pv) {
    PersistentVolumeSpec spec = pv.getSpec() == null ? new PersistentVolumeSpec() : pv.getSpec();
    Map<String, Quantity> cap = spec.getCapacity();
    NodeSelectorTerms affinity = null;
    if (spec.getNodeAffinity() != null && spec.getNodeAffinity().getRequired() != null) {
      affinity = NodeSelectorTerms.compile(spec.getNodeAffinity().getRequired());
    }
    Map<String, String> labels = pv.getMetadata().getLabels();
    List<String> modes = spec.getAccessModes();
    return new CandidateVolume(
        pv,
        pv.getMetadata().getName(),
        cap == null ? BigDecimal.ZERO : Quantities.decimal(cap.get(STORAGE)),
        spec.getVolumeMode() == null ? FILESYSTEM : spec.getVolumeMode(),
        spec.getVolumeAttributesClassName() == null ? "" : spec.getVolumeAttributesClassName(),
        StorageClassNames.ofVolume(pv),
        pv.getStatus() == null || pv.getStatus().getPhase() == null
            ? ""
            : pv.getStatus().getPhase(),
        pv.getMetadata().getDeletionTimestamp() != null,
        labels == null ? Map.of() : labels,
        modes == null ? Set.of() : Set.copyOf(modes),
        spec.getClaimRef(),
        affinity);
  }

  /**
   * Whether the volume's required node affinity admits a node with these labels, as
   * component-helpers' {@code CheckNodeAffinity} (which builds a node from the labels only, so
   * {@code matchFields} are not applied).
   */
  public boolean fitsNode(Map<String, String> nodeLabels) {
    return nodeAffinity == null || nodeAffinity.matches("", nodeLabels);
  }
}
