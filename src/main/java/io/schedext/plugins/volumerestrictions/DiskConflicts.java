package io.schedext.plugins.volumerestrictions;

import io.fabric8.kubernetes.api.model.AWSElasticBlockStoreVolumeSource;
import io.fabric8.kubernetes.api.model.GCEPersistentDiskVolumeSource;
import io.fabric8.kubernetes.api.model.ISCSIVolumeSource;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.RBDVolumeSource;
import io.fabric8.kubernetes.api.model.Volume;
import java.util.List;
import java.util.Objects;

/**
 * The in-tree disk sharing rules: the same GCE PD, iSCSI IQN or RBD image may be mounted by several
 * pods of one node only when every mount is read-only; the same AWS EBS volume never. Stateless and
 * thread-safe.
 */
final class DiskConflicts {

  private DiskConflicts() {}

  /** True when {@code v} is a volume kind these rules look at. */
  static boolean needsCheck(Volume v) {
    return v.getGcePersistentDisk() != null
        || v.getAwsElasticBlockStore() != null
        || v.getRbd() != null
        || v.getIscsi() != null;
  }

  /** True when mounting {@code v} conflicts with some volume of {@code existing}. */
  static boolean conflicts(Volume v, Pod existing) {
    List<Volume> volumes = existing.getSpec() == null ? null : existing.getSpec().getVolumes();
    if (volumes == null) {
      return false;
    }
    for (Volume ev : volumes) {
      if (gceConflict(v.getGcePersistentDisk(), ev.getGcePersistentDisk())
          || awsConflict(v.getAwsElasticBlockStore(), ev.getAwsElasticBlockStore())
          || iscsiConflict(v.getIscsi(), ev.getIscsi())
          || rbdConflict(v.getRbd(), ev.getRbd())) {
        return true;
      }
    }
    return false;
  }

  private static boolean gceConflict(
      GCEPersistentDiskVolumeSource a, GCEPersistentDiskVolumeSource b) {
    return a != null
        && b != null
        && str(a.getPdName()).equals(str(b.getPdName()))
        && !(isTrue(a.getReadOnly()) && isTrue(b.getReadOnly()));
  }

  private static boolean awsConflict(
      AWSElasticBlockStoreVolumeSource a, AWSElasticBlockStoreVolumeSource b) {
    return a != null && b != null && str(a.getVolumeID()).equals(str(b.getVolumeID()));
  }

  private static boolean iscsiConflict(ISCSIVolumeSource a, ISCSIVolumeSource b) {
    return a != null
        && b != null
        && str(a.getIqn()).equals(str(b.getIqn()))
        && !(isTrue(a.getReadOnly()) && isTrue(b.getReadOnly()));
  }

  private static boolean rbdConflict(RBDVolumeSource a, RBDVolumeSource b) {
    return a != null
        && b != null
        && haveOverlap(a.getMonitors(), b.getMonitors())
        && str(a.getPool()).equals(str(b.getPool()))
        && str(a.getImage()).equals(str(b.getImage()))
        && !(isTrue(a.getReadOnly()) && isTrue(b.getReadOnly()));
  }

  private static boolean haveOverlap(List<String> a, List<String> b) {
    if (a == null || b == null) {
      return false;
    }
    for (String x : a) {
      for (String y : b) {
        if (Objects.equals(x, y)) {
          return true;
        }
      }
    }
    return false;
  }

  private static boolean isTrue(Boolean b) {
    return Boolean.TRUE.equals(b);
  }

  private static String str(String s) {
    return s == null ? "" : s;
  }
}
