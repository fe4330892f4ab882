package io.schedext.testing;

import io.fabric8.kubernetes.api.model.ContainerBuilder;
import io.fabric8.kubernetes.api.model.IntOrString;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodConditionBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.VolumeBuilder;
import java.util.Map;

/**
 * A pod using most of what the model can hold: affinity of every kind, tolerations, topology
 * spread, volumes of several sources, resources and overhead with quantities, probes with named and
 * numbered ports, owner references, status conditions and a field the model does not know. For
 * checks that a mapper decodes and encodes the whole model as another one does.
 */
public final class RichPod {

  private RichPod() {}

  /**
   * A pod with every field a scheduling plugin reads (requests and limits, overhead, a host port, a
   * toleration, node selector and affinity, pod affinity and anti-affinity, a claim, an owner, a
   * start time), built as the plugins' tests build pods; a new instance on every call.
   */
  public static Pod schedulingFields() {
    return MakePod.pod()
        .name("p")
        .namespace("ns")
        .uid("u")
        .node("n1")
        .label("app", "a")
        .priority(100)
        .req(Map.of("cpu", "1500m", "memory", "1Gi"))
        .reqLim(Map.of("cpu", "1"), Map.of("cpu", "2"))
        .overhead(Map.of("cpu", "10m"))
        .hostPort("TCP", "", 8080)
        .toleration("k", "Equal", "v", "NoSchedule")
        .nodeSelector(Map.of("disk", "ssd"))
        .nodeAffinityTerm("zone", "In", "z1", "z2")
        .preferredNodeAffinity(5, "type", "NotIn", "spot")
        .podAntiAffinityIn("kubernetes.io/hostname", "app", "a")
        .preferredPodAffinityIn(20, "zone", "tier", "web")
        .pvc("data")
        .owner("ReplicaSet", "rs")
        .startTime("2026-11-01T00:00:00Z")
        .obj();
  }

  /** The pod; a new instance on every call. */
  public static Pod pod() {
    Pod pod =
        MakePod.pod()
            .name("rich")
            .namespace("ns")
            .uid("u-1")
            .node("n1")
            .label("app", "web")
            .annotation("note", "a \"quoted\" value")
            .priority(1000)
            .schedulerName("default-scheduler")
            .preemptionPolicy("Never")
            .creationTimestamp("2026-11-01T00:00:00Z")
            .startTime("2026-11-01T00:00:05Z")
            .owner("ReplicaSet", "web-7d9f")
            .reqLim(
                Map.of("cpu", "1500m", "memory", "1.5Gi", "ephemeral-storage", "2e9"),
                Map.of("cpu", "2", "memory", "2Gi", "nvidia.com/gpu", "1"))
            .initReq(Map.of("cpu", "100m"))
            .overhead(Map.of("cpu", "10m", "memory", "64Mi"))
            .hostPort("TCP", "10.0.0.1", 8080)
            .toleration("dedicated", "Equal", "web", "NoSchedule")
            .toleration("node.kubernetes.io/not-ready", "Exists", null, "NoExecute")
            .nodeSelector(Map.of("disk", "ssd"))
            .nodeAffinityTerm("zone", "In", "z1", "z2")
            .nodeFieldTerm("metadata.name", "NotIn", "n9")
            .preferredNodeAffinity(5, "type", "NotIn", "spot")
            .podAffinityIn("zone", "tier", "db")
            .podAntiAffinityExists("kubernetes.io/hostname", "app")
            .preferredPodAffinityIn(20, "zone", "tier", "cache")
            .preferredPodAntiAffinityIn(30, "kubernetes.io/hostname", "app", "web")
            .spreadConstraint(1, "zone", "DoNotSchedule", PodWrapper.existsSelector("app"))
            .spreadConstraint(
                2, "kubernetes.io/hostname", "ScheduleAnyway", PodWrapper.existsSelector("app"))
            .pvc("data")
            .volume(
                new VolumeBuilder()
                    .withName("scratch")
                    .withNewEmptyDir()
                    .withMedium("Memory")
                    .withSizeLimit(new Quantity("256Mi"))
                    .endEmptyDir()
                    .build())
            .volume(
                new VolumeBuilder()
                    .withName("config")
                    .withNewConfigMap()
                    .withName("web-config")
                    .withDefaultMode(0644)
                    .withOptional(true)
                    .addNewItem()
                    .withKey("app.yaml")
                    .withPath("app.yaml")
                    .endItem()
                    .endConfigMap()
                    .build())
            .volume(
                new VolumeBuilder()
                    .withName("host")
                    .withNewHostPath()
                    .withPath("/var/log")
                    .withType("Directory")
                    .endHostPath()
                    .build())
            .obj();
    pod.getSpec()
        .getContainers()
        .add(
            new ContainerBuilder()
                .withName("sidecar")
                .withImage("proxy:1")
                .withArgs("--port", "15001")
                .addNewEnv()
                .withName("POD_IP")
                .withNewValueFrom()
                .withNewFieldRef()
                .withFieldPath("status.podIP")
                .endFieldRef()
                .endValueFrom()
                .endEnv()
                .addNewPort()
                .withName("proxy")
                .withContainerPort(15001)
                .endPort()
                .withNewReadinessProbe()
                .withNewHttpGet()
                .withPath("/ready")
                .withPort(new IntOrString("proxy"))
                .endHttpGet()
                .withPeriodSeconds(5)
                .endReadinessProbe()
                .withNewLivenessProbe()
                .withNewTcpSocket()
                .withPort(new IntOrString(15001))
                .endTcpSocket()
                .endLivenessProbe()
                .withNewSecurityContext()
                .withRunAsUser(1337L)
                .withReadOnlyRootFilesystem(true)
                .withNewCapabilities()
                .addToDrop("ALL")
                .endCapabilities()
                .endSecurityContext()
                .withNewResources()
                .addToRequests("cpu", new Quantity("50m"))
                .addToLimits("memory", new Quantity("128Mi"))
                .endResources()
                .build());
    pod.getSpec().setTerminationGracePeriodSeconds(30L);
    pod.getSpec().setEnableServiceLinks(false);
    pod.getSpec().setAdditionalProperty("futureField", Map.of("enabled", true, "level", 3));
    pod.getStatus().setPhase("Running");
    pod.getStatus().setPodIP("10.1.2.3");
    pod.getStatus()
        .getConditions()
        .add(
            new PodConditionBuilder()
                .withType("Ready")
                .withStatus("True")
                .withLastTransitionTime("2026-11-01T00:00:10Z")
                .build());
    return pod;
  }
}
