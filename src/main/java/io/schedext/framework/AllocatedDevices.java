package io.schedext.framework;

import io.fabric8.kubernetes.api.model.resource.v1.DeviceRequestAllocationResult;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import java.util.ArrayList;
import java.util.List;

/**
 * The devices allocated to ResourceClaims exclusively (an allocation with admin access does not
 * take its device), as the cluster source last saw the claims, and the revision of that state: it
 * grows with every change, so a reader can tell whether what it read is still current. Immutable.
 *
 * @param devices the allocated devices
 * @param revision the state's revision
 */
public record AllocatedDevices(TakenDevices devices, long revision) {

  /**
   * The devices {@code claim}'s allocation takes for itself, in its order: every result but those
   * with admin access (upstream's {@code foreachAllocatedDevice}); empty when it is not allocated.
   */
  public static List<DeviceId> takenBy(ResourceClaim claim) {
    if (claim == null
        || claim.getStatus() == null
        || claim.getStatus().getAllocation() == null
        || claim.getStatus().getAllocation().getDevices() == null
        || claim.getStatus().getAllocation().getDevices().getResults() == null) {
      return List.of();
    }
    List<DeviceRequestAllocationResult> results =
        claim.getStatus().getAllocation().getDevices().getResults();
    List<DeviceId> out = new ArrayList<>(results.size());
    for (DeviceRequestAllocationResult r : results) {
      if (Boolean.TRUE.equals(r.getAdminAccess())) {
        continue;
      }
      out.add(new DeviceId(r.getDriver(), r.getPool(), r.getDevice()));
    }
    return out;
  }
}
