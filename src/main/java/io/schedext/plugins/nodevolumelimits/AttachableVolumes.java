package io.schedext.plugins.nodevolumelimits;

import io.fabric8.kubernetes.api.model.CSIPersistentVolumeSource;
import io.fabric8.kubernetes.api.model.PersistentVolume;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaim;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Volume;
import io.fabric8.kubernetes.api.model.storage.CSINode;
import io.fabric8.kubernetes.api.model.storage.StorageClass;
import io.fabric8.kubernetes.api.model.storage.VolumeAttachment;
import io.fabric8.kubernetes.api.model.storage.VolumeAttachmentSpec;
import io.schedext.framework.ClusterObjects;
import io.schedext.framework.Status;
import io.schedext.plugins.Names;
import io.schedext.plugins.volumebinding.EphemeralClaims;
import io.schedext.plugins.volumebinding.NotFound;
import io.schedext.plugins.volumebinding.StorageClassNames;
import java.util.List;
import java.util.Map;

/**
 * Finds the CSI volumes a pod attaches, as {@code <driver>/<handle>} mapped to the driver's name:
 * PVC and generic ephemeral volumes through their PV (in-tree PVs translated), unbound claims
 * through their StorageClass provisioner with a per-plugin-instance random handle, and migratable
 * inline volumes. Thread-safe.
 */
final class AttachableVolumes {

  private final ClusterObjects objects;
  private final String randomVolumeIdPrefix;

  AttachableVolumes(ClusterObjects objects, String randomVolumeIdPrefix) {
    this.objects = objects;
    this.randomVolumeIdPrefix = randomVolumeIdPrefix;
  }

  /** A CSI driver and volume handle. */
  private record DriverHandle(String driver, String handle) {
    static final DriverHandle NONE = new DriverHandle("", "");
  }

  /**
   * Adds the attachable volumes of {@code pod} to {@code result}; returns null on success or the
   * status to fail the Filter with. A missing claim of the pod being scheduled is unresolvable; one
   * of an existing pod is not counted.
   */
  Status collect(Pod pod, CSINode csiNode, boolean newPod, Map<String, String> result) {
    List<Volume> volumes = pod.getSpec() == null ? null : pod.getSpec().getVolumes();
    if (volumes == null) {
      return null;
    }
    String namespace =
        pod.getMetadata().getNamespace() == null ? "" : pod.getMetadata().getNamespace();
    for (Volume v : volumes) {
      String claimName;
      boolean ephemeral = false;
      if (v.getPersistentVolumeClaim() != null) {
        claimName = v.getPersistentVolumeClaim().getClaimName();
      } else if (v.getEphemeral() != null) {
        claimName = EphemeralClaims.claimName(pod, v);
        ephemeral = true;
      } else {
        Status s = inline(v, csiNode, namespace, result);
        if (s != null) {
          return s;
        }
        continue;
      }
      if (claimName == null || claimName.isEmpty()) {
        return Status.error("PersistentVolumeClaim had no name")
            .withPlugin(Names.NODE_VOLUME_LIMITS);
      }
      PersistentVolumeClaim pvc = objects.persistentVolumeClaim(namespace, claimName);
      if (pvc == null) {
        if (newPod) {
          return Status.unresolvable(
                  "looking up PVC "
                      + namespace
                      + "/"
                      + claimName
                      + ": "
                      + NotFound.claim(claimName))
              .withPlugin(Names.NODE_VOLUME_LIMITS);
        }
        continue;
      }
      if (ephemeral) {
        String notOwned = EphemeralClaims.notOwnedReason(pod, pvc);
        if (notOwned != null) {
          return Status.error(notOwned).withPlugin(Names.NODE_VOLUME_LIMITS);
        }
      }
      DriverHandle dh = driverInfo(csiNode, pvc);
      if (dh.driver().isEmpty() || dh.handle().isEmpty()) {
        continue;
      }
      result.put(dh.driver() + "/" + dh.handle(), dh.driver());
    }
    return null;
  }

  private Status inline(Volume v, CSINode csiNode, String namespace, Map<String, String> result) {
    InTreeVolumes.Plugin plugin = InTreeVolumes.ofInline(v);
    if (plugin == null || !InTreeVolumes.migrationOn(csiNode, plugin)) {
      return null;
    }
    String handle;
    try {
      handle = InTreeVolumes.inlineHandle(v, plugin);
    } catch (IllegalArgumentException e) {
      return Status.error(
              "converting volume(" + v.getName() + ") from inline to csi: " + e.getMessage())
          .withPlugin(Names.NODE_VOLUME_LIMITS);
    }
    String driver = plugin.csiDriver();
    result.put(driver + "/" + handle, driver);
    return null;
  }

  private DriverHandle driverInfo(CSINode csiNode, PersistentVolumeClaim pvc) {
    String pvName = pvc.getSpec() == null ? null : pvc.getSpec().getVolumeName();
    if (pvName == null || pvName.isEmpty()) {
      return driverInfoFromStorageClass(csiNode, pvc);
    }
    PersistentVolume pv = objects.persistentVolume(pvName);
    if (pv == null) {
      // A deleted PV or a claim pre-bound to a PV not created yet: count through the class instead.
      return driverInfoFromStorageClass(csiNode, pvc);
    }
    CSIPersistentVolumeSource csi = pv.getSpec() == null ? null : pv.getSpec().getCsi();
    if (csi != null) {
      return new DriverHandle(str(csi.getDriver()), str(csi.getVolumeHandle()));
    }
    InTreeVolumes.Plugin plugin = InTreeVolumes.ofVolume(pv);
    if (plugin == null || !InTreeVolumes.migrationOn(csiNode, plugin)) {
      return DriverHandle.NONE;
    }
    try {
      return new DriverHandle(plugin.csiDriver(), InTreeVolumes.handle(pv, plugin));
    } catch (IllegalArgumentException e) {
      return DriverHandle.NONE;
    }
  }

  private DriverHandle driverInfoFromStorageClass(CSINode csiNode, PersistentVolumeClaim pvc) {
    String className = StorageClassNames.ofClaim(pvc);
    if (className.isEmpty()) {
      return DriverHandle.NONE;
    }
    StorageClass sc = objects.storageClass(className);
    if (sc == null) {
      return DriverHandle.NONE;
    }
    // The random prefix keeps these handles apart from real ones; the same claim still maps to one
    // handle.
    String handle =
        randomVolumeIdPrefix
            + "-"
            + pvc.getMetadata().getNamespace()
            + "/"
            + pvc.getMetadata().getName();
    String provisioner = str(sc.getProvisioner());
    InTreeVolumes.Plugin plugin = InTreeVolumes.byName(provisioner);
    if (plugin != null) {
      if (!InTreeVolumes.migrationOn(csiNode, plugin)) {
        return DriverHandle.NONE;
      }
      return new DriverHandle(plugin.csiDriver(), handle);
    }
    return new DriverHandle(provisioner, handle);
  }

  /**
   * Adds the CSI volumes attached to {@code nodeName} by VolumeAttachment objects to {@code
   * result}, as {@code <attacher>/<handle>} mapped to the attacher: those naming an attacher and a
   * PersistentVolume that exists and is a CSI volume (1.34.9's {@code
   * getNodeVolumeAttachmentInfo}).
   */
  void attachedByVolumeAttachments(String nodeName, Map<String, String> result) {
    for (VolumeAttachment va : objects.volumeAttachments(nodeName)) {
      VolumeAttachmentSpec spec = va.getSpec();
      String attacher = spec == null ? null : spec.getAttacher();
      if (attacher == null || attacher.isEmpty()) {
        continue;
      }
      String pvName = spec.getSource() == null ? null : spec.getSource().getPersistentVolumeName();
      if (pvName == null) {
        continue;
      }
      PersistentVolume pv = objects.persistentVolume(pvName);
      CSIPersistentVolumeSource csi =
          pv == null || pv.getSpec() == null ? null : pv.getSpec().getCsi();
      if (csi == null) {
        continue;
      }
      result.put(attacher + "/" + str(csi.getVolumeHandle()), attacher);
    }
  }

  private static String str(String s) {
    return s == null ? "" : s;
  }
}
