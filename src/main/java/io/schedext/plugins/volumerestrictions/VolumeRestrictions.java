package io.schedext.plugins.volumerestrictions;

import io.fabric8.kubernetes.api.model.PersistentVolumeClaim;
import io.fabric8.kubernetes.api.model.Volume;
import io.schedext.framework.ClusterObjects;
import io.schedext.framework.CycleState;
import io.schedext.framework.FilterPlugin;
import io.schedext.framework.Handle;
import io.schedext.framework.NodeInfo;
import io.schedext.framework.PluginArgs;
import io.schedext.framework.PodInfo;
import io.schedext.framework.PreFilterExtensions;
import io.schedext.framework.PreFilterPlugin;
import io.schedext.framework.PreFilterResult;
import io.schedext.framework.Status;
import io.schedext.plugins.Names;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Rejects nodes where the pod's in-tree disks (GCE PD, AWS EBS, iSCSI, RBD) would be shared against
 * their rules, and pods whose ReadWriteOncePod claims are already in use by another pod anywhere in
 * the cluster.
 */
public final class VolumeRestrictions
    implements PreFilterPlugin, PreFilterExtensions, FilterPlugin {

  /** The reason when a disk of the pod is already mounted on the node in a conflicting way. */
  public static final String ERR_REASON_DISK_CONFLICT = "node(s) had no available disk";

  /**
   * The reason when a ReadWriteOncePod claim of the pod is used by another pod (1.34's text;
   * earlier releases read {@code node has pod using PersistentVolumeClaim with the same name and
   * ReadWriteOncePod access mode}).
   */
  public static final String ERR_REASON_READ_WRITE_ONCE_POD_CONFLICT =
      "node(s) unavailable due to PersistentVolumeClaim with ReadWriteOncePod access mode already"
          + " in-use by another pod";

  static final String PRE_FILTER_STATE_KEY = "PreFilter" + Names.VOLUME_RESTRICTIONS;
  private static final String READ_WRITE_ONCE_POD = "ReadWriteOncePod";

  private static final Status DISK_CONFLICT =
      Status.unschedulable(ERR_REASON_DISK_CONFLICT).withPlugin(Names.VOLUME_RESTRICTIONS);
  private static final Status RWOP_CONFLICT =
      Status.unschedulable(ERR_REASON_READ_WRITE_ONCE_POD_CONFLICT)
          .withPlugin(Names.VOLUME_RESTRICTIONS);

  private final ClusterObjects objects;

  private VolumeRestrictions(ClusterObjects objects) {
    this.objects = objects;
  }

  @Override
  public String name() {
    return Names.VOLUME_RESTRICTIONS;
  }

  /**
   * Counts the pods of the snapshot using the pod's ReadWriteOncePod claims; skips the Filter when
   * the pod has neither such a conflict nor an in-tree disk to check. A missing claim is
   * unresolvable.
   */
  @Override
  public PreFilterResult preFilter(CycleState state, PodInfo pod) {
    List<Volume> volumes = volumes(pod);
    boolean needsCheck = false;
    for (Volume v : volumes) {
      needsCheck |= DiskConflicts.needsCheck(v);
    }
    Set<String> rwopClaims = new HashSet<>();
    for (Volume v : volumes) {
      if (v.getPersistentVolumeClaim() == null) {
        continue;
      }
      String claim = v.getPersistentVolumeClaim().getClaimName();
      PersistentVolumeClaim pvc = objects.persistentVolumeClaim(pod.namespace(), claim);
      if (pvc == null) {
        return PreFilterResult.of(
            Status.unresolvable("persistentvolumeclaim \"" + claim + "\" not found")
                .withPlugin(name()));
      }
      List<String> modes = pvc.getSpec() == null ? null : pvc.getSpec().getAccessModes();
      if (modes != null && modes.contains(READ_WRITE_ONCE_POD)) {
        rwopClaims.add(claim);
      }
    }
    int conflicts = 0;
    for (String claim : rwopClaims) {
      if (state.snapshot().isPvcUsedByPods(pod.namespace() + "/" + claim)) {
        conflicts++;
      }
    }
    if (!needsCheck && conflicts == 0) {
      return PreFilterResult.of(Status.skip());
    }
    state.write(PRE_FILTER_STATE_KEY, new PreFilterState(Set.copyOf(rwopClaims), conflicts));
    return PreFilterResult.success();
  }

  @Override
  public PreFilterExtensions preFilterExtensions() {
    return this;
  }

  /** Counts the ReadWriteOncePod claims of the pod that {@code podToAdd} also uses. */
  @Override
  public Status addPod(CycleState state, PodInfo podToSchedule, PodInfo podToAdd, NodeInfo node) {
    state.read(PRE_FILTER_STATE_KEY, PreFilterState.class).update(podToAdd, 1);
    return Status.success();
  }

  /** Uncounts the ReadWriteOncePod claims of the pod that {@code podToRemove} used. */
  @Override
  public Status removePod(
      CycleState state, PodInfo podToSchedule, PodInfo podToRemove, NodeInfo node) {
    state.read(PRE_FILTER_STATE_KEY, PreFilterState.class).update(podToRemove, -1);
    return Status.success();
  }

  @Override
  public Status filter(CycleState state, PodInfo pod, NodeInfo node) {
    for (Volume v : volumes(pod)) {
      if (!DiskConflicts.needsCheck(v)) {
        continue;
      }
      for (PodInfo existing : node.pods()) {
        if (DiskConflicts.conflicts(v, existing.pod())) {
          return DISK_CONFLICT;
        }
      }
    }
    PreFilterState s = state.read(PRE_FILTER_STATE_KEY, PreFilterState.class);
    return s.conflictingClaimRefs() > 0 ? RWOP_CONFLICT : Status.success();
  }

  static List<Volume> volumes(PodInfo pod) {
    List<Volume> v = pod.pod().getSpec() == null ? null : pod.pod().getSpec().getVolumes();
    return v == null ? List.of() : v;
  }

  /** The factory registered under {@link Names#VOLUME_RESTRICTIONS}. */
  public static VolumeRestrictions create(PluginArgs args, Handle handle) {
    return new VolumeRestrictions(handle.clusterObjects());
  }
}
