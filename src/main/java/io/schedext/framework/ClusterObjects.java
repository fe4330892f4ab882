package io.schedext.framework;

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
import io.fabric8.kubernetes.api.model.storage.CSIDriver;
import io.fabric8.kubernetes.api.model.storage.CSINode;
import io.fabric8.kubernetes.api.model.storage.CSIStorageCapacity;
import io.fabric8.kubernetes.api.model.storage.StorageClass;
import io.fabric8.kubernetes.api.model.storage.VolumeAttachment;
import java.util.List;

/**
 * Read access to the cluster objects plugins consult besides nodes and pods (upstream's informer
 * listers). Always the latest known state, not part of the per-cycle snapshot. Implementations are
 * thread-safe; returned objects and lists are read-only.
 */
public interface ClusterObjects {

  /** Services in {@code namespace}. */
  List<Service> services(String namespace);

  /** The namespace named {@code name}, or null. */
  Namespace namespace(String name);

  /** Every namespace. */
  List<Namespace> namespaces();

  /** The claim {@code namespace/name}, or null. */
  PersistentVolumeClaim persistentVolumeClaim(String namespace, String name);

  /** The volume named {@code name}, or null. */
  PersistentVolume persistentVolume(String name);

  /** Every persistent volume. */
  List<PersistentVolume> persistentVolumes();

  /** The storage class named {@code name}, or null. */
  StorageClass storageClass(String name);

  /** The CSINode of node {@code name}, or null. */
  CSINode csiNode(String name);

  /** The CSI driver named {@code name}, or null. */
  CSIDriver csiDriver(String name);

  /** Every CSIStorageCapacity object. */
  List<CSIStorageCapacity> csiStorageCapacities();

  /** The VolumeAttachments whose {@code spec.nodeName} is {@code nodeName}. */
  List<VolumeAttachment> volumeAttachments(String nodeName);

  /** Pod disruption budgets in {@code namespace}. */
  List<PodDisruptionBudget> podDisruptionBudgets(String namespace);

  /** Every pod disruption budget. */
  List<PodDisruptionBudget> podDisruptionBudgets();

  /** Replica sets in {@code namespace}. */
  List<ReplicaSet> replicaSets(String namespace);

  /** Stateful sets in {@code namespace}. */
  List<StatefulSet> statefulSets(String namespace);

  /** Replication controllers in {@code namespace}. */
  List<ReplicationController> replicationControllers(String namespace);

  /** The ResourceClaim {@code namespace/name}, or null. */
  ResourceClaim resourceClaim(String namespace, String name);

  /** The DeviceClass named {@code name}, or null. */
  DeviceClass deviceClass(String name);

  /** Every ResourceSlice, indexed by the node they are published for. */
  ResourceSlices resourceSlices();

  /** The devices the ResourceClaims have allocated, with the revision of that state. */
  AllocatedDevices allocatedDevices();

  /**
   * The revision of {@link #allocatedDevices()}: it changes whenever the allocated set may have.
   */
  long allocatedDevicesRevision();
}
