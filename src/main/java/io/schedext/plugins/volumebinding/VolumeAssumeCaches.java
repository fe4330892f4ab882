package io.schedext.plugins.volumebinding;

import io.fabric8.kubernetes.api.model.PersistentVolume;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaim;
import java.util.List;

/**
 * The PV and PVC assume caches volume binding works on, as upstream's {@code PVAssumeCache} (listed by storage class)
 * and {@code PVCAssumeCache}; as a {@link VolumeLister} it serves the latest (possibly assumed) versions, so claims
 * and volumes reserved for one pod are seen by the next. Fed by informer events through {@link #pvs()} and
 * {@link #pvcs()}. Thread-safe.
 */
public final class VolumeAssumeCaches implements VolumeLister {

  private final AssumeCache<PersistentVolume> pvs =
      new AssumeCache<>("v1.PersistentVolume", StorageClassNames::ofVolume);
  private final AssumeCache<PersistentVolumeClaim> pvcs = new AssumeCache<>("v1.PersistentVolumeClaim", null);

  /** The PV cache. */
  public AssumeCache<PersistentVolume> pvs() {
    return pvs;
  }

  /** The PVC cache. */
  public AssumeCache<PersistentVolumeClaim> pvcs() {
    return pvcs;
  }

  @Override
  public PersistentVolumeClaim claim(String namespace, String name) {
    try {
      return pvcs.get(namespace.isEmpty() ? name : namespace + "/" + name);
    } catch (AssumeCacheException e) {
      return null;
    }
  }

  @Override
  public PersistentVolume volume(String name) {
    try {
      return pvs.get(name);
    } catch (AssumeCacheException e) {
      return null;
    }
  }

  @Override
  public List<PersistentVolume> volumesOfClass(String className) {
    return pvs.list(className);
  }
}
