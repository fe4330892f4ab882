package io.schedext.plugins.volumebinding;

import static io.schedext.plugins.volumebinding.Fixtures.ClaimState.BOUND;
import static io.schedext.plugins.volumebinding.Fixtures.ClaimState.PREBOUND;
import static io.schedext.plugins.volumebinding.Fixtures.ClaimState.SELECTED_NODE;
import static io.schedext.plugins.volumebinding.Fixtures.ClaimState.UNBOUND;
import static io.schedext.plugins.volumebinding.Fixtures.IMMEDIATE_CLASS;
import static io.schedext.plugins.volumebinding.Fixtures.PROVISIONER;
import static io.schedext.plugins.volumebinding.Fixtures.TOPO_MISMATCH_CLASS;
import static io.schedext.plugins.volumebinding.Fixtures.WAIT_CLASS;
import static io.schedext.plugins.volumebinding.Fixtures.WAIT_CLASS_WITH_PROVISIONER;
import static io.schedext.plugins.volumebinding.Fixtures.claim;
import static io.schedext.plugins.volumebinding.Fixtures.volume;
import static io.schedext.plugins.volumebinding.VolumeFinder.ERR_REASON_BIND_CONFLICT;
import static io.schedext.plugins.volumebinding.VolumeFinder.ERR_REASON_NODE_CONFLICT;
import static io.schedext.plugins.volumebinding.VolumeFinder.ERR_REASON_NOT_ENOUGH_SPACE;
import static io.schedext.plugins.volumebinding.VolumeFinder.ERR_REASON_PV_NOT_EXIST;
import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.EmptyDirVolumeSource;
import io.fabric8.kubernetes.api.model.PersistentVolume;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaim;
import io.fabric8.kubernetes.api.model.VolumeBuilder;
import io.fabric8.kubernetes.api.model.storage.CSIStorageCapacity;
import io.schedext.cluster.ObjectStore;
import io.schedext.framework.CycleState;
import io.schedext.framework.NodeInfo;
import io.schedext.framework.PluginArgs;
import io.schedext.framework.PodInfo;
import io.schedext.framework.Status;
import io.schedext.plugins.Names;
import io.schedext.testing.MakeNode;
import io.schedext.testing.MakePod;
import io.schedext.testing.TestFrameworks;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Upstream's binder_test.go FindPodVolumes tables (without and with provisioning, capacity),
 * through the plugin.
 */
class FindPodVolumesTest {

  static final PersistentVolumeClaim UNBOUND_PVC =
      claim("unbound-pvc", "1G", "", UNBOUND, "", WAIT_CLASS);
  static final PersistentVolumeClaim UNBOUND_PVC2 =
      claim("unbound-pvc2", "5G", "", UNBOUND, "", WAIT_CLASS);
  static final PersistentVolumeClaim PREBOUND_PVC =
      claim("prebound-pvc", "1G", "", PREBOUND, "pv-node1a", WAIT_CLASS);
  static final PersistentVolumeClaim BOUND_PVC =
      claim("bound-pvc", "1G", "", BOUND, "pv-bound", WAIT_CLASS);
  static final PersistentVolumeClaim IMMEDIATE_UNBOUND_PVC =
      claim("immediate-unbound-pvc", "1G", "", UNBOUND, "", IMMEDIATE_CLASS);
  static final PersistentVolumeClaim IMMEDIATE_BOUND_PVC =
      claim("immediate-bound-pvc", "1G", "", BOUND, "pv-bound-immediate", IMMEDIATE_CLASS);
  static final PersistentVolumeClaim PROVISIONED_PVC =
      claim("provisioned-pvc", "1Gi", "", UNBOUND, "", WAIT_CLASS_WITH_PROVISIONER);
  static final PersistentVolumeClaim NO_PROVISIONER_PVC =
      claim("no-provisioner-pvc", "1Gi", "", UNBOUND, "", WAIT_CLASS);
  static final PersistentVolumeClaim TOPO_MISMATCH_PVC =
      claim("topo-mismatch-pvc", "1Gi", "", UNBOUND, "", TOPO_MISMATCH_CLASS);
  static final PersistentVolumeClaim SELECTED_NODE_PVC =
      claim("provisioned-pvc", "1Gi", "node1", SELECTED_NODE, "", WAIT_CLASS_WITH_PROVISIONER);
  static final PersistentVolumeClaim SELECTED_OTHER_NODE_PVC =
      claim("provisioned-pvc", "1Gi", "node2", SELECTED_NODE, "", WAIT_CLASS_WITH_PROVISIONER);

  static final PersistentVolume PV_NODE1A = volume("pv-node1a", "node1", "5G", null, WAIT_CLASS);
  static final PersistentVolume PV_NODE1B = volume("pv-node1b", "node1", "10G", null, WAIT_CLASS);
  static final PersistentVolume PV_NODE2 = volume("pv-node2", "node2", "1G", null, WAIT_CLASS);
  static final PersistentVolume PV_BOUND = volume("pv-bound", "node1", "1G", BOUND_PVC, WAIT_CLASS);
  static final PersistentVolume PV_NODE1A_BOUND =
      volume("pv-node1a", "node1", "5G", UNBOUND_PVC, WAIT_CLASS);
  static final PersistentVolume PV_BOUND_IMMEDIATE =
      volume("pv-bound-immediate", "node1", "1G", IMMEDIATE_BOUND_PVC, IMMEDIATE_CLASS);
  static final PersistentVolume PV_BOUND_IMMEDIATE_NODE2 =
      volume("pv-bound-immediate", "node2", "1G", IMMEDIATE_BOUND_PVC, IMMEDIATE_CLASS);

  static final NodeInfo NODE1 =
      MakeNode.node().name("node1").label(Fixtures.NODE_LABEL_KEY, "node1").info();

  /** Which CSIDriver the provisioner has, as upstream runs each table three times. */
  enum Driver {
    NONE,
    CAPACITY_TRACKING,
    NO_CAPACITY_TRACKING
  }

  /**
   * One scenario: the pod (or one built from {@code podClaims}), the claims and volumes in the
   * cluster, and either the PreFilter rejection or the Filter outcome with the bindings and
   * provisions found on node1.
   */
  record Case(
      String name,
      PodInfo pod,
      List<PersistentVolumeClaim> cachedClaims,
      List<PersistentVolume> pvs,
      Driver driver,
      List<CSIStorageCapacity> capacities,
      Status wantPreFilter,
      List<String> wantReasons,
      List<BindingInfo> wantBindings,
      List<PersistentVolumeClaim> wantProvisions) {
    @Override
    public String toString() {
      return name;
    }
  }

  /** A scenario before it is crossed with the CSIDriver variants. */
  record Scenario(
      String name,
      List<PersistentVolumeClaim> podClaims,
      List<PersistentVolumeClaim> cachedClaims,
      PodInfo pod,
      List<PersistentVolume> pvs,
      Status wantPreFilter,
      List<String> reasons,
      List<BindingInfo> bindings,
      List<PersistentVolumeClaim> provisions,
      boolean needsCapacity) {

    Case with(Driver d) {
      List<String> wantReasons = new ArrayList<>(reasons);
      List<PersistentVolumeClaim> wantProvisions = provisions;
      if (needsCapacity && d == Driver.CAPACITY_TRACKING) {
        wantReasons.add(ERR_REASON_NOT_ENOUGH_SPACE);
        wantProvisions = List.of();
      }
      PodInfo p = pod != null ? pod : Fixtures.pod(podClaims);
      return new Case(
          name + " [" + d + "]",
          p,
          cachedClaims != null ? cachedClaims : podClaims,
          pvs,
          d,
          List.of(),
          wantPreFilter,
          wantReasons,
          bindings,
          wantProvisions);
    }
  }

  static Scenario fits(
      String name,
      List<PersistentVolumeClaim> claims,
      List<PersistentVolume> pvs,
      List<BindingInfo> bindings,
      List<PersistentVolumeClaim> provisions,
      boolean needsCapacity) {
    return new Scenario(
        name,
        claims,
        null,
        null,
        pvs,
        Status.success(),
        List.of(),
        bindings,
        provisions,
        needsCapacity);
  }

  static Scenario rejected(
      String name,
      List<PersistentVolumeClaim> claims,
      List<PersistentVolume> pvs,
      List<BindingInfo> bindings,
      String... reasons) {
    return new Scenario(
        name,
        claims,
        null,
        null,
        pvs,
        Status.success(),
        List.of(reasons),
        bindings,
        List.of(),
        false);
  }

  static Scenario preFilterFails(
      String name,
      List<PersistentVolumeClaim> claims,
      List<PersistentVolumeClaim> cached,
      PodInfo pod,
      List<PersistentVolume> pvs,
      String reason) {
    return new Scenario(
        name,
        claims,
        cached,
        pod,
        pvs,
        Status.unresolvable(reason).withPlugin(Names.VOLUME_BINDING),
        List.of(),
        List.of(),
        List.of(),
        false);
  }

  static BindingInfo binding(PersistentVolumeClaim pvc, PersistentVolume pv) {
    return new BindingInfo(pvc, pv);
  }

  static Stream<Scenario> withoutProvisioning() {
    String unboundImmediate = VolumeBinding.ERR_REASON_UNBOUND_IMMEDIATE;
    PodInfo ephemeralPod =
        MakePod.pod()
            .name("test-pod")
            .namespace(Fixtures.NS)
            .node("node1")
            .volume(Fixtures.ephemeralVolume("test-volume"))
            .info();
    PersistentVolumeClaim correctGeneric =
        Fixtures.ephemeralClaim(ephemeralPod, "test-volume", true);
    PersistentVolumeClaim conflictingGeneric =
        Fixtures.ephemeralClaim(ephemeralPod, "test-volume", false);
    PersistentVolume pvBoundGeneric = volume("pv-bound", "node1", "1G", correctGeneric, WAIT_CLASS);
    return Stream.of(
        new Scenario(
            "a pod without volumes is skipped",
            List.of(),
            List.of(),
            MakePod.pod().name("test-pod").namespace(Fixtures.NS).info(),
            List.of(),
            Status.skip(),
            List.of(),
            List.of(),
            List.of(),
            false),
        new Scenario(
            "a pod without claims is skipped",
            List.of(),
            List.of(),
            MakePod.pod()
                .name("test-pod")
                .namespace(Fixtures.NS)
                .volume(
                    new VolumeBuilder()
                        .withName("e")
                        .withEmptyDir(new EmptyDirVolumeSource())
                        .build())
                .info(),
            List.of(),
            Status.skip(),
            List.of(),
            List.of(),
            List.of(),
            false),
        preFilterFails(
            "a missing claim is unresolvable",
            List.of(BOUND_PVC),
            List.of(),
            null,
            List.of(),
            "persistentvolumeclaim \"bound-pvc\" not found"),
        fits(
            "a bound claim whose volume fits the node fits",
            List.of(BOUND_PVC),
            List.of(PV_BOUND),
            List.of(),
            List.of(),
            false),
        rejected(
            "a bound claim whose volume is missing reports it",
            List.of(BOUND_PVC),
            List.of(),
            List.of(),
            ERR_REASON_PV_NOT_EXIST),
        preFilterFails(
            "a pre-bound claim counts as unbound immediate",
            List.of(PREBOUND_PVC),
            null,
            null,
            List.of(PV_NODE1A_BOUND),
            unboundImmediate),
        fits(
            "an unbound claim takes the smallest volume on the node",
            List.of(UNBOUND_PVC),
            List.of(PV_NODE2, PV_NODE1A, PV_NODE1B),
            List.of(binding(UNBOUND_PVC, PV_NODE1A)),
            List.of(),
            false),
        rejected(
            "an unbound claim with volumes on other nodes only cannot bind",
            List.of(UNBOUND_PVC),
            List.of(PV_NODE2),
            List.of(),
            ERR_REASON_BIND_CONFLICT),
        fits(
            "two unbound claims take two volumes",
            List.of(UNBOUND_PVC, UNBOUND_PVC2),
            List.of(PV_NODE1A, PV_NODE1B),
            List.of(binding(UNBOUND_PVC, PV_NODE1A), binding(UNBOUND_PVC2, PV_NODE1B)),
            List.of(),
            false),
        fits(
            "two unbound claims are matched smallest request first",
            List.of(UNBOUND_PVC2, UNBOUND_PVC),
            List.of(PV_NODE1A, PV_NODE1B),
            List.of(binding(UNBOUND_PVC, PV_NODE1A), binding(UNBOUND_PVC2, PV_NODE1B)),
            List.of(),
            false),
        rejected(
            "one of two unbound claims without a volume cannot bind",
            List.of(UNBOUND_PVC, UNBOUND_PVC2),
            List.of(PV_NODE1A),
            List.of(binding(UNBOUND_PVC, PV_NODE1A)),
            ERR_REASON_BIND_CONFLICT),
        fits(
            "a bound and an unbound claim fit",
            List.of(UNBOUND_PVC, BOUND_PVC),
            List.of(PV_BOUND, PV_NODE1A),
            List.of(binding(UNBOUND_PVC, PV_NODE1A)),
            List.of(),
            false),
        rejected(
            "a bound claim and an unmatched unbound claim cannot bind",
            List.of(UNBOUND_PVC, BOUND_PVC),
            List.of(PV_BOUND, PV_NODE2),
            List.of(),
            ERR_REASON_BIND_CONFLICT),
        preFilterFails(
            "a pre-bound claim next to an unbound one counts as unbound immediate",
            List.of(UNBOUND_PVC, PREBOUND_PVC),
            null,
            null,
            List.of(PV_NODE1A, PV_NODE1B),
            unboundImmediate),
        fits(
            "a bound immediate claim fits",
            List.of(IMMEDIATE_BOUND_PVC),
            List.of(PV_BOUND_IMMEDIATE),
            List.of(),
            List.of(),
            false),
        rejected(
            "a bound immediate claim whose volume is on another node conflicts",
            List.of(IMMEDIATE_BOUND_PVC),
            List.of(PV_BOUND_IMMEDIATE_NODE2),
            List.of(),
            ERR_REASON_NODE_CONFLICT),
        preFilterFails(
            "an unbound immediate claim is unresolvable",
            List.of(IMMEDIATE_UNBOUND_PVC),
            null,
            null,
            List.of(),
            unboundImmediate),
        preFilterFails(
            "an unbound immediate claim next to a bound one is unresolvable",
            List.of(IMMEDIATE_UNBOUND_PVC, BOUND_PVC),
            null,
            null,
            List.of(PV_BOUND),
            unboundImmediate),
        preFilterFails(
            "an unbound immediate claim next to a delayed one is unresolvable",
            List.of(IMMEDIATE_UNBOUND_PVC, UNBOUND_PVC),
            null,
            null,
            List.of(),
            unboundImmediate),
        preFilterFails(
            "a generic ephemeral volume without its claim waits for the controller",
            List.of(),
            List.of(),
            ephemeralPod,
            List.of(),
            "waiting for ephemeral volume controller to create the persistentvolumeclaim \"test-pod-test-volume\""),
        new Scenario(
            "a generic ephemeral volume with its bound claim fits",
            List.of(),
            List.of(correctGeneric),
            ephemeralPod,
            List.of(pvBoundGeneric),
            Status.success(),
            List.of(),
            List.of(),
            List.of(),
            false),
        preFilterFails(
            "a generic ephemeral claim not owned by the pod is unresolvable",
            List.of(),
            List.of(conflictingGeneric),
            ephemeralPod,
            List.of(pvBoundGeneric),
            "PVC testns/test-pod-test-volume was not created for pod testns/test-pod (pod is not owner)"));
  }

  static Stream<Scenario> withProvisioning() {
    return Stream.of(
        fits(
            "an unbound claim without volumes is provisioned",
            List.of(PROVISIONED_PVC),
            List.of(),
            List.of(),
            List.of(PROVISIONED_PVC),
            true),
        fits(
            "one claim matched and one provisioned",
            List.of(UNBOUND_PVC, PROVISIONED_PVC),
            List.of(PV_NODE1A),
            List.of(binding(UNBOUND_PVC, PV_NODE1A)),
            List.of(PROVISIONED_PVC),
            true),
        fits(
            "a bound claim and a provisioned one",
            List.of(BOUND_PVC, PROVISIONED_PVC),
            List.of(PV_BOUND),
            List.of(),
            List.of(PROVISIONED_PVC),
            true),
        fits(
            "a claim already selected for this node is provisioned",
            List.of(BOUND_PVC, SELECTED_NODE_PVC),
            List.of(PV_BOUND),
            List.of(),
            List.of(SELECTED_NODE_PVC),
            true),
        rejected(
            "a claim selected for another node rules this node out at once",
            List.of(BOUND_PVC, SELECTED_OTHER_NODE_PVC, UNBOUND_PVC),
            List.of(PV_BOUND, PV_NODE1A),
            List.of(),
            ERR_REASON_BIND_CONFLICT),
        preFilterFails(
            "an unbound immediate claim is unresolvable before provisioning",
            List.of(IMMEDIATE_UNBOUND_PVC),
            null,
            null,
            List.of(),
            VolumeBinding.ERR_REASON_UNBOUND_IMMEDIATE),
        fits(
            "a bound immediate claim and a provisioned one",
            List.of(IMMEDIATE_BOUND_PVC, PROVISIONED_PVC),
            List.of(PV_BOUND_IMMEDIATE),
            List.of(),
            List.of(PROVISIONED_PVC),
            true),
        rejected(
            "a class without provisioner cannot provision",
            List.of(NO_PROVISIONER_PVC),
            List.of(),
            List.of(),
            ERR_REASON_BIND_CONFLICT),
        rejected(
            "a class whose allowed topologies exclude the node cannot provision",
            List.of(TOPO_MISMATCH_PVC),
            List.of(),
            List.of(),
            ERR_REASON_BIND_CONFLICT));
  }

  static Stream<Case> cases() {
    return Stream.concat(withoutProvisioning(), withProvisioning())
        .flatMap(s -> Stream.of(Driver.values()).map(s::with));
  }

  /** Upstream's TestCapacity, run with the driver opted in and out of capacity tracking. */
  static Stream<Case> capacityCases() {
    record Cap(String name, List<CSIStorageCapacity> capacities, boolean enough) {}
    List<Cap> caps =
        List.of(
            new Cap(
                "network-attached capacity covers every node",
                List.of(Fixtures.capacity("net", WAIT_CLASS_WITH_PROVISIONER, null, "1Gi", null)),
                true),
            new Cap(
                "local capacity of the node is enough",
                List.of(
                    Fixtures.capacity("local", WAIT_CLASS_WITH_PROVISIONER, "node1", "1Gi", null)),
                true),
            new Cap(
                "one sufficient capacity among several is enough",
                List.of(
                    Fixtures.capacity("net", WAIT_CLASS_WITH_PROVISIONER, null, "1Mi", null),
                    Fixtures.capacity("node2", WAIT_CLASS_WITH_PROVISIONER, "node2", "1Gi", null),
                    Fixtures.capacity("node1", WAIT_CLASS_WITH_PROVISIONER, "node1", "1Gi", null)),
                true),
            new Cap("no capacity objects mean no storage", List.of(), false),
            new Cap(
                "capacity of another node does not count",
                List.of(Fixtures.capacity("c", WAIT_CLASS_WITH_PROVISIONER, "node2", "1Gi", null)),
                false),
            new Cap(
                "capacity of another class does not count",
                List.of(Fixtures.capacity("c", WAIT_CLASS, "node1", "1Gi", null)),
                false),
            new Cap(
                "too little capacity is not enough",
                List.of(Fixtures.capacity("c", WAIT_CLASS_WITH_PROVISIONER, "node1", "1Mi", null)),
                false),
            new Cap(
                "the maximum volume size wins over the capacity",
                List.of(Fixtures.capacity("c", WAIT_CLASS_WITH_PROVISIONER, "node1", "1Gi", "1Mi")),
                false),
            new Cap(
                "zero capacity is not enough",
                List.of(Fixtures.capacity("c", WAIT_CLASS_WITH_PROVISIONER, "node1", "0Mi", null)),
                false),
            new Cap(
                "a zero maximum volume size is not enough",
                List.of(Fixtures.capacity("c", WAIT_CLASS_WITH_PROVISIONER, "node1", null, "0Mi")),
                false),
            new Cap(
                "a capacity object without sizes is not enough",
                List.of(Fixtures.capacity("c", WAIT_CLASS_WITH_PROVISIONER, "node1", null, null)),
                false));
    List<Case> out = new ArrayList<>();
    for (Cap c : caps) {
      for (boolean optIn : new boolean[] {true, false}) {
        boolean enough = c.enough() || !optIn;
        out.add(
            new Case(
                c.name() + " [storageCapacity=" + optIn + "]",
                Fixtures.pod(List.of(PROVISIONED_PVC)),
                List.of(PROVISIONED_PVC),
                List.of(),
                optIn ? Driver.CAPACITY_TRACKING : Driver.NO_CAPACITY_TRACKING,
                c.capacities(),
                Status.success(),
                enough ? List.of() : List.of(ERR_REASON_NOT_ENOUGH_SPACE),
                List.of(),
                enough ? List.of(PROVISIONED_PVC) : List.of()));
      }
    }
    return out.stream();
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource({"cases", "capacityCases"})
  void findPodVolumes(Case c) {
    ObjectStore store = Fixtures.store();
    c.cachedClaims().forEach(store::put);
    c.pvs().forEach(store::put);
    c.capacities().forEach(store::put);
    if (c.driver() != Driver.NONE) {
      Fixtures.putDriver(store, PROVISIONER, c.driver() == Driver.CAPACITY_TRACKING);
    }
    VolumeBinding plugin = VolumeBinding.create(PluginArgs.none(), TestFrameworks.handle(store));
    CycleState state = TestFrameworks.cycleState(List.of(NODE1));

    Status pre = plugin.preFilter(state, c.pod()).status();
    assertThat(pre).isEqualTo(c.wantPreFilter());
    if (!pre.isSuccess()) {
      return;
    }
    VolumeBindingState s = state.read(VolumeBinding.STATE_KEY, VolumeBindingState.class);
    VolumeFinder.Result r = VolumeFinder.find(s.claims(), NODE1.name(), NODE1.labels());
    assertThat(r)
        .isEqualTo(
            new VolumeFinder.Result(
                new PodVolumes(c.wantBindings(), c.wantProvisions()), c.wantReasons()));

    Status filtered = plugin.filter(state, c.pod(), NODE1);
    if (c.wantReasons().isEmpty()) {
      assertThat(filtered).isEqualTo(Status.success());
      assertThat(s.podVolumesByNode()).containsExactlyEntriesOf(Map.of("node1", r.volumes()));
    } else {
      assertThat(filtered)
          .isEqualTo(
              Status.unresolvable(c.wantReasons().toArray(new String[0]))
                  .withPlugin(Names.VOLUME_BINDING));
      assertThat(s.podVolumesByNode()).isEmpty();
    }
  }
}
