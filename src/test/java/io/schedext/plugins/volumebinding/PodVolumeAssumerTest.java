package io.schedext.plugins.volumebinding;

import static io.schedext.plugins.volumebinding.Fixtures.ClaimState.SELECTED_NODE;
import static io.schedext.plugins.volumebinding.Fixtures.ClaimState.UNBOUND;
import static io.schedext.plugins.volumebinding.Fixtures.WAIT_CLASS;
import static io.schedext.plugins.volumebinding.Fixtures.WAIT_CLASS_WITH_PROVISIONER;
import static io.schedext.plugins.volumebinding.Fixtures.claim;
import static io.schedext.plugins.volumebinding.Fixtures.volume;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.api.model.PersistentVolume;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaim;
import io.schedext.framework.PodInfo;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Upstream's TestAssumePodVolumes, TestRevertAssumedPodVolumes and TestFindAssumeVolumes, without
 * API calls.
 */
class PodVolumeAssumerTest {

  static final PersistentVolumeClaim UNBOUND_PVC = FindPodVolumesTest.UNBOUND_PVC;
  static final PersistentVolumeClaim UNBOUND_PVC2 = FindPodVolumesTest.UNBOUND_PVC2;
  static final PersistentVolumeClaim BOUND_PVC = FindPodVolumesTest.BOUND_PVC;
  static final PersistentVolumeClaim PROVISIONED_PVC = FindPodVolumesTest.PROVISIONED_PVC;
  static final PersistentVolumeClaim PROVISIONED_PVC2 =
      claim("provisioned-pvc2", "1Gi", "", UNBOUND, "", WAIT_CLASS_WITH_PROVISIONER);
  static final PersistentVolumeClaim PROVISIONED_PVC_HIGHER_VERSION =
      claim("provisioned-pvc2", "1Gi", "", UNBOUND, "", "2", WAIT_CLASS_WITH_PROVISIONER);
  static final PersistentVolumeClaim SELECTED_NODE_PVC =
      claim("provisioned-pvc", "1Gi", "node1", SELECTED_NODE, "", WAIT_CLASS_WITH_PROVISIONER);
  static final PersistentVolume PV_NODE1A = FindPodVolumesTest.PV_NODE1A;
  static final PersistentVolume PV_NODE1B = FindPodVolumesTest.PV_NODE1B;
  static final PersistentVolume PV_BOUND = FindPodVolumesTest.PV_BOUND;
  static final PersistentVolume PV_NODE1A_BOUND =
      volume("pv-node1a", "node1", "5G", UNBOUND_PVC, WAIT_CLASS);
  static final PersistentVolume PV_NODE1B_BOUND =
      volume("pv-node1b", "node1", "10G", UNBOUND_PVC2, WAIT_CLASS);

  /**
   * One row: the pod's claims and the volumes in the caches, what to assume, and either the error
   * or whether all was bound and the assumed bindings and provisions.
   */
  record Case(
      String name,
      List<PersistentVolumeClaim> podClaims,
      List<PersistentVolume> pvs,
      PodVolumes toAssume,
      boolean wantFail,
      boolean wantAllBound,
      PodVolumes wantAssumed) {
    @Override
    public String toString() {
      return name;
    }
  }

  static PodVolumes volumes(List<BindingInfo> bindings, List<PersistentVolumeClaim> provisions) {
    return new PodVolumes(bindings, provisions);
  }

  static BindingInfo binding(PersistentVolumeClaim pvc, PersistentVolume pv) {
    return new BindingInfo(pvc, pv);
  }

  static Stream<Case> cases() {
    return Stream.of(
        new Case(
            "all claims bound assumes nothing",
            List.of(BOUND_PVC),
            List.of(PV_BOUND),
            PodVolumes.NONE,
            false,
            true,
            PodVolumes.NONE),
        new Case(
            "one binding assumes the volume bound to its claim",
            List.of(UNBOUND_PVC),
            List.of(PV_NODE1A),
            volumes(List.of(binding(UNBOUND_PVC, PV_NODE1A)), List.of()),
            false,
            false,
            volumes(List.of(binding(UNBOUND_PVC, PV_NODE1A_BOUND)), List.of())),
        new Case(
            "two bindings assume both volumes",
            List.of(UNBOUND_PVC, UNBOUND_PVC2),
            List.of(PV_NODE1A, PV_NODE1B),
            volumes(
                List.of(binding(UNBOUND_PVC, PV_NODE1A), binding(UNBOUND_PVC2, PV_NODE1B)),
                List.of()),
            false,
            false,
            volumes(
                List.of(
                    binding(UNBOUND_PVC, PV_NODE1A_BOUND), binding(UNBOUND_PVC2, PV_NODE1B_BOUND)),
                List.of())),
        new Case(
            "a volume already bound to the claim is kept as is",
            List.of(UNBOUND_PVC),
            List.of(PV_NODE1A_BOUND),
            volumes(List.of(binding(UNBOUND_PVC, PV_NODE1A_BOUND)), List.of()),
            false,
            false,
            volumes(List.of(binding(UNBOUND_PVC, PV_NODE1A_BOUND)), List.of())),
        new Case(
            "a binding to an unknown volume fails and restores the others",
            List.of(UNBOUND_PVC),
            List.of(PV_NODE1A),
            volumes(
                List.of(binding(UNBOUND_PVC, PV_NODE1A), binding(UNBOUND_PVC2, PV_NODE1B)),
                List.of()),
            true,
            false,
            null),
        new Case(
            "a binding and a provisioning",
            List.of(UNBOUND_PVC, PROVISIONED_PVC),
            List.of(PV_NODE1A),
            volumes(List.of(binding(UNBOUND_PVC, PV_NODE1A)), List.of(PROVISIONED_PVC)),
            false,
            false,
            volumes(List.of(binding(UNBOUND_PVC, PV_NODE1A_BOUND)), List.of(SELECTED_NODE_PVC))),
        new Case(
            "a provisioning out of sync fails and restores the binding",
            List.of(UNBOUND_PVC, PROVISIONED_PVC_HIGHER_VERSION),
            List.of(PV_NODE1A),
            volumes(List.of(binding(UNBOUND_PVC, PV_NODE1A)), List.of(PROVISIONED_PVC2)),
            true,
            false,
            null));
  }

  static VolumeAssumeCaches caches(List<PersistentVolumeClaim> claims, List<PersistentVolume> pvs) {
    VolumeAssumeCaches caches = new VolumeAssumeCaches();
    claims.forEach(caches.pvcs()::add);
    pvs.forEach(caches.pvs()::add);
    return caches;
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void assumePodVolumes(Case c) {
    VolumeAssumeCaches caches = caches(c.podClaims(), c.pvs());
    PodInfo pod = Fixtures.pod(c.podClaims());
    PodVolumeAssumer assumer = new PodVolumeAssumer(caches);
    if (c.wantFail()) {
      assertThatThrownBy(() -> assumer.assume(pod.pod(), "node1", c.toAssume()))
          .isInstanceOf(AssumeCacheException.class);
      for (BindingInfo b : c.toAssume().staticBindings()) {
        String name = b.pv().getMetadata().getName();
        if (caches.volume(name) != null) {
          assertThat(caches.pvs().get(name))
              .as("restored")
              .isSameAs(caches.pvs().getApiObject(name));
        }
      }
      for (PersistentVolumeClaim p : c.toAssume().dynamicProvisions()) {
        String key = AssumeCache.keyOf(p);
        assertThat(caches.pvcs().get(key)).as("restored").isSameAs(caches.pvcs().getApiObject(key));
      }
      return;
    }
    PodVolumeAssumer.Assumed got = assumer.assume(pod.pod(), "node1", c.toAssume());
    assertThat(got).isEqualTo(new PodVolumeAssumer.Assumed(c.wantAllBound(), c.wantAssumed()));
    for (BindingInfo b : c.wantAssumed().staticBindings()) {
      assertThat(caches.volume(b.pv().getMetadata().getName())).isEqualTo(b.pv());
    }
    for (PersistentVolumeClaim p : c.wantAssumed().dynamicProvisions()) {
      assertThat(
              caches
                  .claim(p.getMetadata().getNamespace(), p.getMetadata().getName())
                  .getMetadata()
                  .getAnnotations())
          .containsEntry(Fixtures.SELECTED_NODE, "node1");
    }
  }

  @Test
  void revertRestoresTheAssumedVolumesAndClaims() {
    List<PersistentVolumeClaim> claims = List.of(UNBOUND_PVC, PROVISIONED_PVC);
    VolumeAssumeCaches caches = caches(claims, List.of(PV_NODE1A));
    PodVolumeAssumer assumer = new PodVolumeAssumer(caches);
    PodVolumeAssumer.Assumed assumed =
        assumer.assume(
            Fixtures.pod(claims).pod(),
            "node1",
            volumes(List.of(binding(UNBOUND_PVC, PV_NODE1A)), List.of(PROVISIONED_PVC)));
    assertThat(assumed.volumes())
        .isEqualTo(
            volumes(List.of(binding(UNBOUND_PVC, PV_NODE1A_BOUND)), List.of(SELECTED_NODE_PVC)));
    assumer.revert(assumed.volumes());
    assertThat(caches.volume("pv-node1a")).isSameAs(PV_NODE1A);
    assertThat(caches.claim(Fixtures.NS, "provisioned-pvc")).isSameAs(PROVISIONED_PVC);
  }

  @Test
  void findingAgainAfterAssumingReturnsThePreboundVolume() {
    List<PersistentVolumeClaim> claims = List.of(UNBOUND_PVC);
    PersistentVolume pvNode1c = volume("pv-node1c", "node1", "5G", null, WAIT_CLASS);
    VolumeAssumeCaches caches =
        caches(claims, List.of(FindPodVolumesTest.PV_NODE2, PV_NODE1A, pvNode1c));
    ClaimClassifier classifier = new ClaimClassifier(caches, Fixtures.store());
    PodInfo pod = Fixtures.pod(claims);
    Map<String, String> labels = FindPodVolumesTest.NODE1.labels();
    VolumeFinder.Result first =
        VolumeFinder.find(classifier.prepare(classifier.classify(pod.pod())), "node1", labels);
    assertThat(first.reasons()).isEmpty();
    PodVolumeAssumer.Assumed assumed =
        new PodVolumeAssumer(caches).assume(pod.pod(), "node1", first.volumes());
    for (int i = 0; i < 5; i++) {
      VolumeFinder.Result again =
          VolumeFinder.find(classifier.prepare(classifier.classify(pod.pod())), "node1", labels);
      assertThat(again).isEqualTo(new VolumeFinder.Result(assumed.volumes(), List.of()));
    }
  }
}
