package io.schedext.plugins.volumebinding;

import io.fabric8.kubernetes.api.model.PersistentVolume;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaim;
import io.schedext.framework.ClusterObjects;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/** A {@link VolumeLister} over the latest cluster objects. Thread-safe. */
public final class ClusterVolumeLister implements VolumeLister {

  private static final Comparator<PersistentVolume> BY_NAME =
      Comparator.comparing(pv -> pv.getMetadata().getName());

  private final ClusterObjects objects;

  /** A lister reading {@code objects}. */
  public ClusterVolumeLister(ClusterObjects objects) {
    this.objects = objects;
  }

  @Override
  public PersistentVolumeClaim claim(String namespace, String name) {
    return objects.persistentVolumeClaim(namespace, name);
  }

  @Override
  public PersistentVolume volume(String name) {
    return objects.persistentVolume(name);
  }

  /** Scans every PV: O(#PVs), once per class per scheduling cycle. */
  @Override
  public List<PersistentVolume> volumesOfClass(String className) {
    List<PersistentVolume> out = new ArrayList<>();
    for (PersistentVolume pv : objects.persistentVolumes()) {
      if (StorageClassNames.ofVolume(pv).equals(className)) {
        out.add(pv);
      }
    }
    out.sort(BY_NAME);
    return out;
  }
}
