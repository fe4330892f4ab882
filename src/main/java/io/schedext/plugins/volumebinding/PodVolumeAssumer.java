package io.schedext.plugins.volumebinding;

import io.fabric8.kubernetes.api.model.ObjectReference;
import io.fabric8.kubernetes.api.model.ObjectReferenceBuilder;
import io.fabric8.kubernetes.api.model.PersistentVolume;
import io.fabric8.kubernetes.api.model.PersistentVolumeBuilder;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaim;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaimBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Volume;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The in-memory half of upstream's Reserve/Unreserve ({@code AssumePodVolumes}, {@code
 * RevertAssumedPodVolumes}): assumes each statically matched PV bound to its claim and each claim
 * to provision annotated with the chosen node, undoing everything on the first failure. Makes no
 * API calls. Thread-safe through the caches.
 */
public final class PodVolumeAssumer {

  /**
   * The annotation marking a binding made by the controller (or the scheduler) rather than the
   * user.
   */
  public static final String ANN_BOUND_BY_CONTROLLER = "pv.kubernetes.io/bound-by-controller";

  private final VolumeAssumeCaches caches;

  /** An assumer working on {@code caches}. */
  public PodVolumeAssumer(VolumeAssumeCaches caches) {
    this.caches = caches;
  }

  /**
   * The outcome of assuming.
   *
   * @param allBound true when every claim of the pod was already fully bound (nothing assumed,
   *     nothing to bind)
   * @param volumes the assumed objects (PVs with their claim reference, claims with the selected
   *     node)
   */
  public record Assumed(boolean allBound, PodVolumes volumes) {}

  /**
   * Assumes {@code podVolumes} for {@code pod} on {@code nodeName}; throws {@link
   * AssumeCacheException} (after restoring what it assumed) when a PV or claim is unknown or out of
   * sync.
   */
  public Assumed assume(Pod pod, String nodeName, PodVolumes podVolumes) {
    if (arePodVolumesBound(pod)) {
      return new Assumed(true, podVolumes);
    }
    List<BindingInfo> newBindings = new ArrayList<>();
    for (BindingInfo b : podVolumes.staticBindings()) {
      PersistentVolume bound = bindVolumeToClaim(b.pv(), b.pvc());
      if (bound != b.pv()) {
        try {
          caches.pvs().assume(bound);
        } catch (AssumeCacheException e) {
          revertVolumes(newBindings);
          throw e;
        }
      }
      newBindings.add(new BindingInfo(b.pvc(), bound));
    }
    List<PersistentVolumeClaim> provisioned = new ArrayList<>();
    for (PersistentVolumeClaim claim : podVolumes.dynamicProvisions()) {
      PersistentVolumeClaim clone =
          new PersistentVolumeClaimBuilder(claim)
              .editMetadata()
              .addToAnnotations(ClaimRequest.ANN_SELECTED_NODE, nodeName)
              .endMetadata()
              .build();
      try {
        caches.pvcs().assume(clone);
      } catch (AssumeCacheException e) {
        revertVolumes(newBindings);
        revertClaims(provisioned);
        throw e;
      }
      provisioned.add(clone);
    }
    return new Assumed(false, new PodVolumes(newBindings, provisioned));
  }

  /** Restores the informer versions of the PVs and claims in {@code podVolumes}. */
  public void revert(PodVolumes podVolumes) {
    revertVolumes(podVolumes.staticBindings());
    revertClaims(podVolumes.dynamicProvisions());
  }

  /**
   * {@code pv} bound to {@code claim} as component-helpers' {@code GetBindVolumeToClaim}: a copy
   * with the claim reference and the bound-by-controller annotation set as needed, or {@code pv}
   * itself when nothing changes.
   */
  static PersistentVolume bindVolumeToClaim(PersistentVolume pv, PersistentVolumeClaim claim) {
    ObjectReference ref = pv.getSpec() == null ? null : pv.getSpec().getClaimRef();
    boolean setBoundByController = !PvMatcher.isBoundToClaim(ref, ClaimRequest.of(claim));
    PersistentVolumeBuilder b = new PersistentVolumeBuilder(pv);
    boolean dirty = false;
    if (ref == null
        || !str(ref.getName()).equals(str(claim.getMetadata().getName()))
        || !str(ref.getNamespace()).equals(str(claim.getMetadata().getNamespace()))
        || !str(ref.getUid()).equals(str(claim.getMetadata().getUid()))) {
      b.editOrNewSpec()
          .withClaimRef(
              new ObjectReferenceBuilder()
                  .withKind("PersistentVolumeClaim")
                  .withApiVersion("v1")
                  .withName(claim.getMetadata().getName())
                  .withNamespace(claim.getMetadata().getNamespace())
                  .withUid(claim.getMetadata().getUid())
                  .withResourceVersion(claim.getMetadata().getResourceVersion())
                  .build())
          .endSpec();
      dirty = true;
    }
    Map<String, String> ann = pv.getMetadata().getAnnotations();
    if (setBoundByController && (ann == null || !ann.containsKey(ANN_BOUND_BY_CONTROLLER))) {
      b.editMetadata().addToAnnotations(ANN_BOUND_BY_CONTROLLER, "yes").endMetadata();
      dirty = true;
    }
    return dirty ? b.build() : pv;
  }

  private static String str(String s) {
    return s == null ? "" : s;
  }

  private boolean arePodVolumesBound(Pod pod) {
    List<Volume> volumes = pod.getSpec() == null ? null : pod.getSpec().getVolumes();
    if (volumes == null) {
      return true;
    }
    String ns = pod.getMetadata().getNamespace() == null ? "" : pod.getMetadata().getNamespace();
    for (Volume v : volumes) {
      String name;
      if (v.getPersistentVolumeClaim() != null) {
        name = v.getPersistentVolumeClaim().getClaimName();
      } else if (v.getEphemeral() != null) {
        name = EphemeralClaims.claimName(pod, v);
      } else {
        continue;
      }
      PersistentVolumeClaim pvc = caches.claim(ns, name);
      if (pvc == null
          || !ClaimClassifier.isFullyBound(pvc)
          || (v.getEphemeral() != null && EphemeralClaims.notOwnedReason(pod, pvc) != null)) {
        return false;
      }
    }
    return true;
  }

  private void revertVolumes(List<BindingInfo> bindings) {
    for (BindingInfo b : bindings) {
      caches.pvs().restore(b.pv().getMetadata().getName());
    }
  }

  private void revertClaims(List<PersistentVolumeClaim> claims) {
    for (PersistentVolumeClaim c : claims) {
      caches.pvcs().restore(AssumeCache.keyOf(c));
    }
  }
}
