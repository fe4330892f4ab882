package io.schedext.plugins.volumebinding;

import io.fabric8.kubernetes.api.model.PersistentVolumeClaim;
import java.util.List;
import java.util.Map;

/**
 * A pod's classified claims compiled for the per-node checks of one cycle. Immutable and
 * thread-safe.
 *
 * @param claims the classification the binding side reuses
 * @param bound the bound claims with their volume (null when it does not exist), in volume order
 * @param delayed the unbound WaitForFirstConsumer claims, in volume order
 * @param volumesByClass the candidate volumes of each class a delayed claim asks for
 * @param classes the provisioning view of each class a delayed claim asks for
 */
public record PreparedClaims(
    PodVolumeClaims claims,
    List<BoundClaim> bound,
    List<ClaimRequest> delayed,
    Map<String, List<CandidateVolume>> volumesByClass,
    Map<String, ProvisioningClass> classes) {

  /**
   * A bound claim and its volume.
   *
   * @param pvc the claim
   * @param volume the volume it is bound to, or null when that volume does not exist
   */
  public record BoundClaim(PersistentVolumeClaim pvc, CandidateVolume volume) {}
}
