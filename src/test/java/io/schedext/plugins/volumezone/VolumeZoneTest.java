package io.schedext.plugins.volumezone;

import static io.schedext.plugins.volumezone.VolumeZone.BETA_REGION;
import static io.schedext.plugins.volumezone.VolumeZone.BETA_ZONE;
import static io.schedext.plugins.volumezone.VolumeZone.REGION;
import static io.schedext.plugins.volumezone.VolumeZone.ZONE;
import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.PersistentVolume;
import io.fabric8.kubernetes.api.model.PersistentVolumeBuilder;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaim;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaimBuilder;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaimVolumeSource;
import io.fabric8.kubernetes.api.model.VolumeBuilder;
import io.fabric8.kubernetes.api.model.storage.StorageClass;
import io.fabric8.kubernetes.api.model.storage.StorageClassBuilder;
import io.schedext.cluster.ObjectStore;
import io.schedext.framework.CycleState;
import io.schedext.framework.NodeInfo;
import io.schedext.framework.PluginArgs;
import io.schedext.framework.PodInfo;
import io.schedext.framework.Status;
import io.schedext.plugins.Names;
import io.schedext.testing.MakeNode;
import io.schedext.testing.MakePod;
import io.schedext.testing.NodeWrapper;
import io.schedext.testing.TestFrameworks;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

class VolumeZoneTest {

  private static final Status CONFLICT =
      Status.unresolvable(VolumeZone.ERR_REASON_CONFLICT).withPlugin(Names.VOLUME_ZONE);

  /**
   * One row: PreFilter returns {@code wantPreFilter} and Filter (called regardless, as upstream's
   * tests do) returns {@code wantFilter}.
   */
  record Case(String name, PodInfo pod, NodeInfo node, Status wantPreFilter, Status wantFilter) {
    @Override
    public String toString() {
      return name;
    }
  }

  static Status unresolvable(String reason) {
    return Status.unresolvable(reason).withPlugin(Names.VOLUME_ZONE);
  }

  static PersistentVolume pv(String name, Map<String, String> labels) {
    return new PersistentVolumeBuilder()
        .withNewMetadata()
        .withName(name)
        .withLabels(labels)
        .endMetadata()
        .build();
  }

  static PersistentVolumeClaim boundClaim(String name, String volume) {
    return new PersistentVolumeClaimBuilder()
        .withNewMetadata()
        .withNamespace("default")
        .withName(name)
        .endMetadata()
        .withNewSpec()
        .withVolumeName(volume)
        .endSpec()
        .build();
  }

  static PersistentVolumeClaim unboundClaim(String name, String className) {
    return new PersistentVolumeClaimBuilder()
        .withNewMetadata()
        .withNamespace("default")
        .withName(name)
        .endMetadata()
        .withNewSpec()
        .withStorageClassName(className)
        .endSpec()
        .build();
  }

  static StorageClass storageClass(String name, String mode) {
    return new StorageClassBuilder()
        .withNewMetadata()
        .withName(name)
        .endMetadata()
        .withVolumeBindingMode(mode)
        .build();
  }

  static ObjectStore store() {
    ObjectStore s = new ObjectStore();
    Stream.of(
            pv("Vol_1", Map.of(BETA_ZONE, "us-west1-a")),
            pv("Vol_2", Map.of(BETA_REGION, "us-west1", "uselessLabel", "none")),
            pv("Vol_3", Map.of(BETA_REGION, "us-west1")),
            pv("Vol_Stable_1", Map.of(ZONE, "us-west1-a")),
            pv("Vol_Stable_2", Map.of(REGION, "us-west1", "uselessLabel", "none")),
            pv("Vol_Stable_3", Map.of(ZONE, "us-west1-a", REGION, "us-west1-a")),
            pv("Vol_Multi_1", Map.of(BETA_ZONE, "us-west1-c__us-west1-a")),
            pv("Vol_Multi_Stable", Map.of(ZONE, "us-west1-c__us-west1-a")),
            pv("Vol_Spaces", Map.of(ZONE, " us-west1-c __ us-west1-a ")),
            pv("Vol_Empty_Element", Map.of(ZONE, "us-west1-c____us-west1-a", REGION, "us-west1")),
            pv("Vol_Region_Zone", Map.of(ZONE, "us-west1-a", REGION, "us-west1")))
        .forEach(s::put);
    Stream.of(
            boundClaim("PVC_1", "Vol_1"),
            boundClaim("PVC_2", "Vol_2"),
            boundClaim("PVC_3", "Vol_3"),
            boundClaim("PVC_4", "Vol_not_exist"),
            boundClaim("PVC_Stable_1", "Vol_Stable_1"),
            boundClaim("PVC_Stable_2", "Vol_Stable_2"),
            boundClaim("PVC_Stable_3", "Vol_Stable_3"),
            boundClaim("PVC_Multi_1", "Vol_Multi_1"),
            boundClaim("PVC_Multi_Stable", "Vol_Multi_Stable"),
            boundClaim("PVC_Spaces", "Vol_Spaces"),
            boundClaim("PVC_Empty_Element", "Vol_Empty_Element"),
            boundClaim("PVC_Region_Zone", "Vol_Region_Zone"),
            unboundClaim("PVC_NoSC", "Class_0"),
            unboundClaim("PVC_EmptySC", null),
            unboundClaim("PVC_WaitSC", "Class_Wait"),
            unboundClaim("PVC_ImmediateSC", "Class_Immediate"),
            unboundClaim("PVC_ExplicitImmediateSC", "Class_Explicit_Immediate"))
        .forEach(s::put);
    s.put(storageClass("Class_Immediate", null));
    s.put(storageClass("Class_Explicit_Immediate", "Immediate"));
    s.put(storageClass("Class_Wait", "WaitForFirstConsumer"));
    return s;
  }

  static PodInfo podWith(String... claims) {
    var w = MakePod.pod().name("pod_1");
    for (String c : claims) {
      w.pvc(c);
    }
    return w.info();
  }

  static NodeInfo node(String... labels) {
    NodeWrapper w = MakeNode.node().name("host1");
    for (int i = 0; i < labels.length; i += 2) {
      w.label(labels[i], labels[i + 1]);
    }
    return w.info();
  }

  static Case fits(String name, PodInfo pod, NodeInfo node) {
    return new Case(name, pod, node, Status.success(), Status.success());
  }

  static Case conflicts(String name, PodInfo pod, NodeInfo node) {
    return new Case(name, pod, node, Status.success(), CONFLICT);
  }

  static Case fails(String name, PodInfo pod, Status status) {
    return new Case(
        name, pod, node(BETA_ZONE, "us-west1-a", "uselessLabel", "none"), status, status);
  }

  /** Upstream's TestSingleZone. */
  static Stream<Case> singleZone() {
    return Stream.of(
        new Case(
            "a pod without volumes is skipped",
            MakePod.pod().name("pod_1").info(),
            node(BETA_ZONE, "us-west1-a"),
            Status.skip(),
            Status.success()),
        fits("a node without zone labels fits", podWith("PVC_1"), node()),
        fits(
            "the beta zone label matches",
            podWith("PVC_1"),
            node(BETA_ZONE, "us-west1-a", "uselessLabel", "none")),
        fits(
            "the beta region label matches",
            podWith("PVC_2"),
            node(BETA_REGION, "us-west1", "uselessLabel", "none")),
        conflicts(
            "the beta region label differs",
            podWith("PVC_2"),
            node(BETA_REGION, "no_us-west1", "uselessLabel", "none")),
        conflicts(
            "the beta zone label differs",
            podWith("PVC_1"),
            node(BETA_ZONE, "no_us-west1-a", "uselessLabel", "none")),
        fits(
            "the GA zone label matches",
            podWith("PVC_Stable_1"),
            node(ZONE, "us-west1-a", "uselessLabel", "none")),
        fits(
            "the GA region label matches",
            podWith("PVC_Stable_2"),
            node(REGION, "us-west1", "uselessLabel", "none")),
        conflicts(
            "the GA region label differs",
            podWith("PVC_Stable_2"),
            node(REGION, "no_us-west1", "uselessLabel", "none")),
        conflicts(
            "the GA zone label differs",
            podWith("PVC_Stable_1"),
            node(ZONE, "no_us-west1-a", "uselessLabel", "none")),
        conflicts(
            "a volume with zone and region does not fit a node with the zone only",
            podWith("PVC_Stable_3"),
            node(ZONE, "us-west1-a")),
        conflicts(
            "a GA volume label is not matched by the node's beta label",
            podWith("PVC_Stable_1"),
            node(BETA_ZONE, "us-west1-a")),
        fits(
            "a beta volume label is matched by the node's GA label",
            podWith("PVC_1"),
            node(ZONE, "us-west1-a")),
        conflicts(
            "a beta volume label against a different GA node label conflicts",
            podWith("PVC_1"),
            node(ZONE, "us-west1-b")));
  }

  /** Upstream's TestMultiZone: {@code __} separates a set of zones. */
  static Stream<Case> multiZone() {
    return Stream.of(
        fits("a multi-zone volume fits a node without labels", podWith("PVC_Multi_1"), node()),
        fits(
            "a node zone inside the beta zone set fits",
            podWith("PVC_Multi_1"),
            node(BETA_ZONE, "us-west1-a", "uselessLabel", "none")),
        conflicts(
            "a beta zone outside a single-zone volume conflicts",
            podWith("PVC_1"),
            node(BETA_ZONE, "us-west1-b", "uselessLabel", "none")),
        fits(
            "a node zone inside the GA zone set fits",
            podWith("PVC_Multi_Stable"),
            node(ZONE, "us-west1-a", "uselessLabel", "none")),
        conflicts(
            "a GA zone outside a single-zone volume conflicts",
            podWith("PVC_Stable_1"),
            node(ZONE, "us-west1-b", "uselessLabel", "none")),
        fits(
            "spaces around the set's elements are trimmed",
            podWith("PVC_Spaces"),
            node(ZONE, "us-west1-a")),
        fits(
            "a zone label with an empty element is ignored, its region still counts",
            podWith("PVC_Empty_Element"),
            node(ZONE, "elsewhere", REGION, "us-west1")),
        conflicts(
            "every bound volume of the pod must fit",
            podWith("PVC_Stable_1", "PVC_Stable_2"),
            node(ZONE, "us-west1-a", REGION, "us-west2")),
        fits(
            "zone and region both matching fit",
            podWith("PVC_Region_Zone"),
            node(ZONE, "us-west1-a", REGION, "us-west1")));
  }

  /** Upstream's TestWithBinding, plus the lookup failures it leaves out. */
  static Stream<Case> withBinding() {
    return Stream.of(
        fits(
            "a bound claim in the node's zone fits",
            podWith("PVC_1"),
            node(BETA_ZONE, "us-west1-a", "uselessLabel", "none")),
        fails(
            "an unbound claim without a class is unresolvable",
            podWith("PVC_EmptySC"),
            unresolvable("PersistentVolumeClaim had no pv name and storageClass name")),
        fails(
            "an unbound claim of a missing class is unresolvable with the lister's text",
            podWith("PVC_NoSC"),
            unresolvable("storageclass.storage.k8s.io \"Class_0\" not found")),
        fails(
            "an unbound claim of a class without binding mode is unresolvable",
            podWith("PVC_ImmediateSC"),
            unresolvable("VolumeBindingMode not set for StorageClass \"Class_Immediate\"")),
        fails(
            "an unbound claim of an Immediate class has no volume yet",
            podWith("PVC_ExplicitImmediateSC"),
            unresolvable("PersistentVolume had no name")),
        new Case(
            "an unbound WaitForFirstConsumer claim is skipped",
            podWith("PVC_WaitSC"),
            node(BETA_ZONE, "us-west1-a"),
            Status.skip(),
            Status.success()),
        fails(
            "a missing claim is unresolvable",
            podWith("PVC_missing"),
            unresolvable("persistentvolumeclaim \"PVC_missing\" not found")),
        fails(
            "a claim bound to a missing volume is unresolvable",
            podWith("PVC_4"),
            unresolvable("persistentvolume \"Vol_not_exist\" not found")),
        fails(
            "a volume naming no claim is unresolvable",
            MakePod.pod()
                .name("pod_1")
                .volume(
                    new VolumeBuilder()
                        .withName("v")
                        .withPersistentVolumeClaim(new PersistentVolumeClaimVolumeSource("", false))
                        .build())
                .info(),
            unresolvable("PersistentVolumeClaim had no name")));
  }

  static Stream<Case> cases() {
    return Stream.of(singleZone(), multiZone(), withBinding()).flatMap(s -> s);
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void preFilterAndFilter(Case c) {
    VolumeZone plugin = VolumeZone.create(PluginArgs.none(), TestFrameworks.handle(store()));
    CycleState state = TestFrameworks.cycleState(List.of(c.node()));
    assertThat(plugin.preFilter(state, c.pod()).status()).isEqualTo(c.wantPreFilter());
    assertThat(plugin.filter(state, c.pod(), c.node())).isEqualTo(c.wantFilter());
  }
}
