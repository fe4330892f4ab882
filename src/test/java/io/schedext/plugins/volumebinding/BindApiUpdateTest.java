package io.schedext.plugins.volumebinding;

import static io.schedext.plugins.volumebinding.BindFixtures.PROVISIONED_PVC;
import static io.schedext.plugins.volumebinding.BindFixtures.PROVISIONED_PVC2;
import static io.schedext.plugins.volumebinding.BindFixtures.PROVISIONED_PVC_HIGHER_VERSION;
import static io.schedext.plugins.volumebinding.BindFixtures.PV_NODE1A;
import static io.schedext.plugins.volumebinding.BindFixtures.PV_NODE1A_BOUND;
import static io.schedext.plugins.volumebinding.BindFixtures.PV_NODE1B;
import static io.schedext.plugins.volumebinding.BindFixtures.PV_NODE1B_BOUND;
import static io.schedext.plugins.volumebinding.BindFixtures.PV_NODE1B_BOUND_HIGHER_VERSION;
import static io.schedext.plugins.volumebinding.BindFixtures.UNBOUND_PVC;
import static io.schedext.plugins.volumebinding.BindFixtures.UNBOUND_PVC2;
import static io.schedext.plugins.volumebinding.BindFixtures.withSelectedNode;
import static io.schedext.plugins.volumebinding.BindFixtures.withoutVersion;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.api.model.PersistentVolume;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaim;
import io.schedext.framework.FrameworkException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Upstream's TestBindAPIUpdate: PreBind writes the assumed PVs, then the claims to provision; on a
 * failed write the cache entries not written are put back, those written stay (no API rollback).
 * Upstream's cases with nil lists have no Java counterpart (the lists are never null here).
 */
class BindApiUpdateTest {

  static final String PV_CONFLICT =
      "Operation cannot be fulfilled on persistentvolumes \"pv-node1b\": the object has "
          + "been modified; please apply your changes to the latest version and try again";
  static final String PVC_CONFLICT =
      "Operation cannot be fulfilled on persistentvolumeclaims \"provisioned-pvc2\": "
          + "the object has been modified; please apply your changes to the latest version and try again";

  /**
   * One row: the bindings and claims to provision (assumed in the caches), the PVs and claims the
   * informer and the API hold, the expected error (null: none), and the expected latest cache and
   * API contents (resource versions ignored).
   */
  record Case(
      String name,
      List<BindingInfo> bindings,
      List<PersistentVolumeClaim> provisions,
      List<PersistentVolume> cachedPvs,
      List<PersistentVolume> apiPvs,
      List<PersistentVolumeClaim> cachedPvcs,
      List<PersistentVolumeClaim> apiPvcs,
      String wantError,
      List<PersistentVolume> wantPvs,
      List<PersistentVolume> wantApiPvs,
      List<PersistentVolumeClaim> wantPvcs,
      List<PersistentVolumeClaim> wantApiPvcs) {
    @Override
    public String toString() {
      return name;
    }
  }

  static BindingInfo binding(PersistentVolumeClaim pvc, PersistentVolume pv) {
    return new BindingInfo(pvc, pv);
  }

  static Stream<Case> cases() {
    List<PersistentVolumeClaim> twoToProvision =
        List.of(withSelectedNode(PROVISIONED_PVC), withSelectedNode(PROVISIONED_PVC2));
    return Stream.of(
        new Case(
            "nothing to bind writes nothing",
            List.of(),
            List.of(),
            List.of(),
            List.of(),
            List.of(),
            List.of(),
            null,
            List.of(),
            List.of(),
            List.of(),
            List.of()),
        new Case(
            "one binding writes the volume with its claim reference",
            List.of(binding(UNBOUND_PVC, PV_NODE1A_BOUND)),
            List.of(),
            List.of(PV_NODE1A),
            List.of(PV_NODE1A),
            List.of(),
            List.of(),
            null,
            List.of(PV_NODE1A_BOUND),
            List.of(PV_NODE1A_BOUND),
            List.of(),
            List.of()),
        new Case(
            "two bindings write both volumes",
            List.of(binding(UNBOUND_PVC, PV_NODE1A_BOUND), binding(UNBOUND_PVC2, PV_NODE1B_BOUND)),
            List.of(),
            List.of(PV_NODE1A, PV_NODE1B),
            List.of(PV_NODE1A, PV_NODE1B),
            List.of(),
            List.of(),
            null,
            List.of(PV_NODE1A_BOUND, PV_NODE1B_BOUND),
            List.of(PV_NODE1A_BOUND, PV_NODE1B_BOUND),
            List.of(),
            List.of()),
        new Case(
            "a volume the API already has bound is written again harmlessly",
            List.of(binding(UNBOUND_PVC, PV_NODE1A_BOUND)),
            List.of(),
            List.of(PV_NODE1A_BOUND),
            List.of(PV_NODE1A_BOUND),
            List.of(),
            List.of(),
            null,
            List.of(PV_NODE1A_BOUND),
            List.of(PV_NODE1A_BOUND),
            List.of(),
            List.of()),
        new Case(
            "a conflict on the second volume keeps the first written and restores the second in the cache",
            List.of(binding(UNBOUND_PVC, PV_NODE1A_BOUND), binding(UNBOUND_PVC2, PV_NODE1B_BOUND)),
            List.of(),
            List.of(PV_NODE1A, PV_NODE1B),
            List.of(PV_NODE1A, PV_NODE1B_BOUND_HIGHER_VERSION),
            List.of(),
            List.of(),
            PV_CONFLICT,
            List.of(PV_NODE1A_BOUND, PV_NODE1B),
            List.of(PV_NODE1A_BOUND, PV_NODE1B_BOUND_HIGHER_VERSION),
            List.of(),
            List.of()),
        new Case(
            "one claim to provision is written with the selected node",
            List.of(),
            List.of(withSelectedNode(PROVISIONED_PVC)),
            List.of(),
            List.of(),
            List.of(PROVISIONED_PVC),
            List.of(PROVISIONED_PVC),
            null,
            List.of(),
            List.of(),
            List.of(withSelectedNode(PROVISIONED_PVC)),
            List.of(withSelectedNode(PROVISIONED_PVC))),
        new Case(
            "a conflict on the second claim keeps the first written and restores the second in the cache",
            List.of(),
            twoToProvision,
            List.of(),
            List.of(),
            List.of(PROVISIONED_PVC, PROVISIONED_PVC2),
            List.of(PROVISIONED_PVC, PROVISIONED_PVC_HIGHER_VERSION),
            PVC_CONFLICT,
            List.of(),
            List.of(),
            List.of(withSelectedNode(PROVISIONED_PVC), PROVISIONED_PVC2),
            List.of(withSelectedNode(PROVISIONED_PVC), PROVISIONED_PVC_HIGHER_VERSION)),
        new Case(
            "a claim conflict after the volumes were written keeps the volumes",
            List.of(binding(UNBOUND_PVC, PV_NODE1A_BOUND)),
            twoToProvision,
            List.of(PV_NODE1A),
            List.of(PV_NODE1A),
            List.of(PROVISIONED_PVC, PROVISIONED_PVC2),
            List.of(PROVISIONED_PVC, PROVISIONED_PVC_HIGHER_VERSION),
            PVC_CONFLICT,
            List.of(PV_NODE1A_BOUND),
            List.of(PV_NODE1A_BOUND),
            List.of(withSelectedNode(PROVISIONED_PVC), PROVISIONED_PVC2),
            List.of(withSelectedNode(PROVISIONED_PVC), PROVISIONED_PVC_HIGHER_VERSION)));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void bindApiUpdate(Case c) {
    FakeApi api = new FakeApi(Fixtures.store());
    c.cachedPvs().forEach(api.informer()::put);
    c.cachedPvcs().forEach(api.informer()::put);
    c.apiPvs().forEach(api::put);
    c.apiPvcs().forEach(api::put);
    VolumeAssumeCaches caches = new VolumeAssumeCaches(api.informer());
    c.bindings().forEach(b -> caches.pvs().assume(b.pv()));
    c.provisions().forEach(caches.pvcs()::assume);
    FakeTime time = new FakeTime();
    PodVolumeBinder binder = new PodVolumeBinder(caches, api, Duration.ofSeconds(10), time, time);
    List<BindingInfo> bindings = new ArrayList<>(c.bindings());
    List<PersistentVolumeClaim> claims = new ArrayList<>(c.provisions());

    if (c.wantError() == null) {
      binder.bindApiUpdate(bindings, claims);
    } else {
      assertThatThrownBy(() -> binder.bindApiUpdate(bindings, claims))
          .isInstanceOf(FrameworkException.class)
          .hasMessage(c.wantError());
    }

    assertThat(c.wantPvs())
        .allSatisfy(
            pv ->
                assertThat(withoutVersion(caches.volume(pv.getMetadata().getName())))
                    .isEqualTo(withoutVersion(pv)));
    assertThat(c.wantApiPvs())
        .allSatisfy(
            pv ->
                assertThat(withoutVersion(api.pv(pv.getMetadata().getName())))
                    .isEqualTo(withoutVersion(pv)));
    assertThat(c.wantPvcs())
        .allSatisfy(
            pvc ->
                assertThat(withoutVersion(caches.pvcs().get(AssumeCache.keyOf(pvc))))
                    .isEqualTo(withoutVersion(pvc)));
    assertThat(c.wantApiPvcs())
        .allSatisfy(
            pvc ->
                assertThat(withoutVersion(api.pvc(AssumeCache.keyOf(pvc))))
                    .isEqualTo(withoutVersion(pvc)));
    assertThat(time.sleeps()).isZero();
  }
}
