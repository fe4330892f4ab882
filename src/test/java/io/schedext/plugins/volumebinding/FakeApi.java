package io.schedext.plugins.volumebinding;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.PersistentVolume;
import io.fabric8.kubernetes.api.model.PersistentVolumeBuilder;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaim;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaimBuilder;
import io.schedext.cluster.ObjectStore;
import io.schedext.framework.FrameworkException;
import io.schedext.framework.VolumeWriter;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * An in-memory API server for PVs and claims, like upstream's test VolumeReactor: an update must
 * carry the stored resource version (else Conflict) and bumps it by one, unless it changes nothing.
 * What the binder's caches read is a separate informer store, which catches up only on {@link
 * #sync()} (or is set up apart with {@link #informer()}), so tests can let the informer lag behind
 * the API as upstream's do.
 */
final class FakeApi implements VolumeWriter {

  private final Map<String, PersistentVolume> pvs = new LinkedHashMap<>();
  private final Map<String, PersistentVolumeClaim> pvcs = new LinkedHashMap<>();
  private final Set<String> pods = new HashSet<>();
  private final ObjectStore informer;
  private int writes;

  /**
   * An API whose informer is {@code informer} (which also holds the storage classes the plugin
   * reads).
   */
  FakeApi(ObjectStore informer) {
    this.informer = informer;
  }

  ObjectStore informer() {
    return informer;
  }

  /** Stores objects in the API only. */
  synchronized FakeApi put(HasMetadata... objects) {
    for (HasMetadata o : objects) {
      if (o instanceof PersistentVolume pv) {
        pvs.put(pv.getMetadata().getName(), pv);
      } else if (o instanceof PersistentVolumeClaim pvc) {
        pvcs.put(AssumeCache.keyOf(pvc), pvc);
      }
    }
    return this;
  }

  /** Stores objects in the API and the informer. */
  synchronized FakeApi putSynced(HasMetadata... objects) {
    put(objects);
    for (HasMetadata o : objects) {
      informer.put(o);
    }
    return this;
  }

  /** Removes an object from the API (the informer keeps it until {@link #sync()}). */
  synchronized void delete(HasMetadata o) {
    if (o instanceof PersistentVolume) {
      pvs.remove(o.getMetadata().getName());
    } else {
      pvcs.remove(AssumeCache.keyOf(o));
    }
  }

  /** Makes the informer hold exactly the API's PVs and claims. */
  synchronized void sync() {
    for (PersistentVolume pv : informer.persistentVolumes()) {
      if (!pvs.containsKey(pv.getMetadata().getName())) {
        informer.remove(pv);
      }
    }
    for (PersistentVolumeClaim pvc : informer.list(PersistentVolumeClaim.class)) {
      if (!pvcs.containsKey(AssumeCache.keyOf(pvc))) {
        informer.remove(pvc);
      }
    }
    pvs.values().forEach(informer::put);
    pvcs.values().forEach(informer::put);
  }

  synchronized PersistentVolume pv(String name) {
    return pvs.get(name);
  }

  synchronized PersistentVolumeClaim pvc(String key) {
    return pvcs.get(key);
  }

  synchronized List<PersistentVolume> pvs() {
    return List.copyOf(pvs.values());
  }

  synchronized List<PersistentVolumeClaim> pvcs() {
    return List.copyOf(pvcs.values());
  }

  /** Makes pod {@code namespace/name} exist. */
  synchronized FakeApi addPod(String namespace, String name) {
    pods.add(namespace + "/" + name);
    return this;
  }

  synchronized void deletePod(String namespace, String name) {
    pods.remove(namespace + "/" + name);
  }

  /** Updates made through the writer so far. */
  synchronized int writes() {
    return writes;
  }

  /** An update by another actor (the PV controller, a user): same rules as the binder's. */
  @SuppressWarnings("unchecked")
  synchronized <T extends HasMetadata> T update(T obj) {
    if (obj instanceof PersistentVolume pv) {
      return (T)
          store(
              "persistentvolumes",
              pv.getMetadata().getName(),
              pvs,
              pv,
              new PersistentVolumeBuilder(pv)
                  .editMetadata()
                  .withResourceVersion(next(pvs.get(pv.getMetadata().getName())))
                  .endMetadata()
                  .build());
    }
    PersistentVolumeClaim pvc = (PersistentVolumeClaim) obj;
    return (T)
        store(
            "persistentvolumeclaims",
            AssumeCache.keyOf(pvc),
            pvcs,
            pvc,
            new PersistentVolumeClaimBuilder(pvc)
                .editMetadata()
                .withResourceVersion(next(pvcs.get(AssumeCache.keyOf(pvc))))
                .endMetadata()
                .build());
  }

  @Override
  public synchronized PersistentVolume updatePersistentVolume(PersistentVolume pv) {
    writes++;
    return update(pv);
  }

  @Override
  public synchronized PersistentVolumeClaim updatePersistentVolumeClaim(PersistentVolumeClaim pvc) {
    writes++;
    return update(pvc);
  }

  @Override
  public synchronized boolean podExists(String namespace, String name) {
    return pods.contains(namespace + "/" + name);
  }

  private static <T extends HasMetadata> T store(
      String resource, String key, Map<String, T> map, T update, T bumped) {
    T stored = map.get(key);
    String name = update.getMetadata().getName();
    if (stored == null) {
      throw new FrameworkException(resource + " \"" + name + "\" not found");
    }
    if (!stored
        .getMetadata()
        .getResourceVersion()
        .equals(update.getMetadata().getResourceVersion())) {
      throw new FrameworkException(
          "Operation cannot be fulfilled on "
              + resource
              + " \""
              + name
              + "\": the object "
              + "has been modified; please apply your changes to the latest version and try again");
    }
    if (stored.equals(update)) {
      return stored;
    }
    map.put(key, bumped);
    return bumped;
  }

  private static String next(HasMetadata stored) {
    return stored == null
        ? ""
        : Long.toString(Long.parseLong(stored.getMetadata().getResourceVersion()) + 1);
  }
}
