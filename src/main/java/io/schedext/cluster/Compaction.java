package io.schedext.cluster;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ContainerImage;
import io.fabric8.kubernetes.api.model.ContainerPort;
import io.fabric8.kubernetes.api.model.ContainerStatus;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeSpec;
import io.fabric8.kubernetes.api.model.NodeStatus;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodCondition;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.PodStatus;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.ResourceRequirements;
import io.fabric8.kubernetes.api.model.Taint;
import io.fabric8.kubernetes.api.model.Toleration;
import java.util.Collections;
import java.util.List;
import java.util.Map;

/**
 * Shrinks the pods and nodes the cache keeps. fabric8's model classes start every list and map
 * field, and every object's {@code additionalProperties}, as a new empty {@code ArrayList} or
 * {@code LinkedHashMap}: a decoded pod carries some fifty empty collections (~1.5 KB of its ~5 KB),
 * and each one is copied by the collector when a watch event's new pod survives its first young
 * collection. Here the empty ones of a pod's or a node's usual parts are replaced by the shared
 * immutable empty list or map ({@code Collections.emptyList()}/{@code emptyMap()}, which, unlike
 * {@code List.of()}, answer a query for null as an empty {@code ArrayList} does); nothing else
 * changes (the object stays {@code equals} to what it was, and serializes to the same JSON).
 *
 * <p>Only for objects nobody changes afterwards: the ones the informers and the embedded cluster
 * hand to the cache.
 */
final class Compaction {

  private Compaction() {}

  /** Compacts {@code pod} in place. */
  static void compact(Pod pod) {
    pod.setAdditionalProperties(map(pod.getAdditionalProperties()));
    meta(pod.getMetadata());
    PodSpec spec = pod.getSpec();
    if (spec != null) {
      spec.setAdditionalProperties(map(spec.getAdditionalProperties()));
      containers(spec.getContainers());
      spec.setContainers(list(spec.getContainers()));
      containers(spec.getInitContainers());
      spec.setInitContainers(list(spec.getInitContainers()));
      spec.setEphemeralContainers(list(spec.getEphemeralContainers()));
      spec.setHostAliases(list(spec.getHostAliases()));
      spec.setImagePullSecrets(list(spec.getImagePullSecrets()));
      spec.setReadinessGates(list(spec.getReadinessGates()));
      spec.setResourceClaims(list(spec.getResourceClaims()));
      spec.setSchedulingGates(list(spec.getSchedulingGates()));
      spec.setTolerations(list(spec.getTolerations()));
      if (spec.getTolerations() != null) {
        for (Toleration t : spec.getTolerations()) {
          t.setAdditionalProperties(map(t.getAdditionalProperties()));
        }
      }
      spec.setTopologySpreadConstraints(list(spec.getTopologySpreadConstraints()));
      spec.setVolumes(list(spec.getVolumes()));
      spec.setNodeSelector(map(spec.getNodeSelector()));
      spec.setOverhead(quantities(spec.getOverhead()));
    }
    PodStatus status = pod.getStatus();
    if (status != null) {
      status.setAdditionalProperties(map(status.getAdditionalProperties()));
      status.setAllocatedResources(quantities(status.getAllocatedResources()));
      status.setConditions(list(status.getConditions()));
      if (status.getConditions() != null) {
        for (PodCondition c : status.getConditions()) {
          c.setAdditionalProperties(map(c.getAdditionalProperties()));
        }
      }
      status.setContainerStatuses(list(status.getContainerStatuses()));
      containerStatuses(status.getContainerStatuses());
      containerStatuses(status.getInitContainerStatuses());
      status.setEphemeralContainerStatuses(list(status.getEphemeralContainerStatuses()));
      status.setHostIPs(list(status.getHostIPs()));
      status.setInitContainerStatuses(list(status.getInitContainerStatuses()));
      status.setNodeAllocatableResourceClaimStatuses(
          list(status.getNodeAllocatableResourceClaimStatuses()));
      status.setPodIPs(list(status.getPodIPs()));
      status.setResourceClaimStatuses(list(status.getResourceClaimStatuses()));
    }
  }

  /** Compacts {@code node} in place. */
  static void compact(Node node) {
    node.setAdditionalProperties(map(node.getAdditionalProperties()));
    meta(node.getMetadata());
    NodeSpec spec = node.getSpec();
    if (spec != null) {
      spec.setAdditionalProperties(map(spec.getAdditionalProperties()));
      spec.setPodCIDRs(list(spec.getPodCIDRs()));
      spec.setTaints(list(spec.getTaints()));
      if (spec.getTaints() != null) {
        for (Taint t : spec.getTaints()) {
          t.setAdditionalProperties(map(t.getAdditionalProperties()));
        }
      }
    }
    NodeStatus status = node.getStatus();
    if (status != null) {
      status.setAdditionalProperties(map(status.getAdditionalProperties()));
      status.setAddresses(list(status.getAddresses()));
      status.setAllocatable(quantities(status.getAllocatable()));
      status.setCapacity(quantities(status.getCapacity()));
      status.setConditions(list(status.getConditions()));
      status.setDeclaredFeatures(list(status.getDeclaredFeatures()));
      status.setImages(list(status.getImages()));
      if (status.getImages() != null) {
        for (ContainerImage i : status.getImages()) {
          i.setAdditionalProperties(map(i.getAdditionalProperties()));
          i.setNames(list(i.getNames()));
        }
      }
      status.setRuntimeHandlers(list(status.getRuntimeHandlers()));
      status.setVolumesAttached(list(status.getVolumesAttached()));
      status.setVolumesInUse(list(status.getVolumesInUse()));
    }
  }

  private static void meta(ObjectMeta meta) {
    if (meta == null) {
      return;
    }
    meta.setAdditionalProperties(map(meta.getAdditionalProperties()));
    meta.setAnnotations(map(meta.getAnnotations()));
    meta.setLabels(map(meta.getLabels()));
    meta.setFinalizers(list(meta.getFinalizers()));
    meta.setManagedFields(list(meta.getManagedFields()));
    meta.setOwnerReferences(list(meta.getOwnerReferences()));
    if (meta.getOwnerReferences() != null) {
      for (OwnerReference o : meta.getOwnerReferences()) {
        o.setAdditionalProperties(map(o.getAdditionalProperties()));
      }
    }
  }

  private static void containers(List<Container> containers) {
    if (containers == null) {
      return;
    }
    for (Container c : containers) {
      c.setAdditionalProperties(map(c.getAdditionalProperties()));
      c.setArgs(list(c.getArgs()));
      c.setCommand(list(c.getCommand()));
      c.setEnv(list(c.getEnv()));
      c.setEnvFrom(list(c.getEnvFrom()));
      c.setPorts(list(c.getPorts()));
      if (c.getPorts() != null) {
        for (ContainerPort p : c.getPorts()) {
          p.setAdditionalProperties(map(p.getAdditionalProperties()));
        }
      }
      c.setResizePolicy(list(c.getResizePolicy()));
      c.setRestartPolicyRules(list(c.getRestartPolicyRules()));
      c.setVolumeDevices(list(c.getVolumeDevices()));
      c.setVolumeMounts(list(c.getVolumeMounts()));
      ResourceRequirements r = c.getResources();
      if (r != null) {
        r.setAdditionalProperties(map(r.getAdditionalProperties()));
        r.setClaims(list(r.getClaims()));
        r.setLimits(quantities(r.getLimits()));
        r.setRequests(quantities(r.getRequests()));
      }
    }
  }

  private static void containerStatuses(List<ContainerStatus> statuses) {
    if (statuses == null) {
      return;
    }
    for (ContainerStatus s : statuses) {
      s.setAdditionalProperties(map(s.getAdditionalProperties()));
      s.setAllocatedResources(quantities(s.getAllocatedResources()));
      s.setAllocatedResourcesStatus(list(s.getAllocatedResourcesStatus()));
      s.setVolumeMounts(list(s.getVolumeMounts()));
      ResourceRequirements r = s.getResources();
      if (r != null) {
        r.setAdditionalProperties(map(r.getAdditionalProperties()));
        r.setClaims(list(r.getClaims()));
        r.setLimits(quantities(r.getLimits()));
        r.setRequests(quantities(r.getRequests()));
      }
    }
  }

  private static Map<String, Quantity> quantities(Map<String, Quantity> quantities) {
    if (quantities == null || quantities.isEmpty()) {
      return map(quantities);
    }
    for (Quantity q : quantities.values()) {
      if (q != null) {
        q.setAdditionalProperties(map(q.getAdditionalProperties()));
      }
    }
    return quantities;
  }

  private static <T> List<T> list(List<T> list) {
    return list != null && list.isEmpty() ? Collections.emptyList() : list;
  }

  private static <K, V> Map<K, V> map(Map<K, V> map) {
    return map != null && map.isEmpty() ? Collections.emptyMap() : map;
  }
}
