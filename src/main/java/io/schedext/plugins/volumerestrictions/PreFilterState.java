package io.schedext.plugins.volumerestrictions;

import io.fabric8.kubernetes.api.model.Volume;
import io.schedext.framework.PodInfo;
import io.schedext.framework.StateData;
import java.util.Set;

/**
 * What PreFilter found: the names of the pod's ReadWriteOncePod claims and how many references to
 * those claims scheduled pods hold. Only the count changes (AddPod/RemovePod, on a copy).
 */
final class PreFilterState implements StateData {

  private final Set<String> readWriteOncePodClaims;
  private int conflictingClaimRefs;

  PreFilterState(Set<String> readWriteOncePodClaims, int conflictingClaimRefs) {
    this.readWriteOncePodClaims = readWriteOncePodClaims;
    this.conflictingClaimRefs = conflictingClaimRefs;
  }

  int conflictingClaimRefs() {
    return conflictingClaimRefs;
  }

  /**
   * Adds {@code sign} for each PVC volume of {@code other} naming one of the ReadWriteOncePod
   * claims.
   */
  void update(PodInfo other, int sign) {
    if (readWriteOncePodClaims.isEmpty()) {
      return;
    }
    // Upstream compares claim names only, not namespaces.
    for (Volume v : VolumeRestrictions.volumes(other)) {
      if (v.getPersistentVolumeClaim() != null
          && readWriteOncePodClaims.contains(v.getPersistentVolumeClaim().getClaimName())) {
        conflictingClaimRefs += sign;
      }
    }
  }

  @Override
  public StateData copy() {
    return new PreFilterState(readWriteOncePodClaims, conflictingClaimRefs);
  }
}
