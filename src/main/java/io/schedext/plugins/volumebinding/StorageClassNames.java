package io.schedext.plugins.volumebinding;

import io.fabric8.kubernetes.api.model.PersistentVolume;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaim;
import java.util.Map;

/**
 * The storage class a claim asks for or a volume belongs to, as component-helpers' {@code
 * GetPersistentVolumeClaimClass} and {@code GetPersistentVolumeClass}: the beta annotation wins
 * over the spec field. Stateless and thread-safe.
 */
public final class StorageClassNames {

  /** The deprecated annotation that still takes precedence over {@code spec.storageClassName}. */
  public static final String BETA_STORAGE_CLASS_ANNOTATION =
      "volume.beta.kubernetes.io/storage-class";

  private StorageClassNames() {}

  /** The class {@code claim} asks for; "" when none. */
  public static String ofClaim(PersistentVolumeClaim claim) {
    Map<String, String> ann =
        claim.getMetadata() == null ? null : claim.getMetadata().getAnnotations();
    if (ann != null && ann.containsKey(BETA_STORAGE_CLASS_ANNOTATION)) {
      return nullToEmpty(ann.get(BETA_STORAGE_CLASS_ANNOTATION));
    }
    return claim.getSpec() == null ? "" : nullToEmpty(claim.getSpec().getStorageClassName());
  }

  /** The class {@code volume} belongs to; "" when none. */
  public static String ofVolume(PersistentVolume volume) {
    Map<String, String> ann =
        volume.getMetadata() == null ? null : volume.getMetadata().getAnnotations();
    if (ann != null && ann.containsKey(BETA_STORAGE_CLASS_ANNOTATION)) {
      return nullToEmpty(ann.get(BETA_STORAGE_CLASS_ANNOTATION));
    }
    return volume.getSpec() == null ? "" : nullToEmpty(volume.getSpec().getStorageClassName());
  }

  private static String nullToEmpty(String s) {
    return s == null ? "" : s;
  }
}
