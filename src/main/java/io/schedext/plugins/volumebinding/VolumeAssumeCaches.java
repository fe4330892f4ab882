package io.schedext.plugins.volumebinding;

import io.fabric8.kubernetes.api.model.PersistentVolume;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaim;
import io.schedext.framework.ClusterObjects;
import java.util.Collection;
import java.util.List;

/**
 * The PV and PVC assume caches volume binding works on, as upstream's {@code PVAssumeCache} (listed
 * by storage class) and {@code PVCAssumeCache}; as a {@link VolumeLister} it serves the latest
 * (possibly assumed) versions, so claims and volumes reserved for one pod are seen by the next. The
 * plugin's caches read the cluster objects lazily (see {@link AssumeCache.Source}): the object
 * store is this extender's informer cache, so each read first takes in what the informers delivered
 * since. Thread-safe.
 */
public final class VolumeAssumeCaches implements VolumeLister {

  private final AssumeCache<PersistentVolume> pvs;
  private final AssumeCache<PersistentVolumeClaim> pvcs;

  /** Caches fed only by events through {@link #pvs()} and {@link #pvcs()}. */
  public VolumeAssumeCaches() {
    this(null);
  }

  /** Caches reading {@code objects} lazily (null: fed by events only). */
  public VolumeAssumeCaches(ClusterObjects objects) {
    pvs =
        new AssumeCache<>(
            "v1.PersistentVolume",
            StorageClassNames::ofVolume,
            objects == null
                ? null
                : new AssumeCache.Source<>() {
                  @Override
                  public PersistentVolume get(String key) {
                    return objects.persistentVolume(key);
                  }

                  @Override
                  public Collection<PersistentVolume> list() {
                    return objects.persistentVolumes();
                  }
                });
    pvcs =
        new AssumeCache<>(
            "v1.PersistentVolumeClaim",
            null,
            objects == null
                ? null
                : new AssumeCache.Source<>() {
                  @Override
                  public PersistentVolumeClaim get(String key) {
                    int slash = key.indexOf('/');
                    return slash < 0
                        ? objects.persistentVolumeClaim("", key)
                        : objects.persistentVolumeClaim(
                            key.substring(0, slash), key.substring(slash + 1));
                  }

                  @Override
                  public Collection<PersistentVolumeClaim> list() {
                    return null;
                  }
                });
  }

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
