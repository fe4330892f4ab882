package io.schedext.plugins.dynamicresources;

import io.fabric8.kubernetes.api.model.resource.v1.AllocationResult;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaimBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaimConsumerReference;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaimStatus;
import io.schedext.framework.FrameworkException;
import io.schedext.framework.PodInfo;
import io.schedext.framework.ResourceClaimTracker;
import io.schedext.framework.ResourceClaimWriter;
import java.util.ArrayList;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * DynamicResources' API writes (upstream's {@code bindClaim} and Unreserve): the allocation and
 * reservation PreBind records in each claim, retried after a conflict on a fresh read, and the
 * reservation Unreserve takes back. Thread-safe.
 */
final class ClaimBinding {

  private static final Logger log = LoggerFactory.getLogger(ClaimBinding.class);

  /** Attempts of one write, as client-go's {@code retry.DefaultRetry} (5 steps). */
  static final int ATTEMPTS = 5;

  private final ResourceClaimWriter writer;
  private final ResourceClaimTracker claims;

  ClaimBinding(ResourceClaimWriter writer, ResourceClaimTracker claims) {
    this.writer = writer;
    this.claims = claims;
  }

  /**
   * Reserves every claim of {@code s} for the pod that is not reserved for it yet, writing the
   * allocation Reserve took where there is one; throws {@link FrameworkException} with upstream's
   * message on the first failure. The state's claims become what the API server returned.
   */
  void bind(DynamicResourcesState s, PodInfo pod) {
    PodClaims.PodRef ref = new PodClaims.PodRef(pod.name(), pod.uid());
    for (int i = 0; i < s.size(); i++) {
      if (!PodClaims.isReservedForPod(ref, s.claim(i))) {
        s.setClaim(i, bindClaim(s.claim(i), s.allocation(i), ref));
      }
    }
  }

  private ResourceClaim bindClaim(
      ResourceClaim claim, AllocationResult allocation, PodClaims.PodRef pod) {
    String uid = claim.getMetadata().getUid();
    ResourceClaim written = null;
    try {
      written = write(claim, allocation, pod);
      return written;
    } finally {
      if (allocation != null) {
        // Assumed before it stops being in flight: a cycle starting in between sees the devices
        // taken either way.
        if (written != null) {
          claims.assumeClaimAfterApiCall(written);
        }
        claims.removeClaimPendingAllocation(uid);
      }
    }
  }

  private ResourceClaim write(
      ResourceClaim cached, AllocationResult allocation, PodClaims.PodRef pod) {
    ResourceClaim claim = new ResourceClaimBuilder(cached).build();
    String ref = Allocator.claimRef(claim);
    FrameworkException last = null;
    for (int attempt = 0; attempt < ATTEMPTS; attempt++) {
      if (attempt > 0) {
        claim = writer.get(claim.getMetadata().getNamespace(), claim.getMetadata().getName());
      }
      if (claim.getMetadata().getDeletionTimestamp() != null) {
        throw new FrameworkException("claim " + ref + " got deleted in the meantime");
      }
      if (allocation != null) {
        if (PodClaims.allocated(claim)) {
          if (PodClaims.isReservedForPod(pod, claim)) {
            // kube-scheduler's own DynamicResources allocated and reserved it for this pod
            // before asking the extender to bind: that allocation stands.
            return claim;
          }
          throw new FrameworkException("claim " + ref + " got allocated elsewhere in the meantime");
        }
        List<String> finalizers =
            claim.getMetadata().getFinalizers() == null
                ? new ArrayList<>()
                : new ArrayList<>(claim.getMetadata().getFinalizers());
        if (!finalizers.contains(DynamicResources.FINALIZER)) {
          finalizers.add(DynamicResources.FINALIZER);
          claim.getMetadata().setFinalizers(finalizers);
          try {
            claim = writer.update(claim);
          } catch (ResourceClaimWriter.Conflict e) {
            last =
                new FrameworkException("add finalizer to claim " + ref + ": " + e.getMessage(), e);
            continue;
          } catch (FrameworkException e) {
            throw new FrameworkException(
                "add finalizer to claim " + ref + ": " + e.getMessage(), e);
          }
          claim = new ResourceClaimBuilder(claim).build();
        }
        if (claim.getStatus() == null) {
          claim.setStatus(new ResourceClaimStatus());
        }
        claim.getStatus().setAllocation(allocation);
      } else if (claim.getStatus() == null) {
        claim.setStatus(new ResourceClaimStatus());
      }
      List<ResourceClaimConsumerReference> reserved =
          claim.getStatus().getReservedFor() == null
              ? new ArrayList<>()
              : new ArrayList<>(claim.getStatus().getReservedFor());
      ResourceClaimConsumerReference me = new ResourceClaimConsumerReference();
      me.setResource("pods");
      me.setName(pod.name());
      me.setUid(pod.uid());
      reserved.add(me);
      claim.getStatus().setReservedFor(reserved);
      String what =
          allocation != null
              ? "add allocation and reservation to claim " + ref
              : "add reservation to claim " + ref;
      try {
        return writer.updateStatus(claim);
      } catch (ResourceClaimWriter.Conflict e) {
        last = new FrameworkException(what + ": " + e.getMessage(), e);
      } catch (FrameworkException e) {
        throw new FrameworkException(what + ": " + e.getMessage(), e);
      }
    }
    throw last;
  }

  /**
   * Upstream's Unreserve: every claim still in flight stops being so (and loses a version PreBind
   * may have assumed); a claim reserved for the pod gets the reservation removed by a patch, whose
   * failure is only logged (the next attempt tries again).
   */
  void unreserve(DynamicResourcesState s, PodInfo pod) {
    PodClaims.PodRef ref = new PodClaims.PodRef(pod.name(), pod.uid());
    for (int i = 0; i < s.size(); i++) {
      ResourceClaim c = s.claim(i);
      if (claims.removeClaimPendingAllocation(c.getMetadata().getUid())) {
        claims.assumedClaimRestore(c.getMetadata().getNamespace(), c.getMetadata().getName());
      }
      if (PodClaims.allocated(c) && PodClaims.isReservedForPod(ref, c)) {
        try {
          writer.removeReservation(c, pod.uid());
        } catch (FrameworkException e) {
          log.warn(
              "unreserve of resource claim {} for pod {} failed: {}",
              Allocator.claimRef(c),
              pod.key(),
              e.getMessage());
        }
      }
    }
  }
}
