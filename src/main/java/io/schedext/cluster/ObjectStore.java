package io.schedext.cluster;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Namespace;
import io.fabric8.kubernetes.api.model.PersistentVolume;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaim;
import io.fabric8.kubernetes.api.model.ReplicationController;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.apps.ReplicaSet;
import io.fabric8.kubernetes.api.model.apps.StatefulSet;
import io.fabric8.kubernetes.api.model.policy.v1.PodDisruptionBudget;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceClass;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceSlice;
import io.fabric8.kubernetes.api.model.storage.CSIDriver;
import io.fabric8.kubernetes.api.model.storage.CSINode;
import io.fabric8.kubernetes.api.model.storage.CSIStorageCapacity;
import io.fabric8.kubernetes.api.model.storage.StorageClass;
import io.fabric8.kubernetes.api.model.storage.VolumeAttachment;
import io.schedext.framework.AllocatedDevices;
import io.schedext.framework.ClusterObjects;
import io.schedext.framework.DeviceId;
import io.schedext.framework.ResourceSlices;
import io.schedext.framework.TakenDevices;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The latest known cluster objects other than nodes and pods, keyed by kind and {@code
 * namespace/name}. Fed by the cluster source (embedded file or informers); read by plugins through
 * {@link ClusterObjects}. Thread-safe; objects are stored as given and must not be mutated
 * afterwards.
 */
public final class ObjectStore implements ClusterObjects {

  private final Map<Class<?>, ConcurrentHashMap<String, HasMetadata>> byKind =
      new ConcurrentHashMap<>();
  // The same objects per kind and namespace: plugins list a namespace's Services, ReplicaSets, ...
  // for every pod (the system default spreading selector), which must not scan every namespace's
  // objects.
  private final Map<Class<?>, ConcurrentHashMap<String, ConcurrentHashMap<String, HasMetadata>>>
      byNamespace = new ConcurrentHashMap<>();
  // VolumeAttachments per node (spec.nodeName): NodeVolumeLimits reads a node's on every Filter.
  private final ConcurrentHashMap<String, ConcurrentHashMap<String, VolumeAttachment>>
      attachmentsByNode = new ConcurrentHashMap<>();
  // Past this many devices changed since the last read, the taken set is made anew.
  private static final int TAKEN_REBUILD_AFTER = 1024;
  // The devices the ResourceClaims hold, counted (a device two claims name stays taken until both
  // let it go), kept up to date claim by claim: DynamicResources reads the whole set for every pod
  // with claims, which must not walk every claim. Guarded by this.
  private final Map<DeviceId, Integer> allocated = new HashMap<>();
  private long allocatedRevision;
  // The allocated devices as handed out, brought up to date on the first read after a change:
  // only the pools of the devices changed since are copied (few, as claims change one by one),
  // unless a re-list changed many. Guarded by this.
  private TakenDevices taken = TakenDevices.NONE;
  private final Set<DeviceId> takenChanged = new HashSet<>();
  private boolean takenRebuild;
  // The slices by node, rebuilt on the first read after a slice changed. Guarded by this.
  private ResourceSlices slices = ResourceSlices.EMPTY;
  private boolean slicesStale;

  /** Kinds this store holds. */
  public static final List<Class<? extends HasMetadata>> KINDS =
      List.of(
          Service.class,
          Namespace.class,
          PersistentVolume.class,
          PersistentVolumeClaim.class,
          StorageClass.class,
          CSINode.class,
          CSIDriver.class,
          CSIStorageCapacity.class,
          VolumeAttachment.class,
          PodDisruptionBudget.class,
          ReplicaSet.class,
          StatefulSet.class,
          ReplicationController.class,
          ResourceClaim.class,
          DeviceClass.class,
          ResourceSlice.class);

  /** True when this store keeps objects of {@code type}. */
  public static boolean holds(Class<?> type) {
    return KINDS.contains(type);
  }

  /** Adds or replaces an object. */
  public void put(HasMetadata obj) {
    String key = key(obj);
    String ns = namespaceOf(obj);
    synchronized (this) {
      HasMetadata previous = map(obj.getClass()).put(key, obj);
      namespaceMap(obj.getClass(), ns).put(key, obj);
      if (obj instanceof VolumeAttachment va) {
        if (previous instanceof VolumeAttachment old) {
          unindex(old, key);
        }
        attachmentsByNode.computeIfAbsent(nodeOf(va), n -> new ConcurrentHashMap<>()).put(key, va);
      } else if (obj instanceof ResourceClaim claim) {
        allocationChanged(previous instanceof ResourceClaim old ? old : null, claim);
      } else if (obj instanceof ResourceSlice) {
        slicesStale = true;
      }
    }
  }

  /** Removes an object; returns true when it was present. */
  public boolean remove(HasMetadata obj) {
    String key = key(obj);
    String ns = namespaceOf(obj);
    synchronized (this) {
      ConcurrentHashMap<String, ConcurrentHashMap<String, HasMetadata>> namespaces =
          namespaces(obj.getClass());
      ConcurrentHashMap<String, HasMetadata> inNamespace = namespaces.get(ns);
      if (inNamespace != null && inNamespace.remove(key) != null && inNamespace.isEmpty()) {
        namespaces.remove(ns);
      }
      HasMetadata removed = map(obj.getClass()).remove(key);
      if (removed instanceof VolumeAttachment va) {
        unindex(va, key);
      } else if (removed instanceof ResourceClaim claim) {
        allocationChanged(claim, null);
      } else if (removed instanceof ResourceSlice) {
        slicesStale = true;
      }
      return removed != null;
    }
  }

  /** Removes every object of {@code type} (before a full re-list). */
  public void clear(Class<? extends HasMetadata> type) {
    synchronized (this) {
      map(type).clear();
      namespaces(type).clear();
      if (type == VolumeAttachment.class) {
        attachmentsByNode.clear();
      } else if (type == ResourceClaim.class) {
        allocated.clear();
        takenRebuild = true;
        allocatedRevision++;
      } else if (type == ResourceSlice.class) {
        slicesStale = true;
      }
    }
  }

  /**
   * The object of {@code type} at {@code namespace/name} (namespace "" for cluster-scoped), or
   * null.
   */
  public <T extends HasMetadata> T get(Class<T> type, String namespace, String name) {
    return type.cast(map(type).get(key(namespace, name)));
  }

  /** Every object of {@code type}. */
  public <T extends HasMetadata> List<T> list(Class<T> type) {
    List<T> out = new ArrayList<>();
    for (HasMetadata o : map(type).values()) {
      out.add(type.cast(o));
    }
    return out;
  }

  /** Objects of {@code type} in {@code namespace}. */
  public <T extends HasMetadata> List<T> list(Class<T> type, String namespace) {
    ConcurrentHashMap<String, HasMetadata> inNamespace = namespaces(type).get(namespace);
    if (inNamespace == null) {
      return new ArrayList<>(0);
    }
    List<T> out = new ArrayList<>(inNamespace.size());
    for (HasMetadata o : inNamespace.values()) {
      out.add(type.cast(o));
    }
    return out;
  }

  /** The number of objects of {@code type}. */
  public int count(Class<? extends HasMetadata> type) {
    return map(type).size();
  }

  private ConcurrentHashMap<String, HasMetadata> map(Class<?> type) {
    return byKind.computeIfAbsent(type, k -> new ConcurrentHashMap<>());
  }

  private ConcurrentHashMap<String, ConcurrentHashMap<String, HasMetadata>> namespaces(
      Class<?> type) {
    return byNamespace.computeIfAbsent(type, k -> new ConcurrentHashMap<>());
  }

  private ConcurrentHashMap<String, HasMetadata> namespaceMap(Class<?> type, String namespace) {
    return namespaces(type).computeIfAbsent(namespace, k -> new ConcurrentHashMap<>());
  }

  /**
   * Moves the device counts from what {@code before} took to what {@code after} takes (either may
   * be null); the revision advances when anything changed. Called with the lock held.
   */
  private void allocationChanged(ResourceClaim before, ResourceClaim after) {
    List<DeviceId> gone = AllocatedDevices.takenBy(before);
    List<DeviceId> taken = AllocatedDevices.takenBy(after);
    if (gone.equals(taken)) {
      return;
    }
    for (DeviceId d : gone) {
      allocated.computeIfPresent(d, (k, n) -> n == 1 ? null : n - 1);
    }
    for (DeviceId d : taken) {
      allocated.merge(d, 1, Integer::sum);
    }
    if (takenChanged.size() <= TAKEN_REBUILD_AFTER) {
      takenChanged.addAll(gone);
      takenChanged.addAll(taken);
    }
    allocatedRevision++;
  }

  private void unindex(VolumeAttachment va, String key) {
    String node = nodeOf(va);
    ConcurrentHashMap<String, VolumeAttachment> onNode = attachmentsByNode.get(node);
    if (onNode != null && onNode.remove(key) != null && onNode.isEmpty()) {
      attachmentsByNode.remove(node);
    }
  }

  private static String nodeOf(VolumeAttachment va) {
    String node = va.getSpec() == null ? null : va.getSpec().getNodeName();
    return node == null ? "" : node;
  }

  private static String namespaceOf(HasMetadata o) {
    String ns = o.getMetadata().getNamespace();
    return ns == null ? "" : ns;
  }

  private static String key(HasMetadata o) {
    return key(o.getMetadata().getNamespace(), o.getMetadata().getName());
  }

  private static String key(String namespace, String name) {
    return (namespace == null ? "" : namespace) + "/" + name;
  }

  @Override
  public List<Service> services(String namespace) {
    return list(Service.class, namespace);
  }

  @Override
  public Namespace namespace(String name) {
    return get(Namespace.class, "", name);
  }

  @Override
  public List<Namespace> namespaces() {
    return list(Namespace.class);
  }

  @Override
  public PersistentVolumeClaim persistentVolumeClaim(String namespace, String name) {
    return get(PersistentVolumeClaim.class, namespace, name);
  }

  @Override
  public PersistentVolume persistentVolume(String name) {
    return get(PersistentVolume.class, "", name);
  }

  @Override
  public List<PersistentVolume> persistentVolumes() {
    return list(PersistentVolume.class);
  }

  @Override
  public StorageClass storageClass(String name) {
    return get(StorageClass.class, "", name);
  }

  @Override
  public CSINode csiNode(String name) {
    return get(CSINode.class, "", name);
  }

  @Override
  public CSIDriver csiDriver(String name) {
    return get(CSIDriver.class, "", name);
  }

  @Override
  public List<CSIStorageCapacity> csiStorageCapacities() {
    return list(CSIStorageCapacity.class);
  }

  @Override
  public List<VolumeAttachment> volumeAttachments(String nodeName) {
    ConcurrentHashMap<String, VolumeAttachment> onNode = attachmentsByNode.get(nodeName);
    return onNode == null ? List.of() : List.copyOf(onNode.values());
  }

  @Override
  public List<PodDisruptionBudget> podDisruptionBudgets(String namespace) {
    return list(PodDisruptionBudget.class, namespace);
  }

  @Override
  public List<PodDisruptionBudget> podDisruptionBudgets() {
    return list(PodDisruptionBudget.class);
  }

  @Override
  public List<ReplicaSet> replicaSets(String namespace) {
    return list(ReplicaSet.class, namespace);
  }

  @Override
  public List<StatefulSet> statefulSets(String namespace) {
    return list(StatefulSet.class, namespace);
  }

  @Override
  public List<ReplicationController> replicationControllers(String namespace) {
    return list(ReplicationController.class, namespace);
  }

  @Override
  public ResourceClaim resourceClaim(String namespace, String name) {
    return get(ResourceClaim.class, namespace, name);
  }

  @Override
  public DeviceClass deviceClass(String name) {
    return get(DeviceClass.class, "", name);
  }

  /**
   * The slices by node; rebuilt (O(slices), in name order) when a slice changed since the last
   * call, else the same instance.
   */
  @Override
  public synchronized ResourceSlices resourceSlices() {
    if (slicesStale) {
      List<ResourceSlice> all = list(ResourceSlice.class);
      all.sort(Comparator.comparing(s -> s.getMetadata().getName()));
      Map<String, List<ResourceSlice>> byNode = new HashMap<>();
      List<ResourceSlice> shared = new ArrayList<>();
      for (ResourceSlice s : all) {
        String node = s.getSpec() == null ? null : s.getSpec().getNodeName();
        if (node != null && !node.isEmpty()) {
          byNode.computeIfAbsent(node, n -> new ArrayList<>(1)).add(s);
        } else {
          shared.add(s);
        }
      }
      byNode.replaceAll((n, l) -> List.copyOf(l));
      // A HashMap, not Map.copyOf: node names differ in their last characters, and the immutable
      // map's open addressing then compares whole names along long runs of neighbouring slots.
      slices =
          new ResourceSlices(Collections.unmodifiableMap(byNode), List.copyOf(shared), all.size());
      slicesStale = false;
    }
    return slices;
  }

  @Override
  public synchronized AllocatedDevices allocatedDevices() {
    if (takenRebuild || takenChanged.size() > TAKEN_REBUILD_AFTER) {
      taken = TakenDevices.of(allocated.keySet());
    } else if (!takenChanged.isEmpty()) {
      taken = taken.update(takenChanged, allocated::containsKey);
    }
    takenChanged.clear();
    takenRebuild = false;
    return new AllocatedDevices(taken, allocatedRevision);
  }

  @Override
  public synchronized long allocatedDevicesRevision() {
    return allocatedRevision;
  }
}
