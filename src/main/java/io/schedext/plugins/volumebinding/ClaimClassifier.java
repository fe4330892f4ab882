package io.schedext.plugins.volumebinding;

import io.fabric8.kubernetes.api.model.PersistentVolume;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaim;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Volume;
import io.fabric8.kubernetes.api.model.storage.StorageClass;
import io.schedext.framework.ClusterObjects;
import io.schedext.framework.FrameworkException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * VolumeBinding's PreFilter work: finds what is wrong with a pod's claims (upstream's {@code
 * podHasPVCs}), sorts them into bound, delayed and immediate ({@code GetPodVolumeClaims}) and
 * compiles what the per-node checks read. Thread-safe.
 */
final class ClaimClassifier {

  static final String ANN_BIND_COMPLETED = "pv.kubernetes.io/bind-completed";
  private static final String WAIT_FOR_FIRST_CONSUMER = "WaitForFirstConsumer";
  private static final String CLAIM_LOST = "Lost";

  private final VolumeLister lister;
  private final ClusterObjects objects;

  ClaimClassifier(VolumeLister lister, ClusterObjects objects) {
    this.lister = lister;
    this.objects = objects;
  }

  /**
   * Whether the pod uses claims, and the first unresolvable problem with them.
   *
   * @param hasClaims true when the pod has a PVC or generic ephemeral volume
   * @param problem the reason to reject the pod with, or null
   */
  record Check(boolean hasClaims, String problem) {}

  /**
   * Checks in volume order that each claim exists, is not lost or being deleted, and ephemeral ones
   * are the pod's, on the cluster objects.
   */
  Check check(Pod pod) {
    boolean hasClaims = false;
    for (Volume v : volumes(pod)) {
      String name;
      boolean ephemeral = false;
      if (v.getPersistentVolumeClaim() != null) {
        name = v.getPersistentVolumeClaim().getClaimName();
      } else if (v.getEphemeral() != null) {
        name = EphemeralClaims.claimName(pod, v);
        ephemeral = true;
      } else {
        continue;
      }
      hasClaims = true;
      // Upstream's podHasPVCs asks the informer's lister, not the assume cache.
      PersistentVolumeClaim pvc = objects.persistentVolumeClaim(namespace(pod), name);
      if (pvc == null) {
        return new Check(
            true,
            ephemeral
                ? "waiting for ephemeral volume controller to create the persistentvolumeclaim \""
                    + name
                    + "\""
                : NotFound.claim(name));
      }
      if (pvc.getStatus() != null && CLAIM_LOST.equals(pvc.getStatus().getPhase())) {
        return new Check(
            true,
            "persistentvolumeclaim \""
                + name
                + "\" bound to non-existent persistentvolume \""
                + nullToEmpty(pvc.getSpec() == null ? null : pvc.getSpec().getVolumeName())
                + "\"");
      }
      if (pvc.getMetadata().getDeletionTimestamp() != null) {
        return new Check(true, "persistentvolumeclaim \"" + name + "\" is being deleted");
      }
      if (ephemeral) {
        String notOwned = EphemeralClaims.notOwnedReason(pod, pvc);
        if (notOwned != null) {
          return new Check(true, notOwned);
        }
      }
    }
    return new Check(hasClaims, null);
  }

  /**
   * Sorts the pod's claims; throws {@link FrameworkException} when a claim is missing or a class
   * has no binding mode.
   */
  PodVolumeClaims classify(Pod pod) {
    List<PersistentVolumeClaim> bound = new ArrayList<>();
    List<PersistentVolumeClaim> delayed = new ArrayList<>();
    List<PersistentVolumeClaim> immediate = new ArrayList<>();
    for (Volume v : volumes(pod)) {
      String name;
      if (v.getPersistentVolumeClaim() != null) {
        name = v.getPersistentVolumeClaim().getClaimName();
      } else if (v.getEphemeral() != null) {
        name = EphemeralClaims.claimName(pod, v);
      } else {
        continue;
      }
      PersistentVolumeClaim pvc = lister.claim(namespace(pod), name);
      if (pvc == null) {
        throw new FrameworkException(
            "error getting PVC \"" + namespace(pod) + "/" + name + "\": not found");
      }
      if (isFullyBound(pvc)) {
        bound.add(pvc);
      } else if (isDelayBindingMode(pvc) && volumeName(pvc).isEmpty()) {
        delayed.add(pvc);
      } else {
        immediate.add(pvc);
      }
    }
    Map<String, List<PersistentVolume>> byClass = new LinkedHashMap<>();
    for (PersistentVolumeClaim pvc : delayed) {
      String className = StorageClassNames.ofClaim(pvc);
      byClass.computeIfAbsent(className, lister::volumesOfClass);
    }
    return new PodVolumeClaims(
        List.copyOf(bound), List.copyOf(delayed), List.copyOf(immediate), byClass);
  }

  /**
   * Compiles the bound claims' volumes, the delayed claims, their candidate volumes and classes.
   */
  PreparedClaims prepare(PodVolumeClaims claims) {
    List<PreparedClaims.BoundClaim> bound = new ArrayList<>(claims.bound().size());
    for (PersistentVolumeClaim pvc : claims.bound()) {
      PersistentVolume pv = lister.volume(volumeName(pvc));
      bound.add(new PreparedClaims.BoundClaim(pvc, pv == null ? null : CandidateVolume.of(pv)));
    }
    List<ClaimRequest> delayed = new ArrayList<>(claims.unboundDelayBinding().size());
    Map<String, ProvisioningClass> classes = new LinkedHashMap<>();
    for (PersistentVolumeClaim pvc : claims.unboundDelayBinding()) {
      ClaimRequest c = ClaimRequest.of(pvc);
      delayed.add(c);
      if (!c.className().isEmpty()) {
        classes.computeIfAbsent(c.className(), n -> ProvisioningClass.of(n, objects));
      }
    }
    Map<String, List<CandidateVolume>> volumes = new LinkedHashMap<>();
    claims
        .volumesByClass()
        .forEach(
            (className, pvs) -> {
              List<CandidateVolume> compiled = new ArrayList<>(pvs.size());
              for (PersistentVolume pv : pvs) {
                compiled.add(CandidateVolume.of(pv));
              }
              volumes.put(className, List.copyOf(compiled));
            });
    return new PreparedClaims(claims, List.copyOf(bound), List.copyOf(delayed), volumes, classes);
  }

  /** A claim with a volume name and the bind-completed annotation. */
  static boolean isFullyBound(PersistentVolumeClaim pvc) {
    Map<String, String> ann = pvc.getMetadata().getAnnotations();
    return !volumeName(pvc).isEmpty() && ann != null && ann.containsKey(ANN_BIND_COMPLETED);
  }

  private boolean isDelayBindingMode(PersistentVolumeClaim pvc) {
    String className = StorageClassNames.ofClaim(pvc);
    if (className.isEmpty()) {
      return false;
    }
    StorageClass sc = objects.storageClass(className);
    if (sc == null) {
      return false;
    }
    if (sc.getVolumeBindingMode() == null) {
      throw new FrameworkException(
          "VolumeBindingMode not set for StorageClass \"" + className + "\"");
    }
    return WAIT_FOR_FIRST_CONSUMER.equals(sc.getVolumeBindingMode());
  }

  static String volumeName(PersistentVolumeClaim pvc) {
    return pvc.getSpec() == null ? "" : nullToEmpty(pvc.getSpec().getVolumeName());
  }

  private static List<Volume> volumes(Pod pod) {
    List<Volume> v = pod.getSpec() == null ? null : pod.getSpec().getVolumes();
    return v == null ? List.of() : v;
  }

  private static String namespace(Pod pod) {
    return nullToEmpty(pod.getMetadata().getNamespace());
  }

  private static String nullToEmpty(String s) {
    return s == null ? "" : s;
  }
}
