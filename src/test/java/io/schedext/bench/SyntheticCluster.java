package io.schedext.bench;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Namespace;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeSelectorBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.ServiceBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.Device;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceAttributeBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceCapacityBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceClassBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceRequestAllocationResult;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceRequestAllocationResultBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaimBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceSliceBuilder;
import io.schedext.testing.MakeNode;
import io.schedext.testing.MakePod;
import io.schedext.testing.NodeWrapper;
import io.schedext.testing.PodWrapper;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;

/**
 * A reproducible synthetic cluster for benchmarks and randomized tests: nodes in five zones with
 * labels, some taints and images; pods per node with a realistic mix of requests, some with pod
 * (anti-)affinity and topology spread; Services selecting the apps; a GPU pool (a DeviceClass, one
 * ResourceSlice of {@value #GPUS_PER_NODE} devices per node: every fourth node's are 16Gi devices,
 * the rest 80Gi; every fifth node's devices all allocated to a claim); and the pending pods to
 * schedule, one per {@link Kind}.
 */
public final class SyntheticCluster {

  /** The kinds of pod a benchmark schedules. */
  public enum Kind {
    /** Requests only. */
    PLAIN,
    /** Required and preferred node affinity. */
    NODE_AFFINITY,
    /** Required pod anti-affinity and preferred pod affinity. */
    POD_AFFINITY,
    /** A hard zone spread and a soft hostname spread. */
    SPREAD,
    /** Requests and one ResourceClaim for a device of the GPU pool with 40Gi or more. */
    CLAIM
  }

  /** The made-up driver of the GPU pool, also its DeviceClass's name. */
  public static final String GPU_DRIVER = "gpu.example.com";

  /** Devices every node's ResourceSlice publishes. */
  public static final int GPUS_PER_NODE = 8;

  /** The unallocated claims the {@link Kind#CLAIM} pods take in turn, in namespace ns-1. */
  static final int PENDING_CLAIMS = 8;

  static final String[] INSTANCE_TYPES = {"m.xlarge", "m.2xlarge", "c.4xlarge"};
  static final int APPS = 200;
  static final int ZONES = 5;

  private final List<Node> nodes = new ArrayList<>();
  private final List<Pod> pods = new ArrayList<>();
  private final List<HasMetadata> others = new ArrayList<>();

  private SyntheticCluster() {}

  /** Builds {@code nodeCount} nodes with {@code podsPerNode} pods each, from {@code seed}. */
  public static SyntheticCluster build(int nodeCount, int podsPerNode, long seed) {
    SyntheticCluster c = new SyntheticCluster();
    Random r = new Random(seed);
    for (int ns = 0; ns < 10; ns++) {
      Namespace n =
          new NamespaceBuilder()
              .withNewMetadata()
              .withName("ns-" + ns)
              .addToLabels("kubernetes.io/metadata.name", "ns-" + ns)
              .addToLabels("team", "t" + (ns % 3))
              .endMetadata()
              .build();
      c.others.add(n);
    }
    for (int a = 0; a < APPS; a++) {
      Service s =
          new ServiceBuilder()
              .withNewMetadata()
              .withName("app-" + a)
              .withNamespace("ns-" + (a % 10))
              .endMetadata()
              .withNewSpec()
              .addToSelector("app", "app-" + a)
              .endSpec()
              .build();
      c.others.add(s);
    }
    for (int i = 0; i < nodeCount; i++) {
      String name = String.format("node-%05d", i);
      NodeWrapper w =
          MakeNode.node()
              .name(name)
              .label("kubernetes.io/hostname", name)
              .label("topology.kubernetes.io/region", "region-1")
              .label("topology.kubernetes.io/zone", "zone-" + (i % ZONES))
              .label("node.kubernetes.io/instance-type", INSTANCE_TYPES[i % INSTANCE_TYPES.length])
              .label("disktype", i % 3 == 0 ? "ssd" : "hdd")
              .capacity(
                  Map.of(
                      "cpu", "32", "memory", "128Gi", "pods", "110", "ephemeral-storage", "500Gi"))
              .resourceVersion("1");
      if (i % 20 == 7) {
        w.taint("dedicated", "gpu", "NoSchedule");
      }
      if (i % 10 == 3) {
        w.taint("maintenance", "soon", "PreferNoSchedule");
      }
      for (int k = 0; k < 8; k++) {
        int img = (i * 7 + k * 13) % 50;
        w.image(
            50L * 1024 * 1024 + img * 10L * 1024 * 1024, "registry.example/img-" + img + ":1.0");
      }
      c.nodes.add(w.obj());
      for (int p = 0; p < podsPerNode; p++) {
        c.pods.add(runningPod(r, name, i, p));
      }
    }
    gpuPool(c, nodeCount);
    return c;
  }

  /**
   * The GPU pool: built from the node index alone, so the nodes and running pods are what they were
   * before the pool was added.
   */
  private static void gpuPool(SyntheticCluster c, int nodeCount) {
    c.others.add(
        new DeviceClassBuilder()
            .withNewMetadata()
            .withName(GPU_DRIVER)
            .endMetadata()
            .withNewSpec()
            .addNewSelector()
            .withNewCel()
            .withExpression("device.driver == \"" + GPU_DRIVER + "\"")
            .endCel()
            .endSelector()
            .endSpec()
            .build());
    for (int i = 0; i < nodeCount; i++) {
      String node = String.format("node-%05d", i);
      boolean small = i % 4 == 0;
      List<Device> devices = new ArrayList<>();
      for (int d = 0; d < GPUS_PER_NODE; d++) {
        devices.add(
            new DeviceBuilder()
                .withName("gpu-" + d)
                .addToAttributes(
                    "model", new DeviceAttributeBuilder().withString(small ? "t4" : "h100").build())
                .addToCapacity(
                    "memory",
                    new DeviceCapacityBuilder()
                        .withValue(new Quantity(small ? "16Gi" : "80Gi"))
                        .build())
                .build());
      }
      c.others.add(
          new ResourceSliceBuilder()
              .withNewMetadata()
              .withName(node + "-" + GPU_DRIVER)
              .withResourceVersion("1")
              .endMetadata()
              .withNewSpec()
              .withDriver(GPU_DRIVER)
              .withNodeName(node)
              .withNewPool()
              .withName(node)
              .withGeneration(1L)
              .withResourceSliceCount(1L)
              .endPool()
              .withDevices(devices)
              .endSpec()
              .build());
      if (i % 5 == 2) {
        c.others.add(allocatedClaim(node, "busy-" + i));
      }
    }
    for (int k = 0; k < PENDING_CLAIMS; k++) {
      c.others.add(
          new ResourceClaimBuilder()
              .withNewMetadata()
              .withName("gpu-" + k)
              .withNamespace("ns-1")
              .withUid("claim-gpu-" + k)
              .withResourceVersion("1")
              .endMetadata()
              .withNewSpec()
              .withNewDevices()
              .addNewRequest()
              .withName("gpu")
              .withNewExactly()
              .withDeviceClassName(GPU_DRIVER)
              .withAllocationMode("ExactCount")
              .withCount(1L)
              .addNewSelector()
              .withNewCel()
              .withExpression(
                  "device.capacity[\""
                      + GPU_DRIVER
                      + "\"].memory.compareTo(quantity(\"40Gi\")) >= 0")
              .endCel()
              .endSelector()
              .endExactly()
              .endRequest()
              .endDevices()
              .endSpec()
              .build());
    }
  }

  /** A claim in ns-2 holding every device of {@code node}. */
  private static ResourceClaim allocatedClaim(String node, String name) {
    List<DeviceRequestAllocationResult> results = new ArrayList<>();
    for (int d = 0; d < GPUS_PER_NODE; d++) {
      results.add(
          new DeviceRequestAllocationResultBuilder()
              .withRequest("gpus")
              .withDriver(GPU_DRIVER)
              .withPool(node)
              .withDevice("gpu-" + d)
              .build());
    }
    return new ResourceClaimBuilder()
        .withNewMetadata()
        .withName(name)
        .withNamespace("ns-2")
        .withUid("claim-" + name)
        .withResourceVersion("1")
        .endMetadata()
        .withNewSpec()
        .withNewDevices()
        .addNewRequest()
        .withName("gpus")
        .withNewExactly()
        .withDeviceClassName(GPU_DRIVER)
        .withAllocationMode("All")
        .endExactly()
        .endRequest()
        .endDevices()
        .endSpec()
        .withNewStatus()
        .withNewAllocation()
        .withNewDevices()
        .withResults(results)
        .endDevices()
        .withNodeSelector(
            new NodeSelectorBuilder()
                .addNewNodeSelectorTerm()
                .addNewMatchField()
                .withKey("metadata.name")
                .withOperator("In")
                .withValues(node)
                .endMatchField()
                .endNodeSelectorTerm()
                .build())
        .endAllocation()
        .endStatus()
        .build();
  }

  private static Pod runningPod(Random r, String node, int i, int p) {
    int app = r.nextInt(APPS);
    PodWrapper w =
        MakePod.pod()
            .name("pod-" + i + "-" + p)
            .namespace("ns-" + (app % 10))
            .uid("uid-" + i + "-" + p)
            .node(node)
            .label("app", "app-" + app)
            .label("tier", r.nextBoolean() ? "web" : "backend")
            .priority(r.nextInt(4) * 1000)
            .startTime("2026-11-01T00:00:00Z")
            .req(
                Map.of(
                    "cpu",
                    (100 + r.nextInt(1900)) + "m",
                    "memory",
                    (128 + r.nextInt(3968)) + "Mi"));
    int roll = r.nextInt(100);
    if (roll < 10) {
      w.preferredPodAntiAffinityIn(50, "kubernetes.io/hostname", "app", "app-" + app);
    } else if (roll < 13) {
      w.podAntiAffinityIn("kubernetes.io/hostname", "app", "app-" + app);
    } else if (roll < 23) {
      w.spreadConstraint(
          1, "topology.kubernetes.io/zone", "ScheduleAnyway", selector("app", "app-" + app));
    }
    if (roll % 17 == 0) {
      w.hostPort("TCP", "", 9000 + r.nextInt(20));
    }
    Pod pod = w.obj();
    pod.getStatus().setPhase("Running");
    return pod;
  }

  private static io.fabric8.kubernetes.api.model.LabelSelector selector(String k, String v) {
    io.fabric8.kubernetes.api.model.LabelSelector s =
        new io.fabric8.kubernetes.api.model.LabelSelector();
    s.setMatchLabels(Map.of(k, v));
    return s;
  }

  /** A pending pod of the given kind, unique by {@code index}. */
  public static Pod pending(Kind kind, int index) {
    PodWrapper w =
        MakePod.pod()
            .name(kind.name().toLowerCase() + "-" + index)
            .namespace("ns-1")
            .uid("pending-" + kind + "-" + index)
            .label("app", "app-1")
            .label("tier", "web")
            .req(Map.of("cpu", "500m", "memory", "1Gi"));
    switch (kind) {
      case PLAIN -> {}
      case NODE_AFFINITY ->
          w.nodeAffinityTerm("node.kubernetes.io/instance-type", "In", "m.xlarge", "m.2xlarge")
              .preferredNodeAffinity(10, "disktype", "In", "ssd");
      case POD_AFFINITY ->
          w.podAntiAffinityIn("kubernetes.io/hostname", "app", "app-1")
              .preferredPodAffinityIn(20, "topology.kubernetes.io/zone", "tier", "web");
      case SPREAD ->
          w.spreadConstraint(
                  1, "topology.kubernetes.io/zone", "DoNotSchedule", selector("app", "app-1"))
              .spreadConstraint(
                  1, "kubernetes.io/hostname", "ScheduleAnyway", selector("app", "app-1"));
      case CLAIM -> w.resourceClaim("gpu", "gpu-" + (index % PENDING_CLAIMS));
      default -> throw new IllegalArgumentException(kind.name());
    }
    Pod p = w.obj();
    p.getStatus().setPhase("Pending");
    return p;
  }

  /** The nodes. */
  public List<Node> nodes() {
    return nodes;
  }

  /** The running pods. */
  public List<Pod> pods() {
    return pods;
  }

  /** Everything, nodes first, as a cluster file would list it. */
  public List<HasMetadata> objects() {
    List<HasMetadata> all = new ArrayList<>(others.size() + nodes.size() + pods.size());
    all.addAll(others);
    all.addAll(nodes);
    all.addAll(pods);
    return all;
  }
}
