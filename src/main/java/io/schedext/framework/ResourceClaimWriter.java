package io.schedext.framework;

import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;

/**
 * The API calls DynamicResources makes on ResourceClaims (upstream's {@code clientset} there): a
 * fresh read after a conflict, the update that adds the finalizer, the status update that records
 * the allocation and the reservation, and the patch that takes a pod's reservation back.
 * Implementations are thread-safe and bound every call by a timeout. A refused or failed call
 * throws {@link FrameworkException} with the API server's message; a write refused because the
 * claim changed since it was read throws {@link Conflict}.
 */
public interface ResourceClaimWriter {

  /** A writer for frameworks without a cluster: every call fails. */
  ResourceClaimWriter NONE =
      new ResourceClaimWriter() {
        @Override
        public ResourceClaim get(String namespace, String name) {
          throw new FrameworkException("resource claim writes are not available here");
        }

        @Override
        public ResourceClaim update(ResourceClaim claim) {
          throw new FrameworkException("resource claim writes are not available here");
        }

        @Override
        public ResourceClaim updateStatus(ResourceClaim claim) {
          throw new FrameworkException("resource claim writes are not available here");
        }

        @Override
        public ResourceClaim removeReservation(ResourceClaim claim, String podUid) {
          throw new FrameworkException("resource claim writes are not available here");
        }
      };

  /** The claim {@code namespace/name} as the API server has it now; {@link NotFound} if gone. */
  ResourceClaim get(String namespace, String name);

  /**
   * Replaces the claim's object (not its status) with optimistic concurrency on its resource
   * version, returning what was stored.
   */
  ResourceClaim update(ResourceClaim claim);

  /** Replaces the claim's status like {@link #update}, returning what was stored. */
  ResourceClaim updateStatus(ResourceClaim claim);

  /**
   * Removes the reservation of pod {@code podUid} from the claim's status with a strategic merge
   * patch (guarded by the claim's UID, not its resource version), returning what was stored.
   */
  ResourceClaim removeReservation(ResourceClaim claim, String podUid);

  /** The write was refused because the claim changed since it was read (HTTP 409). */
  final class Conflict extends FrameworkException {

    /** A conflict with the API server's message. */
    public Conflict(String message, Throwable cause) {
      super(message, cause);
    }
  }

  /** The claim does not exist (HTTP 404). */
  final class NotFound extends FrameworkException {

    /** A missing claim with the API server's message. */
    public NotFound(String message, Throwable cause) {
      super(message, cause);
    }
  }
}
