package io.schedext.cluster;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.PersistentVolume;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaim;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * What the informers' objects lose before they are cached, to keep memory down: whatever no plugin
 * reads. Works in place on objects nothing else holds yet (the informer's new object, before a
 * handler keeps it). Stateless.
 */
final class Trim {

  private static final String LAST_APPLIED = "kubectl.kubernetes.io/last-applied-configuration";

  private Trim() {}

  /**
   * Drops what no plugin reads, in place, before the object is cached: managed fields and the
   * last-applied annotation (not of PVs, PVCs and ResourceClaims: volume binding and dynamic
   * resources write those back whole); for pods the container statuses but those of a resize the
   * scheduler counts ({@link ResizedContainers}) and the containers' env, command, args, probes,
   * lifecycle and mounts; for nodes the conditions, daemon endpoints and system info. Resources,
   * ports, images, volumes, tolerations, affinity, labels and pod conditions (preemption reads
   * DisruptionTarget) stay. Pods and nodes are then compacted ({@link Compaction}). Null, and an
   * object without metadata, are left as they are.
   */
  static void object(HasMetadata o) {
    if (o == null || o.getMetadata() == null) {
      return;
    }
    o.getMetadata().setManagedFields(null);
    if (o instanceof PersistentVolume
        || o instanceof PersistentVolumeClaim
        || o instanceof ResourceClaim) {
      return;
    }
    if (o.getMetadata().getAnnotations() != null
        && o.getMetadata().getAnnotations().containsKey(LAST_APPLIED)) {
      Map<String, String> a = new HashMap<>(o.getMetadata().getAnnotations());
      a.remove(LAST_APPLIED);
      o.getMetadata().setAnnotations(a);
    }
    if (o instanceof Pod p) {
      if (p.getStatus() != null) {
        PodSpec spec = p.getSpec();
        p.getStatus()
            .setContainerStatuses(
                ResizedContainers.kept(
                    p.getStatus().getContainerStatuses(),
                    spec == null ? null : spec.getContainers(),
                    false));
        p.getStatus()
            .setInitContainerStatuses(
                ResizedContainers.kept(
                    p.getStatus().getInitContainerStatuses(),
                    spec == null ? null : spec.getInitContainers(),
                    true));
        p.getStatus().setEphemeralContainerStatuses(null);
      }
      if (p.getSpec() != null) {
        containers(p.getSpec().getContainers());
        containers(p.getSpec().getInitContainers());
        p.getSpec().setEphemeralContainers(null);
      }
      Compaction.compact(p);
    } else if (o instanceof Node n) {
      if (n.getStatus() != null) {
        n.getStatus().setConditions(null);
        n.getStatus().setDaemonEndpoints(null);
        n.getStatus().setNodeInfo(null);
      }
      Compaction.compact(n);
    }
  }

  /**
   * Drops from {@code containers} what a container runs with: the fields the decoders skip ({@code
   * kube/UnreadFields}), for objects that did not come through them. Null is left as it is.
   */
  static void containers(List<Container> containers) {
    if (containers == null) {
      return;
    }
    for (Container c : containers) {
      c.setEnv(null);
      c.setEnvFrom(null);
      c.setCommand(null);
      c.setArgs(null);
      c.setLivenessProbe(null);
      c.setReadinessProbe(null);
      c.setStartupProbe(null);
      c.setLifecycle(null);
      c.setVolumeMounts(null);
      c.setVolumeDevices(null);
    }
  }
}
