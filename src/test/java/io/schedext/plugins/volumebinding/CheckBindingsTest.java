package io.schedext.plugins.volumebinding;

import static io.schedext.plugins.volumebinding.BindFixtures.BOUND_PVC_NODE1A;
import static io.schedext.plugins.volumebinding.BindFixtures.NODES;
import static io.schedext.plugins.volumebinding.BindFixtures.POD;
import static io.schedext.plugins.volumebinding.BindFixtures.PREBOUND_PVC_NODE1A;
import static io.schedext.plugins.volumebinding.BindFixtures.PROVISIONED_PVC;
import static io.schedext.plugins.volumebinding.BindFixtures.PROVISIONED_PVC_BOUND;
import static io.schedext.plugins.volumebinding.BindFixtures.PV_BOUND;
import static io.schedext.plugins.volumebinding.BindFixtures.PV_NODE1A;
import static io.schedext.plugins.volumebinding.BindFixtures.PV_NODE1A_BOUND;
import static io.schedext.plugins.volumebinding.BindFixtures.PV_NODE1B_BOUND;
import static io.schedext.plugins.volumebinding.BindFixtures.UNBOUND_PVC;
import static io.schedext.plugins.volumebinding.BindFixtures.UNBOUND_PVC2;
import static io.schedext.plugins.volumebinding.BindFixtures.withSelectedNode;
import static io.schedext.plugins.volumebinding.BindFixtures.withoutAnnotations;
import static io.schedext.plugins.volumebinding.BindFixtures.withoutClaimUid;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.api.model.PersistentVolume;
import io.fabric8.kubernetes.api.model.PersistentVolumeBuilder;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaim;
import io.schedext.framework.FrameworkException;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Upstream's TestCheckBindings: one look at whether the PV controller finished (true), is not done
 * yet (false) or undid the binding (error), on the informer versions. Upstream's cases with nil
 * lists have no Java counterpart.
 */
class CheckBindingsTest {

  /**
   * One row: what the informer holds first, the bindings and claims to provision (assumed), the API
   * updates the informer then sees, whether it then loses the PVs or claims, and the expected
   * answer or error.
   */
  record Case(
      String name,
      List<PersistentVolume> initPvs,
      List<PersistentVolumeClaim> initPvcs,
      List<BindingInfo> bindings,
      List<PersistentVolumeClaim> provisions,
      List<PersistentVolume> apiPvs,
      List<PersistentVolumeClaim> apiPvcs,
      boolean deletePvs,
      boolean deletePvcs,
      boolean wantBound,
      String wantError) {
    @Override
    public String toString() {
      return name;
    }
  }

  static List<BindingInfo> bind(PersistentVolumeClaim pvc, PersistentVolume pv) {
    return List.of(new BindingInfo(pvc, pv));
  }

  static final List<BindingInfo> NODE1A = bind(UNBOUND_PVC, PV_NODE1A_BOUND);
  static final List<PersistentVolumeClaim> PROVISION = List.of(withSelectedNode(PROVISIONED_PVC));
  static final String CLAIM_REF_RESET = "ClaimRef got reset for pv \"pv-node1a\"";

  static Stream<Case> cases() {
    return Stream.of(
        new Case(
            "nothing to bind is bound",
            List.of(),
            List.of(),
            List.of(),
            List.of(),
            List.of(),
            List.of(),
            false,
            false,
            true,
            null),
        new Case(
            "a bound binding is bound",
            List.of(PV_NODE1A_BOUND),
            List.of(BOUND_PVC_NODE1A),
            NODE1A,
            List.of(),
            List.of(),
            List.of(),
            false,
            false,
            true,
            null),
        new Case(
            "a claim pre-bound but not bind-completed is not bound yet",
            List.of(PV_NODE1A_BOUND),
            List.of(PREBOUND_PVC_NODE1A),
            NODE1A,
            List.of(),
            List.of(),
            List.of(),
            false,
            false,
            false,
            null),
        new Case(
            "an unbound claim is not bound yet",
            List.of(PV_NODE1A_BOUND),
            List.of(UNBOUND_PVC),
            NODE1A,
            List.of(),
            List.of(),
            List.of(),
            false,
            false,
            false,
            null),
        new Case(
            "a missing claim fails",
            List.of(PV_NODE1A_BOUND),
            List.of(),
            NODE1A,
            List.of(),
            List.of(),
            List.of(),
            false,
            false,
            false,
            "failed to check binding: could not find v1.PersistentVolumeClaim \"testns/unbound-pvc\""),
        new Case(
            "a missing volume fails",
            List.of(PV_NODE1A_BOUND),
            List.of(BOUND_PVC_NODE1A),
            NODE1A,
            List.of(),
            List.of(),
            List.of(),
            true,
            false,
            false,
            "failed to check binding: could not find v1.PersistentVolume \"pv-node1a\""),
        new Case(
            "a claim reference dropped by the PV controller fails",
            List.of(PV_NODE1A),
            List.of(BOUND_PVC_NODE1A),
            NODE1A,
            List.of(),
            List.of(PV_NODE1A),
            List.of(BOUND_PVC_NODE1A),
            false,
            false,
            false,
            CLAIM_REF_RESET),
        new Case(
            "a claim reference without UID fails",
            List.of(PV_NODE1A_BOUND),
            List.of(BOUND_PVC_NODE1A),
            NODE1A,
            List.of(),
            List.of(withoutClaimUid(PV_NODE1A_BOUND)),
            List.of(BOUND_PVC_NODE1A),
            false,
            false,
            false,
            CLAIM_REF_RESET),
        new Case(
            "one of two bindings not bound yet is not bound",
            List.of(PV_NODE1A_BOUND, PV_NODE1B_BOUND),
            List.of(BOUND_PVC_NODE1A, UNBOUND_PVC2),
            List.of(NODE1A.get(0), new BindingInfo(UNBOUND_PVC2, PV_NODE1B_BOUND)),
            List.of(),
            List.of(),
            List.of(),
            false,
            false,
            false,
            null),
        new Case(
            "a provisioned claim bound to a volume of the node is bound",
            List.of(PV_BOUND),
            List.of(PROVISIONED_PVC_BOUND),
            List.of(),
            PROVISION,
            List.of(),
            List.of(withSelectedNode(PROVISIONED_PVC_BOUND)),
            false,
            false,
            true,
            null),
        new Case(
            "a claim to provision not bound yet is not bound",
            List.of(),
            PROVISION,
            List.of(),
            PROVISION,
            List.of(),
            List.of(),
            false,
            false,
            false,
            null),
        new Case(
            "a missing claim to provision fails",
            List.of(),
            List.of(PROVISIONED_PVC),
            List.of(),
            PROVISION,
            List.of(),
            List.of(),
            false,
            true,
            false,
            "failed to check provisioning pvc: could not find v1.PersistentVolumeClaim \"testns/provisioned-pvc\""),
        new Case(
            "a claim to provision without annotations fails",
            List.of(),
            List.of(PROVISIONED_PVC),
            List.of(),
            PROVISION,
            List.of(),
            List.of(PROVISIONED_PVC),
            false,
            false,
            false,
            "selectedNode annotation reset for PVC \"provisioned-pvc\""),
        new Case(
            "a claim to provision whose annotations were emptied fails",
            List.of(),
            List.of(PROVISIONED_PVC),
            List.of(),
            PROVISION,
            List.of(),
            List.of(withoutAnnotations(PROVISIONED_PVC)),
            false,
            false,
            false,
            "selectedNode annotation reset for PVC \"provisioned-pvc\""),
        new Case(
            "a claim to provision selected for another node fails",
            List.of(),
            List.of(PROVISIONED_PVC),
            List.of(),
            PROVISION,
            List.of(),
            List.of(withSelectedNode(PROVISIONED_PVC, "wrong-node")),
            false,
            false,
            false,
            "provisioning failed for PVC \"provisioned-pvc\""),
        new Case(
            "a bound binding and a claim to provision not bound yet is not bound",
            List.of(PV_NODE1A_BOUND),
            List.of(BOUND_PVC_NODE1A, withSelectedNode(PROVISIONED_PVC)),
            NODE1A,
            PROVISION,
            List.of(),
            List.of(),
            false,
            false,
            false,
            null),
        new Case(
            "a provisioned claim whose volume the informer has not seen yet is not bound",
            List.of(PV_NODE1A),
            List.of(PROVISIONED_PVC),
            List.of(),
            PROVISION,
            List.of(),
            List.of(withSelectedNode(PROVISIONED_PVC_BOUND)),
            true,
            false,
            false,
            null),
        new Case(
            "a volume the informer has only in a version older than our write is not bound yet",
            List.of(PV_NODE1A_BOUND),
            List.of(BOUND_PVC_NODE1A),
            bind(
                UNBOUND_PVC,
                new PersistentVolumeBuilder(PV_NODE1A_BOUND)
                    .editMetadata()
                    .withResourceVersion("2")
                    .endMetadata()
                    .build()),
            List.of(),
            List.of(),
            List.of(),
            false,
            false,
            false,
            null));
  }

  static FakeApi setUp(List<PersistentVolume> pvs, List<PersistentVolumeClaim> pvcs) {
    FakeApi api = new FakeApi(Fixtures.store()).addPod(Fixtures.NS, "test-pod");
    pvs.forEach(api::putSynced);
    pvcs.forEach(api::putSynced);
    return api;
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void checkBindings(Case c) {
    FakeApi api = setUp(c.initPvs(), c.initPvcs());
    VolumeAssumeCaches caches = new VolumeAssumeCaches(api.informer());
    c.bindings().forEach(b -> caches.pvs().assume(b.pv()));
    c.provisions().forEach(caches.pvcs()::assume);
    c.apiPvs().forEach(api::update);
    c.apiPvcs().forEach(api::update);
    api.sync();
    if (c.deletePvs()) {
      c.initPvs().forEach(api.informer()::remove);
    }
    if (c.deletePvcs()) {
      c.initPvcs().forEach(api.informer()::remove);
    }
    BindingChecker checker = new BindingChecker(caches, api);

    if (c.wantError() == null) {
      assertThat(checker.check(POD, "node1", c.bindings(), c.provisions(), NODES::get))
          .isEqualTo(c.wantBound());
    } else {
      assertThatThrownBy(
              () -> checker.check(POD, "node1", c.bindings(), c.provisions(), NODES::get))
          .isInstanceOf(FrameworkException.class)
          .hasMessage(c.wantError());
    }
  }

  @Test
  void aVolumeWhoseNodeAffinityNoLongerMatchesFails() {
    FakeApi api = setUp(List.of(PV_NODE1A_BOUND), List.of(BOUND_PVC_NODE1A));
    BindingChecker checker = new BindingChecker(new VolumeAssumeCaches(api.informer()), api);

    assertThatThrownBy(() -> checker.check(POD, "node1", NODE1A, List.of(), n -> Map.of()))
        .hasMessage(
            "pv \"pv-node1a\" node affinity doesn't match node \"node1\": no matching NodeSelectorTerms");
  }

  @Test
  void aMalformedNodeAffinityReportsItsParseError() {
    PersistentVolume pv =
        new PersistentVolumeBuilder(PV_NODE1A_BOUND)
            .editSpec()
            .editNodeAffinity()
            .editRequired()
            .editFirstNodeSelectorTerm()
            .editFirstMatchExpression()
            .withOperator("Gt")
            .withValues("x")
            .endMatchExpression()
            .endNodeSelectorTerm()
            .endRequired()
            .endNodeAffinity()
            .endSpec()
            .build();
    FakeApi api = setUp(List.of(pv), List.of(BOUND_PVC_NODE1A));
    BindingChecker checker = new BindingChecker(new VolumeAssumeCaches(api.informer()), api);

    assertThatThrownBy(
            () -> checker.check(POD, "node1", bind(UNBOUND_PVC, pv), List.of(), NODES::get))
        .hasMessageStartingWith("pv \"pv-node1a\" node affinity doesn't match node \"node1\": ")
        .hasMessageNotContaining("no matching NodeSelectorTerms");
  }

  @Test
  void anUnknownNodeFails() {
    FakeApi api = setUp(List.of(), List.of());
    BindingChecker checker = new BindingChecker(new VolumeAssumeCaches(api.informer()), api);

    assertThatThrownBy(() -> checker.check(POD, "node3", List.of(), List.of(), NODES::get))
        .hasMessage("failed to get node \"node3\": node \"node3\" not found");
  }

  @Test
  void aDeletedPodFails() {
    FakeApi api = setUp(List.of(), List.of());
    api.deletePod(Fixtures.NS, "test-pod");
    BindingChecker checker = new BindingChecker(new VolumeAssumeCaches(api.informer()), api);

    assertThatThrownBy(() -> checker.check(POD, "node1", List.of(), List.of(), NODES::get))
        .hasMessage("pod does not exist any more: pod \"test-pod\" not found");
  }
}
