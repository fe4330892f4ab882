package io.schedext.plugins.volumebinding;

import io.fabric8.kubernetes.api.model.PersistentVolumeClaim;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaimSpec;
import io.fabric8.kubernetes.api.model.Quantity;
import io.schedext.kube.LabelSelectors;
import io.schedext.kube.Quantities;
import io.schedext.kube.Selector;
import java.math.BigDecimal;
import java.util.List;
import java.util.Map;

/**
 * An unbound claim with what matching and provisioning read pre-computed once per cycle. Immutable
 * and thread-safe.
 *
 * @param pvc the claim object (read-only)
 * @param namespace the claim's namespace
 * @param name the claim's name
 * @param uid the claim's uid ("" when unset)
 * @param storageRequest the requested storage, or null when the claim requests none
 * @param request the requested storage as a number (0 when none)
 * @param volumeMode the volume mode, Filesystem when unset
 * @param attributesClass the volume attributes class name, "" when unset
 * @param className the storage class name (beta annotation first)
 * @param accessModes the requested access modes
 * @param selector the compiled volume selector, or null when the claim has none
 * @param selectorError why the selector did not compile, or null
 * @param selectedNode the {@code volume.kubernetes.io/selected-node} annotation, or null when
 *     absent
 */
public record ClaimRequest(
    PersistentVolumeClaim pvc,
    String namespace,
    String name,
    String uid,
    Quantity storageRequest,
    BigDecimal request,
    String volumeMode,
    String attributesClass,
    String className,
    List<String> accessModes,
    Selector selector,
    String selectorError,
    String selectedNode) {

  /** The annotation the scheduler sets on a claim to have it provisioned for a node. */
  public static final String ANN_SELECTED_NODE = "volume.kubernetes.io/selected-node";

  /**
   * Pre-computes {@code pvc}; throws {@link IllegalArgumentException} for a malformed storage
   * request.
   */
  public static ClaimRequest of(PersistentVolumeClaim pvc) {
    PersistentVolumeClaimSpec spec =
        pvc.getSpec() == null ? new PersistentVolumeClaimSpec() : pvc.getSpec();
    Map<String, Quantity> requests =
        spec.getResources() == null ? null : spec.getResources().getRequests();
    Quantity storage = requests == null ? null : requests.get(CandidateVolume.STORAGE);
    Selector selector = null;
    String selectorError = null;
    if (spec.getSelector() != null) {
      try {
        selector = LabelSelectors.compile(spec.getSelector());
      } catch (IllegalArgumentException e) {
        selectorError = e.getMessage();
      }
    }
    Map<String, String> ann = pvc.getMetadata().getAnnotations();
    String ns = pvc.getMetadata().getNamespace();
    return new ClaimRequest(
        pvc,
        ns == null ? "" : ns,
        pvc.getMetadata().getName(),
        pvc.getMetadata().getUid() == null ? "" : pvc.getMetadata().getUid(),
        storage,
        storage == null ? BigDecimal.ZERO : Quantities.decimal(storage),
        spec.getVolumeMode() == null ? CandidateVolume.FILESYSTEM : spec.getVolumeMode(),
        spec.getVolumeAttributesClassName() == null ? "" : spec.getVolumeAttributesClassName(),
        StorageClassNames.ofClaim(pvc),
        spec.getAccessModes() == null ? List.of() : spec.getAccessModes(),
        selector,
        selectorError,
        ann == null || !ann.containsKey(ANN_SELECTED_NODE)
            ? null
            : nullToEmpty(ann.get(ANN_SELECTED_NODE)));
  }

  /** {@code namespace/name}. */
  public String key() {
    return namespace + "/" + name;
  }

  private static String nullToEmpty(String s) {
    return s == null ? "" : s;
  }
}
