package io.schedext.plugins.dynamicresources;

import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodResourceClaim;
import io.fabric8.kubernetes.api.model.PodResourceClaimStatus;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaimConsumerReference;
import io.schedext.framework.ResourceClaimTracker;
import java.util.ArrayList;
import java.util.List;

/**
 * A pod's ResourceClaims (upstream's {@code foreachPodResourceClaim} with the {@code resourceclaim}
 * helpers): each entry of {@code spec.resourceClaims} names its claim directly, or through a
 * template whose generated claim {@code status.resourceClaimStatuses} names (then the pod must own
 * it); every claim must exist and not be being deleted. Stateless.
 */
final class PodClaims {

  private PodClaims() {}

  /** Why the pod's claims cannot be used yet; the message is upstream's reason. */
  static final class Unusable extends Exception {
    Unusable(String message) {
      super(message, null, false, false);
    }
  }

  /** The pod's claims in {@code spec.resourceClaims} order, as {@code tracker} has them. */
  static List<ResourceClaim> of(Pod pod, ResourceClaimTracker tracker) throws Unusable {
    var spec = pod.getSpec();
    if (spec == null || spec.getResourceClaims() == null || spec.getResourceClaims().isEmpty()) {
      return List.of();
    }
    String ns = pod.getMetadata().getNamespace();
    String podKey = ns + "/" + pod.getMetadata().getName();
    List<ResourceClaim> out = new ArrayList<>(spec.getResourceClaims().size());
    for (PodResourceClaim pc : spec.getResourceClaims()) {
      String name;
      boolean mustCheckOwner;
      if (pc.getResourceClaimName() != null) {
        name = pc.getResourceClaimName();
        mustCheckOwner = false;
      } else if (pc.getResourceClaimTemplateName() != null) {
        PodResourceClaimStatus st = generated(pod, pc.getName());
        if (st == null) {
          throw new Unusable("pod \"" + podKey + "\": ResourceClaim not created yet");
        }
        name = st.getResourceClaimName();
        mustCheckOwner = true;
      } else {
        throw new Unusable(
            "pod \""
                + podKey
                + "\", spec.resourceClaim \""
                + pc.getName()
                + "\": none of the supported fields are set");
      }
      if (name == null) {
        // No claim was needed for this entry.
        continue;
      }
      ResourceClaim claim = tracker.get(ns, name);
      if (claim == null) {
        throw new Unusable("could not find ResourceClaim \"" + ns + "/" + name + "\"");
      }
      if (claim.getMetadata().getDeletionTimestamp() != null) {
        throw new Unusable("resourceclaim \"" + name + "\" is being deleted");
      }
      if (mustCheckOwner && !isForPod(pod, claim)) {
        throw new Unusable(
            "ResourceClaim "
                + claim.getMetadata().getNamespace()
                + "/"
                + name
                + " was not created for pod "
                + podKey
                + " (pod is not owner)");
      }
      out.add(claim);
    }
    return out;
  }

  private static PodResourceClaimStatus generated(Pod pod, String entry) {
    if (pod.getStatus() == null || pod.getStatus().getResourceClaimStatuses() == null) {
      return null;
    }
    for (PodResourceClaimStatus s : pod.getStatus().getResourceClaimStatuses()) {
      if (entry.equals(s.getName())) {
        return s;
      }
    }
    return null;
  }

  /** Whether the pod controls the claim (it was generated for the pod). */
  static boolean isForPod(Pod pod, ResourceClaim claim) {
    if (!pod.getMetadata().getNamespace().equals(claim.getMetadata().getNamespace())) {
      return false;
    }
    List<OwnerReference> owners = claim.getMetadata().getOwnerReferences();
    if (owners == null) {
      return false;
    }
    for (OwnerReference o : owners) {
      if (Boolean.TRUE.equals(o.getController())) {
        return pod.getMetadata().getUid() != null && pod.getMetadata().getUid().equals(o.getUid());
      }
    }
    return false;
  }

  /** Whether the claim's status reserves it for the pod. */
  static boolean isReservedForPod(PodRef pod, ResourceClaim claim) {
    if (claim.getStatus() == null || claim.getStatus().getReservedFor() == null) {
      return false;
    }
    for (ResourceClaimConsumerReference r : claim.getStatus().getReservedFor()) {
      if (pod.uid().equals(r.getUid())) {
        return true;
      }
    }
    return false;
  }

  /** Whether the claim has an allocation. */
  static boolean allocated(ResourceClaim claim) {
    return claim.getStatus() != null && claim.getStatus().getAllocation() != null;
  }

  /**
   * The pod as a claim's reservation names it.
   *
   * @param name its name
   * @param uid its UID
   */
  record PodRef(String name, String uid) {}
}
