package io.schedext.plugins.volumebinding;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.PersistentVolume;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaim;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaimBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.schedext.cluster.ObjectStore;
import io.schedext.framework.CycleState;
import io.schedext.framework.NodeInfo;
import io.schedext.framework.PluginArgs;
import io.schedext.framework.PodInfo;
import io.schedext.framework.PreFilterResult;
import io.schedext.framework.Status;
import io.schedext.plugins.Names;
import io.schedext.testing.MakeNode;
import io.schedext.testing.MakePod;
import io.schedext.testing.NodeWrapper;
import io.schedext.testing.PodWrapper;
import io.schedext.testing.TestFrameworks;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Upstream's volume_binding_test.go TestVolumeBinding (PreFilter, state and Filter; scores need a
 * feature gate).
 */
class VolumeBindingTest {

  static final String IMMEDIATE_SC = "immediate-sc";
  static final String WAIT_SC = "wait-sc";
  static final String WAIT_HDD_SC = "wait-hdd-sc";
  static final String HOSTNAME = "kubernetes.io/hostname";
  static final String REGION = "topology.kubernetes.io/region";
  static final String ZONE = "topology.kubernetes.io/zone";

  static final Status BIND_CONFLICT =
      Status.unresolvable(VolumeFinder.ERR_REASON_BIND_CONFLICT).withPlugin(Names.VOLUME_BINDING);

  /**
   * One row: the pod, nodes and objects; the expected PreFilter result, the claims it classified
   * (null = not checked) and the Filter status per node when PreFilter succeeded.
   */
  record Case(
      String name,
      PodInfo pod,
      List<NodeInfo> nodes,
      List<PersistentVolumeClaim> pvcs,
      List<PersistentVolume> pvs,
      String args,
      PreFilterResult wantPreFilter,
      PodVolumeClaims wantClaims,
      List<Status> wantFilter) {
    @Override
    public String toString() {
      return name;
    }
  }

  static PodInfo pod(String... claims) {
    PodWrapper w = MakePod.pod().name("pod-a");
    for (String c : claims) {
      w.pvc(c);
    }
    return w.info();
  }

  /** A node labelled with its hostname, as upstream's test makeNode. */
  static NodeInfo node(String name, String... labels) {
    NodeWrapper w = MakeNode.node().name(name).label(HOSTNAME, name);
    for (int i = 0; i < labels.length; i += 2) {
      w.label(labels[i], labels[i + 1]);
    }
    return w.info();
  }

  static PersistentVolumeClaimBuilder pvc(String name, String className) {
    return new PersistentVolumeClaimBuilder()
        .withNewMetadata()
        .withName(name)
        .withNamespace("default")
        .endMetadata()
        .withNewSpec()
        .withStorageClassName(className)
        .endSpec();
  }

  static PersistentVolumeClaim unbound(String name, String className) {
    return pvc(name, className).build();
  }

  static PersistentVolumeClaim unbound(String name, String className, String request) {
    return pvc(name, className)
        .editSpec()
        .withNewResources()
        .addToRequests("storage", new Quantity(request))
        .endResources()
        .endSpec()
        .build();
  }

  static PersistentVolumeClaim bound(String name, String className, String pv) {
    return pvc(name, className)
        .editSpec()
        .withVolumeName(pv)
        .endSpec()
        .editMetadata()
        .addToAnnotations("pv.kubernetes.io/bind-completed", "yes")
        .endMetadata()
        .build();
  }

  static PersistentVolume pv(
      String name, String className, String capacity, String phase, String... affinity) {
    Map<String, String> a = new LinkedHashMap<>();
    for (int i = 0; i < affinity.length; i += 2) {
      a.put(affinity[i], affinity[i + 1]);
    }
    return Fixtures.volumeWithAffinity(name, className, capacity, phase, a);
  }

  static PodVolumeClaims claims(
      List<PersistentVolumeClaim> bound,
      List<PersistentVolumeClaim> delayed,
      Map<String, List<PersistentVolume>> byClass) {
    return new PodVolumeClaims(bound, delayed, List.of(), byClass);
  }

  static Status unresolvable(String reason) {
    return Status.unresolvable(reason).withPlugin(Names.VOLUME_BINDING);
  }

  static Case rejectedAtPreFilter(
      String name,
      PodInfo pod,
      List<PersistentVolumeClaim> pvcs,
      List<PersistentVolume> pvs,
      Status status) {
    return new Case(
        name,
        pod,
        List.of(node("node-a")),
        pvcs,
        pvs,
        null,
        PreFilterResult.of(status),
        null,
        null);
  }

  static Stream<Case> cases() {
    PersistentVolumeClaim pvcABound = bound("pvc-a", WAIT_SC, "pv-a");
    PersistentVolumeClaim pvcA = unbound("pvc-a", WAIT_SC);
    PersistentVolumeClaim pvcB = unbound("pvc-b", WAIT_SC);
    PersistentVolume pvAFooBar = pv("pv-a", WAIT_SC, null, "Available", "foo", "bar");
    PersistentVolumeClaim pvcA50 = unbound("pvc-a", WAIT_SC, "50Gi");
    PersistentVolumeClaim pvc0 = unbound("pvc-0", WAIT_SC, "50Gi");
    PersistentVolumeClaim pvc1 = unbound("pvc-1", WAIT_HDD_SC, "100Gi");
    List<PersistentVolume> localPvs =
        List.of(
            pv("pv-a-0", WAIT_SC, "200Gi", "Available", HOSTNAME, "node-a"),
            pv("pv-a-1", WAIT_SC, "200Gi", "Available", HOSTNAME, "node-a"),
            pv("pv-b-0", WAIT_SC, "100Gi", "Available", HOSTNAME, "node-b"),
            pv("pv-b-1", WAIT_SC, "100Gi", "Available", HOSTNAME, "node-b"));
    List<PersistentVolume> localHddPvs =
        List.of(
            pv("pv-a-2", WAIT_HDD_SC, "200Gi", "Available", HOSTNAME, "node-a"),
            pv("pv-a-3", WAIT_HDD_SC, "200Gi", "Available", HOSTNAME, "node-a"),
            pv("pv-b-2", WAIT_HDD_SC, "100Gi", "Available", HOSTNAME, "node-b"),
            pv("pv-b-3", WAIT_HDD_SC, "100Gi", "Available", HOSTNAME, "node-b"));
    List<PersistentVolume> allLocal = new ArrayList<>(localPvs);
    allLocal.addAll(localHddPvs);
    List<NodeInfo> threeNodes = List.of(node("node-a"), node("node-b"), node("node-c"));
    List<PersistentVolume> zonalPvs =
        List.of(
            pv("pv-a-0", WAIT_SC, "200Gi", "Available", REGION, "region-a", ZONE, "zone-a"),
            pv("pv-a-1", WAIT_SC, "200Gi", "Available", REGION, "region-a", ZONE, "zone-a"),
            pv("pv-b-0", WAIT_SC, "100Gi", "Available", REGION, "region-b", ZONE, "zone-b"),
            pv("pv-b-1", WAIT_SC, "100Gi", "Available", REGION, "region-b", ZONE, "zone-b"));
    List<NodeInfo> zonalNodes = new ArrayList<>();
    for (String z : List.of("a", "b", "c")) {
      for (String n : List.of("a", "b")) {
        zonalNodes.add(node("zone-" + z + "-node-" + n, REGION, "region-" + z, ZONE, "zone-" + z));
      }
    }
    List<Status> zonalFilter =
        List.of(
            Status.success(),
            Status.success(),
            Status.success(),
            Status.success(),
            BIND_CONFLICT,
            BIND_CONFLICT);
    PersistentVolumeClaim lost =
        new PersistentVolumeClaimBuilder(pvcABound)
            .withNewStatus()
            .withPhase("Lost")
            .endStatus()
            .build();
    PersistentVolumeClaim deleting =
        new PersistentVolumeClaimBuilder(pvcABound)
            .editMetadata()
            .withDeletionTimestamp("2026-01-01T00:00:00Z")
            .endMetadata()
            .build();
    return Stream.of(
        new Case(
            "a pod without claims is skipped",
            MakePod.pod().name("pod-a").info(),
            List.of(node("node-a")),
            List.of(),
            List.of(),
            null,
            PreFilterResult.of(Status.skip()),
            null,
            null),
        new Case(
            "all claims bound fits",
            pod("pvc-a"),
            List.of(node("node-a")),
            List.of(pvcABound),
            List.of(pv("pv-a", WAIT_SC, null, "Available")),
            null,
            PreFilterResult.success(),
            claims(List.of(pvcABound), List.of(), Map.of()),
            List.of(Status.success())),
        new Case(
            "bound local volumes narrow no nodes: Filter checks their host",
            pod("pvc-a", "pvc-b"),
            List.of(node("node-a"), node("node-b")),
            List.of(pvcABound, bound("pvc-b", WAIT_SC, "pv-b")),
            List.of(
                pv("pv-a", WAIT_SC, null, "Bound", HOSTNAME, "node-a"),
                pv("pv-b", WAIT_SC, null, "Bound", HOSTNAME, "node-a")),
            null,
            PreFilterResult.success(),
            claims(List.of(pvcABound, bound("pvc-b", WAIT_SC, "pv-b")), List.of(), Map.of()),
            List.of(Status.success(), unresolvable(VolumeFinder.ERR_REASON_NODE_CONFLICT))),
        rejectedAtPreFilter(
            "a missing claim is unresolvable",
            pod("pvc-a"),
            List.of(),
            List.of(),
            unresolvable("persistentvolumeclaim \"pvc-a\" not found")),
        rejectedAtPreFilter(
            "the first missing claim is named",
            pod("pvc-a", "pvc-b"),
            List.of(pvcABound),
            List.of(),
            unresolvable("persistentvolumeclaim \"pvc-b\" not found")),
        rejectedAtPreFilter(
            "unbound immediate claims are unresolvable",
            pod("pvc-a"),
            List.of(unbound("pvc-a", IMMEDIATE_SC)),
            List.of(),
            unresolvable(VolumeBinding.ERR_REASON_UNBOUND_IMMEDIATE)),
        new Case(
            "an unbound claim without volumes or provisioner cannot bind",
            pod("pvc-a"),
            List.of(node("node-a")),
            List.of(pvcA),
            List.of(),
            null,
            PreFilterResult.success(),
            claims(List.of(), List.of(pvcA), Map.of(WAIT_SC, List.of())),
            List.of(BIND_CONFLICT)),
        new Case(
            "a bound volume elsewhere and an unmatched claim report both reasons",
            pod("pvc-a", "pvc-b"),
            List.of(node("node-a", "foo", "barbar")),
            List.of(pvcABound, pvcB),
            List.of(pvAFooBar),
            null,
            PreFilterResult.success(),
            claims(List.of(pvcABound), List.of(pvcB), Map.of(WAIT_SC, List.of(pvAFooBar))),
            List.of(
                Status.unresolvable(
                        VolumeFinder.ERR_REASON_NODE_CONFLICT,
                        VolumeFinder.ERR_REASON_BIND_CONFLICT)
                    .withPlugin(Names.VOLUME_BINDING))),
        new Case(
            "a claim bound to a missing volume is reported at Filter",
            pod("pvc-a"),
            List.of(node("node-a")),
            List.of(pvcABound),
            List.of(),
            null,
            PreFilterResult.success(),
            claims(List.of(pvcABound), List.of(), Map.of()),
            List.of(unresolvable(VolumeFinder.ERR_REASON_PV_NOT_EXIST))),
        rejectedAtPreFilter(
            "a lost claim is unresolvable",
            pod("pvc-a"),
            List.of(lost),
            List.of(),
            unresolvable(
                "persistentvolumeclaim \"pvc-a\" bound to non-existent persistentvolume \"pv-a\"")),
        rejectedAtPreFilter(
            "a claim being deleted is unresolvable",
            pod("pvc-a"),
            List.of(deleting),
            List.of(),
            unresolvable("persistentvolumeclaim \"pvc-a\" is being deleted")),
        rejectedAtPreFilter(
            "a class without binding mode is an error",
            pod("pvc-a"),
            List.of(unbound("pvc-a", "no-mode-sc")),
            List.of(),
            Status.error("VolumeBindingMode not set for StorageClass \"no-mode-sc\"")
                .withPlugin(Names.VOLUME_BINDING)),
        new Case(
            "local volumes: only nodes holding a large enough volume fit",
            pod("pvc-a"),
            threeNodes,
            List.of(pvcA50),
            localPvs,
            null,
            PreFilterResult.success(),
            claims(List.of(), List.of(pvcA50), Map.of(WAIT_SC, localPvs)),
            List.of(Status.success(), Status.success(), BIND_CONFLICT)),
        new Case(
            "local volumes of two classes: only nodes holding both fit",
            pod("pvc-0", "pvc-1"),
            threeNodes,
            List.of(pvc0, pvc1),
            allLocal,
            null,
            PreFilterResult.success(),
            claims(
                List.of(),
                List.of(pvc0, pvc1),
                Map.of(WAIT_SC, localPvs, WAIT_HDD_SC, localHddPvs)),
            List.of(Status.success(), Status.success(), BIND_CONFLICT)),
        new Case(
            "zonal volumes: nodes of zones without volumes do not fit",
            pod("pvc-a"),
            zonalNodes,
            List.of(pvcA50),
            zonalPvs,
            null,
            PreFilterResult.success(),
            claims(List.of(), List.of(pvcA50), Map.of(WAIT_SC, zonalPvs)),
            zonalFilter),
        new Case(
            "a scoring shape is accepted and does not change filtering",
            pod("pvc-a"),
            zonalNodes,
            List.of(pvcA50),
            zonalPvs,
            "{\"bindTimeoutSeconds\":300,\"shape\":[{\"utilization\":0,\"score\":0},"
                + "{\"utilization\":50,\"score\":3},{\"utilization\":100,\"score\":5}]}",
            PreFilterResult.success(),
            claims(List.of(), List.of(pvcA50), Map.of(WAIT_SC, zonalPvs)),
            zonalFilter),
        new Case(
            "local volumes pinned to different nodes fail Filter on each of them",
            pod("pvc-a", "pvc-b"),
            List.of(node("node-a"), node("node-b")),
            List.of(pvcABound, bound("pvc-b", WAIT_SC, "pv-b")),
            List.of(
                pv("pv-a", WAIT_SC, null, "Bound", HOSTNAME, "node-a"),
                pv("pv-b", WAIT_SC, null, "Bound", HOSTNAME, "node-b")),
            null,
            PreFilterResult.success(),
            null,
            List.of(
                unresolvable(VolumeFinder.ERR_REASON_NODE_CONFLICT),
                unresolvable(VolumeFinder.ERR_REASON_NODE_CONFLICT))),
        new Case(
            "a missing bound volume fails Filter",
            pod("pvc-a", "pvc-b"),
            List.of(node("node-a")),
            List.of(pvcABound, bound("pvc-b", WAIT_SC, "pv-b")),
            List.of(pv("pv-a", WAIT_SC, null, "Bound", HOSTNAME, "node-a")),
            null,
            PreFilterResult.success(),
            null,
            List.of(unresolvable(VolumeFinder.ERR_REASON_PV_NOT_EXIST))));
  }

  static ObjectStore store(Case c) {
    ObjectStore s = new ObjectStore();
    s.put(Fixtures.storageClass(IMMEDIATE_SC, "Immediate", null));
    s.put(Fixtures.storageClass(WAIT_SC, "WaitForFirstConsumer", null));
    s.put(Fixtures.storageClass(WAIT_HDD_SC, "WaitForFirstConsumer", null));
    s.put(Fixtures.storageClass("no-mode-sc", null, null));
    c.pvcs().forEach(s::put);
    c.pvs().forEach(s::put);
    return s;
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void volumeBinding(Case c) {
    PluginArgs args =
        c.args() == null
            ? PluginArgs.none()
            : PluginArgs.of(Names.VOLUME_BINDING, TestFrameworks.json(c.args()));
    VolumeBinding plugin = VolumeBinding.create(args, TestFrameworks.handle(store(c)));
    CycleState state = TestFrameworks.cycleState(c.nodes());

    PreFilterResult pre = plugin.preFilter(state, c.pod());
    assertThat(pre).isEqualTo(c.wantPreFilter());
    if (!pre.status().isSuccess()) {
      return;
    }
    VolumeBindingState s = state.read(VolumeBinding.STATE_KEY, VolumeBindingState.class);
    if (c.wantClaims() != null) {
      assertThat(s.claims().claims()).isEqualTo(c.wantClaims());
    }
    if (c.wantFilter() == null) {
      return;
    }
    List<Status> got = new ArrayList<>();
    for (NodeInfo n : c.nodes()) {
      got.add(plugin.filter(state, c.pod(), n));
    }
    assertThat(got).isEqualTo(c.wantFilter());
  }

  @Test
  void aPodWithoutClaimsLeavesAnEmptyStateForReserve() {
    VolumeBinding plugin =
        VolumeBinding.create(PluginArgs.none(), TestFrameworks.handle(new ObjectStore()));
    CycleState state = TestFrameworks.cycleState(List.of());
    assertThat(plugin.preFilter(state, MakePod.pod().name("p").info()).status())
        .isEqualTo(Status.skip());
    assertThat(state.read(VolumeBinding.STATE_KEY, VolumeBindingState.class).claims()).isNull();
  }

  @Test
  void filterRecordsTheBindingsOfEveryFittingNode() {
    Case c =
        cases().filter(x -> x.name().startsWith("local volumes: only")).findFirst().orElseThrow();
    VolumeBinding plugin = VolumeBinding.create(PluginArgs.none(), TestFrameworks.handle(store(c)));
    CycleState state = TestFrameworks.cycleState(c.nodes());
    plugin.preFilter(state, c.pod());
    c.nodes().forEach(n -> plugin.filter(state, c.pod(), n));
    VolumeBindingState s = state.read(VolumeBinding.STATE_KEY, VolumeBindingState.class);
    PersistentVolumeClaim claim = c.pvcs().get(0);
    assertThat(s.podVolumesByNode())
        .isEqualTo(
            Map.of(
                "node-a",
                    new PodVolumes(List.of(new BindingInfo(claim, c.pvs().get(0))), List.of()),
                "node-b",
                    new PodVolumes(List.of(new BindingInfo(claim, c.pvs().get(2))), List.of())));
    assertThat(s.hasStaticBindings()).isTrue();
  }
}
