package io.schedext.warmup;

import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.PodStatus;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.VolumeBuilder;
import io.fabric8.kubernetes.api.model.VolumeMountBuilder;
import io.schedext.cache.Snapshot;
import io.schedext.extender.WireCodec;
import io.schedext.framework.NodeInfo;
import io.schedext.framework.PodInfo;
import io.schedext.kube.ManagedFields;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The pending pods the warm-up ({@link WarmUp}) asks to place: copies of pods the cluster already
 * runs, made pending again, so that its calls take the branches real pods take; synthetic ones for
 * a cluster that runs none.
 */
final class WarmUpPods {

  private WarmUpPods() {}

  /**
   * The pods to warm up with: up to {@code count} pods already placed in {@code snapshot}, each of
   * another namespace or set of labels and neither static nor a DaemonSet's, made pending again
   * ({@link #pendingCopy}, decoded and encoded by {@code codec}); {@code count} synthetic ones
   * ({@link #pod}) when the cluster has none. Taken from nodes spread over the snapshot, starting
   * one node further for each {@code instance} of the warm-up ({@link WarmUp.Instance}), so that
   * each instance's pods are others, named and numbered after it.
   */
  static List<Pod> pendingLike(Snapshot snapshot, WireCodec codec, int count, int instance) {
    List<NodeInfo> nodes = snapshot.list();
    List<Pod> out = new ArrayList<>(count);
    Set<List<Object>> shapes = new HashSet<>();
    int step = Math.max(1, nodes.size() / (count * 4));
    int first = nodes.isEmpty() ? 0 : instance % nodes.size();
    for (int n = 0; n < nodes.size() && out.size() < count; n += step) {
      for (PodInfo placed : nodes.get((first + n) % nodes.size()).pods()) {
        Pod pod = placed.pod();
        if (typical(pod)
            && shapes.add(
                Arrays.asList(pod.getMetadata().getNamespace(), pod.getMetadata().getLabels()))) {
          out.add(pendingCopy(codec, pod, instance * count + out.size()));
          break;
        }
      }
    }
    if (out.isEmpty()) {
      for (int i = 0; i < count; i++) {
        out.add(pod(instance * count + i));
      }
    }
    return out;
  }

  /**
   * Whether {@code pod} is like most pods kube-scheduler places: not a node's static pod (its
   * mirror never goes through a scheduler) and not a DaemonSet's (pinned to one node by affinity,
   * and on every node, so it would be the first pod found almost everywhere).
   */
  private static boolean typical(Pod pod) {
    Map<String, String> annotations = pod.getMetadata().getAnnotations();
    if (annotations != null && annotations.containsKey(MIRROR_ANNOTATION)) {
      return false;
    }
    List<OwnerReference> owners = pod.getMetadata().getOwnerReferences();
    if (owners != null) {
      for (OwnerReference o : owners) {
        if ("DaemonSet".equals(o.getKind()) || "Node".equals(o.getKind())) {
          return false;
        }
      }
    }
    return true;
  }

  /** The UID of warm-up pod {@code i}: a fixed prefix and {@code i}, never a real pod's. */
  static String uid(int i) {
    return String.format("00000000-0000-0000-0000-%012d", i);
  }

  /** The annotation the kubelet puts on the mirror pod of a static pod. */
  static final String MIRROR_ANNOTATION = "kubernetes.io/config.mirror";

  /**
   * A copy of {@code placed} as kube-scheduler would send it before placing it: a name and UID of
   * the warm-up's own ({@code i}), no node, status pending, and the managed fields the cache drops.
   * Namespace, labels, owners and the whole spec are kept.
   */
  private static Pod pendingCopy(WireCodec codec, Pod placed, int i) {
    Pod pod = codec.decode(codec.encode(placed), Pod.class);
    pod.getMetadata().setName("extender-warm-up-" + i);
    pod.getMetadata().setUid(uid(i));
    pod.getMetadata().setResourceVersion("1");
    pod.getSpec().setNodeName(null);
    PodStatus status = new PodStatus();
    status.setPhase("Pending");
    status.setQosClass(placed.getStatus() == null ? null : placed.getStatus().getQosClass());
    pod.setStatus(status);
    // The cache keeps no managed fields; kube-scheduler sends them with every pod.
    pod.getMetadata().setManagedFields(List.of(ManagedFields.createdBy(pod)));
    return pod;
  }

  /**
   * Synthetic pending pod {@code i}: the fields the API server gives a pod created from a one-line
   * manifest, managed fields included, as kube-scheduler sends it. Their requests differ, as real
   * pods' do, so that the resource plugins' branches for each are compiled: 100m CPU and 128Mi for
   * even {@code i}, 100m CPU alone for {@code i} of 1 modulo 4, nothing (best effort) for 3 modulo
   * 4. Even ones have the service account's token volume and 3 modulo 4 no labels, as both kinds
   * are common.
   */
  static Pod pod(int i) {
    Map<String, Quantity> requests =
        switch (i % 4) {
          case 1 -> Map.of("cpu", new Quantity("100m"));
          case 3 -> Map.of();
          default -> Map.of("cpu", new Quantity("100m"), "memory", new Quantity("128Mi"));
        };
    Pod pod =
        new PodBuilder()
            .withNewMetadata()
            .withName("extender-warm-up-" + i)
            .withNamespace("default")
            .withUid(uid(i))
            .withResourceVersion("1")
            .withCreationTimestamp("2024-01-01T00:00:00Z")
            .withLabels(i % 4 == 3 ? null : Map.of("app", "extender-warm-up"))
            .endMetadata()
            .withNewSpec()
            .addNewContainer()
            .withName("main")
            .withImage("registry.k8s.io/pause:3.9")
            .withImagePullPolicy("IfNotPresent")
            .withTerminationMessagePath("/dev/termination-log")
            .withTerminationMessagePolicy("File")
            .withNewResources()
            .withRequests(requests)
            .endResources()
            .endContainer()
            .withRestartPolicy("Always")
            .withTerminationGracePeriodSeconds(30L)
            .withDnsPolicy("ClusterFirst")
            .withServiceAccountName("default")
            .withServiceAccount("default")
            .withNewSecurityContext()
            .endSecurityContext()
            .withSchedulerName("default-scheduler")
            .withPriority(0)
            .withEnableServiceLinks(true)
            .withPreemptionPolicy("PreemptLowerPriority")
            .addNewToleration()
            .withKey("node.kubernetes.io/not-ready")
            .withOperator("Exists")
            .withEffect("NoExecute")
            .withTolerationSeconds(300L)
            .endToleration()
            .addNewToleration()
            .withKey("node.kubernetes.io/unreachable")
            .withOperator("Exists")
            .withEffect("NoExecute")
            .withTolerationSeconds(300L)
            .endToleration()
            .endSpec()
            .withNewStatus()
            .withPhase("Pending")
            .withQosClass(requests.isEmpty() ? "BestEffort" : "Burstable")
            .endStatus()
            .build();
    if (i % 2 == 0) {
      serviceAccountToken(pod);
    }
    pod.getMetadata().setManagedFields(List.of(ManagedFields.createdBy(pod)));
    return pod;
  }

  /**
   * Gives {@code pod} the volume (and its mount) through which the API server's ServiceAccount
   * admission hands a pod its token, where it runs: most clusters' pods have it.
   */
  private static void serviceAccountToken(Pod pod) {
    String name =
        "kube-api-access-" + Math.floorMod(pod.getMetadata().getName().hashCode(), 100_000);
    pod.getSpec()
        .setVolumes(
            List.of(
                new VolumeBuilder()
                    .withName(name)
                    .withNewProjected()
                    .withDefaultMode(420)
                    .addNewSource()
                    .withNewServiceAccountToken()
                    .withExpirationSeconds(3607L)
                    .withPath("token")
                    .endServiceAccountToken()
                    .endSource()
                    .addNewSource()
                    .withNewConfigMap()
                    .withName("kube-root-ca.crt")
                    .addNewItem()
                    .withKey("ca.crt")
                    .withPath("ca.crt")
                    .endItem()
                    .endConfigMap()
                    .endSource()
                    .addNewSource()
                    .withNewDownwardAPI()
                    .addNewItem()
                    .withPath("namespace")
                    .withNewFieldRef()
                    .withApiVersion("v1")
                    .withFieldPath("metadata.namespace")
                    .endFieldRef()
                    .endItem()
                    .endDownwardAPI()
                    .endSource()
                    .endProjected()
                    .build()));
    pod.getSpec()
        .getContainers()
        .get(0)
        .setVolumeMounts(
            List.of(
                new VolumeMountBuilder()
                    .withName(name)
                    .withMountPath("/var/run/secrets/kubernetes.io/serviceaccount")
                    .withReadOnly(true)
                    .build()));
  }
}
