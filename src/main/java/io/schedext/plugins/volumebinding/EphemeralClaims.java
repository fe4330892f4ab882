package io.schedext.plugins.volumebinding;

import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaim;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Volume;
import java.util.Objects;

/**
 * Generic ephemeral volumes, as component-helpers' {@code storage/ephemeral}: the claim is named
 * {@code <pod>-<volume>} and must be controlled by the pod. Stateless and thread-safe.
 */
public final class EphemeralClaims {

  private EphemeralClaims() {}

  /** The name of the claim backing ephemeral volume {@code v} of {@code pod}. */
  public static String claimName(Pod pod, Volume v) {
    return pod.getMetadata().getName() + "-" + v.getName();
  }

  /**
   * Null when {@code pvc} was created for {@code pod} (same namespace, pod is its controller), else
   * the reason.
   */
  public static String notOwnedReason(Pod pod, PersistentVolumeClaim pvc) {
    String podNs = pod.getMetadata().getNamespace();
    String pvcNs = pvc.getMetadata().getNamespace();
    if (Objects.equals(nullToEmpty(podNs), nullToEmpty(pvcNs)) && isControlledBy(pvc, pod)) {
      return null;
    }
    return "PVC "
        + nullToEmpty(pvcNs)
        + "/"
        + pvc.getMetadata().getName()
        + " was not created for pod "
        + nullToEmpty(podNs)
        + "/"
        + pod.getMetadata().getName()
        + " (pod is not owner)";
  }

  private static boolean isControlledBy(PersistentVolumeClaim pvc, Pod pod) {
    if (pvc.getMetadata().getOwnerReferences() == null) {
      return false;
    }
    for (OwnerReference ref : pvc.getMetadata().getOwnerReferences()) {
      if (Boolean.TRUE.equals(ref.getController())) {
        return Objects.equals(nullToEmpty(ref.getUid()), nullToEmpty(pod.getMetadata().getUid()));
      }
    }
    return false;
  }

  private static String nullToEmpty(String s) {
    return s == null ? "" : s;
  }
}
