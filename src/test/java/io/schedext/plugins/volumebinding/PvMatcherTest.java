package io.schedext.plugins.volumebinding;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.api.model.LabelSelectorBuilder;
import io.fabric8.kubernetes.api.model.LabelSelectorRequirementBuilder;
import io.fabric8.kubernetes.api.model.ObjectReferenceBuilder;
import io.fabric8.kubernetes.api.model.PersistentVolume;
import io.fabric8.kubernetes.api.model.PersistentVolumeBuilder;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaim;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaimBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.schedext.framework.FrameworkException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.UnaryOperator;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** Every rule of component-helpers' FindMatchingVolume on the scheduler path, one row each. */
class PvMatcherTest {

  static final Map<String, String> NODE_LABELS = Map.of("nodeKey", "node1");

  /**
   * One row: the claim, the volumes in list order, and the name of the expected match (null =
   * none).
   */
  record Case(
      String name,
      PersistentVolumeClaim claim,
      List<PersistentVolume> volumes,
      Set<String> excluded,
      String want) {
    @Override
    public String toString() {
      return name;
    }
  }

  static PersistentVolumeClaim claim(UnaryOperator<PersistentVolumeClaimBuilder> f) {
    return f.apply(
            new PersistentVolumeClaimBuilder()
                .withNewMetadata()
                .withName("c")
                .withNamespace("ns")
                .withUid("uid-1")
                .endMetadata()
                .withNewSpec()
                .withStorageClassName("sc")
                .withAccessModes("ReadWriteOnce")
                .withNewResources()
                .addToRequests("storage", new Quantity("5Gi"))
                .endResources()
                .endSpec())
        .build();
  }

  static PersistentVolumeClaim claim() {
    return claim(b -> b);
  }

  static PersistentVolume pv(String name, String size, UnaryOperator<PersistentVolumeBuilder> f) {
    return f.apply(
            new PersistentVolumeBuilder()
                .withNewMetadata()
                .withName(name)
                .endMetadata()
                .withNewSpec()
                .withStorageClassName("sc")
                .withAccessModes("ReadWriteOnce", "ReadOnlyMany")
                .addToCapacity("storage", new Quantity(size))
                .endSpec()
                .withNewStatus()
                .withPhase("Available")
                .endStatus())
        .build();
  }

  static PersistentVolume pv(String name, String size) {
    return pv(name, size, b -> b);
  }

  static UnaryOperator<PersistentVolumeBuilder> claimRef(String name, String uid) {
    return b ->
        b.editSpec()
            .withClaimRef(
                new ObjectReferenceBuilder()
                    .withName(name)
                    .withNamespace("ns")
                    .withUid(uid)
                    .build())
            .endSpec();
  }

  static UnaryOperator<PersistentVolumeBuilder> onNode(String node) {
    return b ->
        b.editSpec()
            .withNewNodeAffinity()
            .withNewRequired()
            .addNewNodeSelectorTerm()
            .addNewMatchExpression()
            .withKey("nodeKey")
            .withOperator("In")
            .withValues(node)
            .endMatchExpression()
            .endNodeSelectorTerm()
            .endRequired()
            .endNodeAffinity()
            .endSpec();
  }

  static Case c(
      String name, PersistentVolumeClaim claim, String want, PersistentVolume... volumes) {
    return new Case(name, claim, List.of(volumes), Set.of(), want);
  }

  static Stream<Case> cases() {
    return Stream.of(
        c(
            "the smallest large enough volume wins",
            claim(),
            "mid",
            pv("big", "20Gi"),
            pv("mid", "10Gi"),
            pv("small", "1Gi")),
        c("the first of equally small volumes wins", claim(), "a", pv("a", "5Gi"), pv("b", "5Gi")),
        new Case(
            "excluded volumes are skipped",
            claim(),
            List.of(pv("a", "5Gi"), pv("b", "6Gi")),
            Set.of("a"),
            "b"),
        c(
            "a volume bound to another claim is skipped",
            claim(),
            null,
            pv("a", "5Gi", claimRef("other", ""))),
        c(
            "a volume pre-bound to the claim wins over a smaller fit",
            claim(),
            "pre",
            pv("small", "5Gi"),
            pv("pre", "50Gi", claimRef("c", ""))),
        c(
            "a volume pre-bound to the claim ignores phase and class",
            claim(),
            "pre",
            pv(
                "pre",
                "5Gi",
                b ->
                    claimRef("c", "uid-1")
                        .apply(b)
                        .editSpec()
                        .withStorageClassName("other")
                        .endSpec()
                        .editStatus()
                        .withPhase("Released")
                        .endStatus())),
        c(
            "a pre-bound volume on another node means no match at all",
            claim(),
            null,
            pv("pre", "5Gi", b -> claimRef("c", "").apply(onNode("node2").apply(b))),
            pv("fits", "5Gi")),
        c(
            "a claim reference with another uid is another claim",
            claim(),
            null,
            pv("a", "5Gi", claimRef("c", "x"))),
        c(
            "a pre-bound volume too small is skipped",
            claim(),
            "other",
            pv("pre", "1Gi", claimRef("c", "")),
            pv("other", "6Gi")),
        c("a too small volume is skipped", claim(), null, pv("a", "4Gi")),
        c(
            "a volume of another mode is skipped",
            claim(),
            null,
            pv("a", "5Gi", b -> b.editSpec().withVolumeMode("Block").endSpec())),
        c(
            "an explicit Filesystem mode equals the default",
            claim(b -> b.editSpec().withVolumeMode("Filesystem").endSpec()),
            "a",
            pv("a", "5Gi")),
        c(
            "a volume of another attributes class is skipped",
            claim(),
            null,
            pv("a", "5Gi", b -> b.editSpec().withVolumeAttributesClassName("gold").endSpec())),
        c(
            "a claim's attributes class must be matched",
            claim(b -> b.editSpec().withVolumeAttributesClassName("gold").endSpec()),
            "gold",
            pv("plain", "5Gi"),
            pv("gold", "9Gi", b -> b.editSpec().withVolumeAttributesClassName("gold").endSpec())),
        c(
            "a volume being deleted is skipped",
            claim(),
            null,
            pv(
                "a",
                "5Gi",
                b -> b.editMetadata().withDeletionTimestamp("2026-01-01T00:00:00Z").endMetadata())),
        c(
            "a volume not Available is skipped",
            claim(),
            null,
            pv("a", "5Gi", b -> b.editStatus().withPhase("Released").endStatus())),
        c(
            "the claim's selector must match the volume labels",
            claim(
                b ->
                    b.editSpec()
                        .withSelector(
                            new LabelSelectorBuilder().addToMatchLabels("tier", "fast").build())
                        .endSpec()),
            "fast",
            pv("plain", "5Gi"),
            pv("fast", "8Gi", b -> b.editMetadata().addToLabels("tier", "fast").endMetadata())),
        c(
            "an empty selector matches every volume",
            claim(b -> b.editSpec().withNewSelector().endSelector().endSpec()),
            "a",
            pv("a", "5Gi")),
        c(
            "a volume of another class is skipped",
            claim(),
            null,
            pv("a", "5Gi", b -> b.editSpec().withStorageClassName("other").endSpec())),
        c(
            "the beta class annotation of the volume wins",
            claim(),
            "a",
            pv(
                "a",
                "5Gi",
                b ->
                    b.editMetadata()
                        .addToAnnotations(StorageClassNames.BETA_STORAGE_CLASS_ANNOTATION, "sc")
                        .endMetadata()
                        .editSpec()
                        .withStorageClassName("other")
                        .endSpec())),
        c(
            "a volume on another node is skipped",
            claim(),
            "here",
            pv("there", "5Gi", onNode("node2")),
            pv("here", "9Gi", onNode("node1"))),
        c(
            "a volume lacking a requested access mode is skipped",
            claim(b -> b.editSpec().withAccessModes("ReadWriteMany").endSpec()),
            null,
            pv("a", "5Gi")),
        c(
            "a claim without a request takes the smallest volume",
            claim(b -> b.editSpec().withNewResources().endResources().endSpec()),
            "tiny",
            pv("a", "5Gi"),
            pv("tiny", "1Mi")));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void findMatchingVolume(Case c) {
    List<CandidateVolume> volumes = c.volumes().stream().map(CandidateVolume::of).toList();
    CandidateVolume got =
        PvMatcher.findMatchingVolume(
            ClaimRequest.of(c.claim()), volumes, NODE_LABELS, c.excluded());
    assertThat(got == null ? null : got.name()).isEqualTo(c.want());
  }

  @Test
  void aMalformedClaimSelectorIsAnError() {
    PersistentVolumeClaim bad =
        claim(
            b ->
                b.editSpec()
                    .withSelector(
                        new LabelSelectorBuilder()
                            .withMatchExpressions(
                                new LabelSelectorRequirementBuilder()
                                    .withKey("k")
                                    .withOperator("Bogus")
                                    .build())
                            .build())
                    .endSpec());
    ClaimRequest request = ClaimRequest.of(bad);
    assertThatThrownBy(
            () -> PvMatcher.findMatchingVolume(request, List.of(), NODE_LABELS, Set.of()))
        .isInstanceOf(FrameworkException.class)
        .hasMessageStartingWith("error creating internal label selector for claim: ns/c: ");
  }

  @Test
  void claimsAreMatchedInIncreasingSizeAndNeverShareAVolume() {
    PersistentVolumeClaim big =
        claim(
            b ->
                b.editMetadata()
                    .withName("big")
                    .endMetadata()
                    .editSpec()
                    .withNewResources()
                    .addToRequests("storage", new Quantity("8Gi"))
                    .endResources()
                    .endSpec());
    PersistentVolumeClaim small = claim(b -> b.editMetadata().withName("small").endMetadata());
    PersistentVolume pv10 = pv("ten", "10Gi");
    PersistentVolume pv6 = pv("six", "6Gi");
    PvMatcher.Matches m =
        PvMatcher.findMatchingVolumes(
            List.of(ClaimRequest.of(big), ClaimRequest.of(small)),
            Map.of("sc", List.of(CandidateVolume.of(pv10), CandidateVolume.of(pv6))),
            NODE_LABELS);
    assertThat(m)
        .isEqualTo(
            new PvMatcher.Matches(
                true, List.of(new BindingInfo(small, pv6), new BindingInfo(big, pv10)), List.of()));
  }

  @Test
  void allowedTopologiesAdmitEveryNodeWhenEmptyAndIgnoreEmptyTerms() {
    assertThat(ProvisioningChecker.topologyAllows(List.of(), NODE_LABELS)).isTrue();
    List<io.schedext.kube.Selector> onlyEmpty = new ArrayList<>();
    onlyEmpty.add(null);
    assertThat(ProvisioningChecker.topologyAllows(onlyEmpty, NODE_LABELS)).isFalse();
  }
}
