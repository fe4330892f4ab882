package io.schedext.plugins.volumebinding;

import io.fabric8.kubernetes.api.model.PersistentVolume;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaim;
import java.util.List;

/**
 * The PVs and PVCs volume binding decides on: the plugin uses the assume caches' "latest" view
 * ({@link VolumeAssumeCaches}), so bindings assumed for one pod are seen by later pods.
 * Implementations are thread-safe; returned objects are read-only.
 */
public interface VolumeLister {

  /** The claim {@code namespace/name}, or null. */
  PersistentVolumeClaim claim(String namespace, String name);

  /** The volume {@code name}, or null. */
  PersistentVolume volume(String name);

  /**
   * The volumes of storage class {@code className} ("" = no class), in a stable order (by name).
   */
  List<PersistentVolume> volumesOfClass(String className);
}
