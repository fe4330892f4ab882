package io.schedext.plugins.volumezone;

import io.fabric8.kubernetes.api.model.PersistentVolume;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaim;
import io.fabric8.kubernetes.api.model.Volume;
import io.fabric8.kubernetes.api.model.storage.StorageClass;
import io.schedext.framework.ClusterObjects;
import io.schedext.framework.CycleState;
import io.schedext.framework.FilterPlugin;
import io.schedext.framework.Handle;
import io.schedext.framework.NodeInfo;
import io.schedext.framework.PluginArgs;
import io.schedext.framework.PodInfo;
import io.schedext.framework.PreFilterPlugin;
import io.schedext.framework.PreFilterResult;
import io.schedext.framework.StateData;
import io.schedext.framework.Status;
import io.schedext.plugins.Names;
import io.schedext.plugins.volumebinding.NotFound;
import io.schedext.plugins.volumebinding.StorageClassNames;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Keeps pods next to their bound volumes: every zone or region label of a bound PV must be matched
 * by the node's label (a beta PV label may be matched by the GA node label), unless the node has no
 * zone or region label at all.
 */
public final class VolumeZone implements PreFilterPlugin, FilterPlugin {

  /** The reason when a volume's zone or region does not include the node's. */
  public static final String ERR_REASON_CONFLICT = "node(s) had no available volume zone";

  static final String PRE_FILTER_STATE_KEY = "PreFilter" + Names.VOLUME_ZONE;

  static final String BETA_ZONE = "failure-domain.beta.kubernetes.io/zone";
  static final String BETA_REGION = "failure-domain.beta.kubernetes.io/region";
  static final String ZONE = "topology.kubernetes.io/zone";
  static final String REGION = "topology.kubernetes.io/region";
  private static final String[] TOPOLOGY_LABELS = {BETA_ZONE, BETA_REGION, ZONE, REGION};
  private static final String MULTI_ZONE_DELIMITER = "__";
  private static final String WAIT_FOR_FIRST_CONSUMER = "WaitForFirstConsumer";

  private static final Status CONFLICT =
      Status.unresolvable(ERR_REASON_CONFLICT).withPlugin(Names.VOLUME_ZONE);

  private final ClusterObjects objects;

  private VolumeZone(ClusterObjects objects) {
    this.objects = objects;
  }

  /** The zone and region labels of the pod's bound volumes, computed once per cycle. */
  record State(List<PvTopology> topologies) implements StateData {
    @Override
    public StateData copy() {
      return this;
    }
  }

  /** Either the topologies or the status that stopped their lookup. */
  private record Lookup(List<PvTopology> topologies, Status failure) {}

  @Override
  public String name() {
    return Names.VOLUME_ZONE;
  }

  /** Reads the zone labels of the pod's bound volumes; skips the Filter when there are none. */
  @Override
  public PreFilterResult preFilter(CycleState state, PodInfo pod) {
    Lookup l = lookup(pod);
    if (l.failure() != null) {
      return PreFilterResult.of(l.failure());
    }
    if (l.topologies().isEmpty()) {
      return PreFilterResult.of(Status.skip());
    }
    state.write(PRE_FILTER_STATE_KEY, new State(l.topologies()));
    return PreFilterResult.success();
  }

  @Override
  public Status filter(CycleState state, PodInfo pod, NodeInfo node) {
    if (volumes(pod).isEmpty()) {
      return Status.success();
    }
    List<PvTopology> topologies;
    if (state.readOrNull(PRE_FILTER_STATE_KEY) instanceof State s) {
      topologies = s.topologies();
    } else {
      // Upstream falls back to computing the topologies here when PreFilter left no state.
      Lookup l = lookup(pod);
      if (l.failure() != null) {
        return l.failure();
      }
      topologies = l.topologies();
    }
    Map<String, String> labels = node.labels();
    boolean hasAnyNodeConstraint = false;
    for (String key : TOPOLOGY_LABELS) {
      if (labels.containsKey(key)) {
        hasAnyNodeConstraint = true;
        break;
      }
    }
    if (!hasAnyNodeConstraint) {
      return Status.success();
    }
    for (PvTopology t : topologies) {
      String v = labels.get(t.key());
      if (v == null) {
        v = labels.get(toGaLabel(t.key()));
      }
      if (v == null || !t.values().contains(v)) {
        return CONFLICT;
      }
    }
    return Status.success();
  }

  private Lookup lookup(PodInfo pod) {
    List<PvTopology> out = new ArrayList<>();
    for (Volume v : volumes(pod)) {
      if (v.getPersistentVolumeClaim() == null) {
        continue;
      }
      String claimName = v.getPersistentVolumeClaim().getClaimName();
      if (claimName == null || claimName.isEmpty()) {
        return failed("PersistentVolumeClaim had no name");
      }
      PersistentVolumeClaim pvc = objects.persistentVolumeClaim(pod.namespace(), claimName);
      if (pvc == null) {
        return failed(NotFound.claim(claimName));
      }
      String pvName = pvc.getSpec() == null ? null : pvc.getSpec().getVolumeName();
      if (pvName == null || pvName.isEmpty()) {
        String className = StorageClassNames.ofClaim(pvc);
        if (className.isEmpty()) {
          return failed("PersistentVolumeClaim had no pv name and storageClass name");
        }
        StorageClass sc = objects.storageClass(className);
        if (sc == null) {
          return failed(NotFound.storageClass(className));
        }
        if (sc.getVolumeBindingMode() == null) {
          return failed("VolumeBindingMode not set for StorageClass \"" + className + "\"");
        }
        if (WAIT_FOR_FIRST_CONSUMER.equals(sc.getVolumeBindingMode())) {
          continue;
        }
        return failed("PersistentVolume had no name");
      }
      PersistentVolume pv = objects.persistentVolume(pvName);
      if (pv == null) {
        return failed(NotFound.volume(pvName));
      }
      Map<String, String> pvLabels = pv.getMetadata().getLabels();
      if (pvLabels == null) {
        continue;
      }
      for (String key : TOPOLOGY_LABELS) {
        String value = pvLabels.get(key);
        if (value != null) {
          Set<String> values = zonesToSet(value);
          if (values != null) {
            out.add(new PvTopology(pv.getMetadata().getName(), key, values));
          }
        }
      }
    }
    return new Lookup(List.copyOf(out), null);
  }

  private static Lookup failed(String reason) {
    return new Lookup(null, Status.unresolvable(reason).withPlugin(Names.VOLUME_ZONE));
  }

  /**
   * The {@code __}-separated zone set, trimmed; null when an element is empty (upstream ignores
   * such a label).
   */
  static Set<String> zonesToSet(String value) {
    Set<String> out = new HashSet<>();
    for (String z : value.split(MULTI_ZONE_DELIMITER, -1)) {
      String t = z.strip();
      if (t.isEmpty()) {
        return null;
      }
      out.add(t);
    }
    return Set.copyOf(out);
  }

  private static String toGaLabel(String key) {
    if (BETA_REGION.equals(key)) {
      return REGION;
    }
    if (BETA_ZONE.equals(key)) {
      return ZONE;
    }
    return key;
  }

  private static List<Volume> volumes(PodInfo pod) {
    List<Volume> v = pod.pod().getSpec() == null ? null : pod.pod().getSpec().getVolumes();
    return v == null ? List.of() : v;
  }

  /** The factory registered under {@link Names#VOLUME_ZONE}. */
  public static VolumeZone create(PluginArgs args, Handle handle) {
    return new VolumeZone(handle.clusterObjects());
  }
}
