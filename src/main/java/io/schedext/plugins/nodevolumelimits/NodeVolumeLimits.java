package io.schedext.plugins.nodevolumelimits;

import io.fabric8.kubernetes.api.model.Volume;
import io.fabric8.kubernetes.api.model.storage.CSINode;
import io.schedext.framework.ClusterObjects;
import io.schedext.framework.CycleState;
import io.schedext.framework.FilterPlugin;
import io.schedext.framework.Handle;
import io.schedext.framework.NodeInfo;
import io.schedext.framework.PluginArgs;
import io.schedext.framework.PodInfo;
import io.schedext.framework.PreFilterPlugin;
import io.schedext.framework.PreFilterResult;
import io.schedext.framework.Status;
import io.schedext.plugins.Names;
import java.security.SecureRandom;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Upstream's CSILimits: rejects a node when the pod's new CSI volumes (counted once per {@code
 * driver/handle}, shared ones already on the node not counted again) would exceed a driver's attach
 * limit on that node, counting what the node's pods use and what its VolumeAttachments attach.
 * Limits come from the node's CSINode only, as in 1.34.9.
 */
public final class NodeVolumeLimits implements PreFilterPlugin, FilterPlugin {

  /** The reason when some driver's attach limit would be exceeded. */
  public static final String ERR_REASON_MAX_VOLUME_COUNT_EXCEEDED =
      "node(s) exceed max volume count";

  private static final Status EXCEEDED =
      Status.unschedulable(ERR_REASON_MAX_VOLUME_COUNT_EXCEEDED)
          .withPlugin(Names.NODE_VOLUME_LIMITS);
  private static final String RANDOM_ALPHABET = "bcdfghjklmnpqrstvwxz2456789";

  private final ClusterObjects objects;
  private final AttachableVolumes attachable;

  NodeVolumeLimits(ClusterObjects objects, String randomVolumeIdPrefix) {
    this.objects = objects;
    this.attachable = new AttachableVolumes(objects, randomVolumeIdPrefix);
  }

  @Override
  public String name() {
    return Names.NODE_VOLUME_LIMITS;
  }

  /**
   * Skips the Filter unless the pod has a PVC, a generic ephemeral or a migratable inline volume.
   */
  @Override
  public PreFilterResult preFilter(CycleState state, PodInfo pod) {
    for (Volume v : volumes(pod)) {
      if (v.getPersistentVolumeClaim() != null
          || v.getEphemeral() != null
          || InTreeVolumes.ofInline(v) != null) {
        return PreFilterResult.success();
      }
    }
    return PreFilterResult.of(Status.skip());
  }

  @Override
  public Status filter(CycleState state, PodInfo pod, NodeInfo node) {
    if (volumes(pod).isEmpty()) {
      return Status.success();
    }
    CSINode csiNode = objects.csiNode(node.name());
    Map<String, String> newVolumes = new HashMap<>();
    Status failed = attachable.collect(pod.pod(), csiNode, true, newVolumes);
    if (failed != null) {
      return failed;
    }
    if (newVolumes.isEmpty()) {
      return Status.success();
    }
    Map<String, Long> limits = AttachLimits.of(csiNode);
    if (limits.isEmpty()) {
      return Status.success();
    }
    Map<String, String> attachedVolumes = new HashMap<>();
    for (PodInfo existing : node.pods()) {
      failed = attachable.collect(existing.pod(), csiNode, false, attachedVolumes);
      if (failed != null) {
        return failed;
      }
    }
    Map<String, Integer> attachedCount = new HashMap<>();
    attachedVolumes.forEach(
        (unique, driver) -> {
          newVolumes.remove(unique);
          attachedCount.merge(driver, 1, Integer::sum);
        });
    // Volumes attached without a pod on the node using them (being detached, or attached ahead)
    // count too; one an existing pod uses is counted once. As upstream, a new volume already
    // attached this way still counts as new.
    Map<String, String> attachments = new HashMap<>();
    attachable.attachedByVolumeAttachments(node.name(), attachments);
    attachments.forEach(
        (unique, driver) -> {
          if (!attachedVolumes.containsKey(unique)) {
            attachedCount.merge(driver, 1, Integer::sum);
          }
        });
    Map<String, Integer> newCount = new HashMap<>();
    newVolumes.values().forEach(key -> newCount.merge(key, 1, Integer::sum));
    for (Map.Entry<String, Integer> e : newCount.entrySet()) {
      Long limit = limits.get(e.getKey());
      if (limit != null && attachedCount.getOrDefault(e.getKey(), 0) + e.getValue() > limit) {
        return EXCEEDED;
      }
    }
    return Status.success();
  }

  private static List<Volume> volumes(PodInfo pod) {
    List<Volume> v = pod.pod().getSpec() == null ? null : pod.pod().getSpec().getVolumes();
    return v == null ? List.of() : v;
  }

  /** 32 random characters from apimachinery's {@code rand.String} alphabet. */
  static String randomPrefix() {
    SecureRandom r = new SecureRandom();
    StringBuilder b = new StringBuilder(32);
    for (int i = 0; i < 32; i++) {
      b.append(RANDOM_ALPHABET.charAt(r.nextInt(RANDOM_ALPHABET.length())));
    }
    return b.toString();
  }

  /** The factory registered under {@link Names#NODE_VOLUME_LIMITS}. */
  public static NodeVolumeLimits create(PluginArgs args, Handle handle) {
    return new NodeVolumeLimits(handle.clusterObjects(), randomPrefix());
  }
}
