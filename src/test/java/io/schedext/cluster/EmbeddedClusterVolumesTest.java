package io.schedext.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.api.model.NodeSelectorRequirementBuilder;
import io.fabric8.kubernetes.api.model.ObjectReferenceBuilder;
import io.fabric8.kubernetes.api.model.PersistentVolume;
import io.fabric8.kubernetes.api.model.PersistentVolumeBuilder;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaim;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaimBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.schedext.cache.SchedulerCache;
import io.schedext.framework.FrameworkException;
import io.schedext.framework.VolumeWriter;
import java.time.Clock;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The embedded cluster's volume writes (API server semantics) and its PV controller stand-in. */
class EmbeddedClusterVolumesTest {

  static final String FILE = "classpath:cluster/volume-binding-cluster.yaml";

  private ObjectStore store;
  private VolumeWriter writer;

  @BeforeEach
  void load() {
    store = new ObjectStore();
    EmbeddedCluster cluster =
        new EmbeddedCluster(
            new SchedulerCache(Clock.systemUTC(), Duration.ofMinutes(5)), store, FILE);
    cluster.start();
    writer = cluster.volumeWriter();
  }

  private PersistentVolume pv(String name) {
    return store.persistentVolume(name);
  }

  private PersistentVolumeClaim claim(String name) {
    return store.persistentVolumeClaim("default", name);
  }

  private static PersistentVolume preBound(PersistentVolume pv, PersistentVolumeClaim claim) {
    return new PersistentVolumeBuilder(pv)
        .editMetadata()
        .addToAnnotations(EmbeddedVolumeController.ANN_BOUND_BY_CONTROLLER, "yes")
        .endMetadata()
        .editSpec()
        .withClaimRef(
            new ObjectReferenceBuilder()
                .withKind("PersistentVolumeClaim")
                .withApiVersion("v1")
                .withNamespace("default")
                .withName(claim.getMetadata().getName())
                .withUid(claim.getMetadata().getUid())
                .build())
        .endSpec()
        .build();
  }

  private static PersistentVolumeClaim selected(PersistentVolumeClaim claim, String node) {
    return new PersistentVolumeClaimBuilder(claim)
        .editMetadata()
        .addToAnnotations(EmbeddedVolumeController.ANN_SELECTED_NODE, node)
        .endMetadata()
        .build();
  }

  @Test
  void loadedVolumesAndClaimsGetAUidAndAResourceVersion() {
    assertThat(pv("local-pv-1").getMetadata().getUid()).isNotEmpty();
    assertThat(Long.parseLong(pv("local-pv-1").getMetadata().getResourceVersion())).isPositive();
    assertThat(claim("data-a").getMetadata().getUid()).isNotEmpty();
    assertThat(claim("data-a").getMetadata().getResourceVersion())
        .isNotEqualTo(claim("scratch-b").getMetadata().getResourceVersion());
  }

  @Test
  void aVolumeWrittenWithAClaimReferenceIsBoundToThatClaim() {
    PersistentVolume before = pv("local-pv-1");
    PersistentVolume written = writer.updatePersistentVolume(preBound(before, claim("data-a")));

    assertThat(Long.parseLong(written.getMetadata().getResourceVersion()))
        .isGreaterThan(Long.parseLong(before.getMetadata().getResourceVersion()));
    assertThat(written.getStatus().getPhase()).isEqualTo("Available");
    assertThat(pv("local-pv-1").getStatus().getPhase()).isEqualTo("Bound");
    PersistentVolumeClaim bound = claim("data-a");
    assertThat(bound.getSpec().getVolumeName()).isEqualTo("local-pv-1");
    assertThat(bound.getMetadata().getAnnotations())
        .containsEntry("pv.kubernetes.io/bind-completed", "yes")
        .containsEntry("pv.kubernetes.io/bound-by-controller", "yes");
    assertThat(bound.getStatus().getPhase()).isEqualTo("Bound");
    assertThat(bound.getStatus().getCapacity()).containsEntry("storage", new Quantity("10Gi"));
  }

  @Test
  void aWriteOfAnOlderVersionIsAConflictAndChangesNothing() {
    PersistentVolume stale = pv("local-pv-1");
    writer.updatePersistentVolume(
        new PersistentVolumeBuilder(stale)
            .editMetadata()
            .addToLabels("a", "b")
            .endMetadata()
            .build());
    PersistentVolume current = pv("local-pv-1");

    assertThatThrownBy(() -> writer.updatePersistentVolume(preBound(stale, claim("data-a"))))
        .isInstanceOf(FrameworkException.class)
        .hasMessage(
            "Operation cannot be fulfilled on persistentvolumes \"local-pv-1\": the object has been "
                + "modified; please apply your changes to the latest version and try again");
    assertThat(pv("local-pv-1")).isSameAs(current);
    assertThatThrownBy(
            () ->
                writer.updatePersistentVolumeClaim(
                    new PersistentVolumeClaimBuilder(claim("data-a"))
                        .editMetadata()
                        .withName("nope")
                        .endMetadata()
                        .build()))
        .hasMessage("persistentvolumeclaims \"nope\" not found");
  }

  @Test
  void aClaimWithASelectedNodeAndAProvisionerGetsAVolumePinnedToThatNode() {
    PersistentVolumeClaim claim = claim("scratch-b");
    writer.updatePersistentVolumeClaim(selected(claim, "node-2"));

    PersistentVolumeClaim bound = claim("scratch-b");
    String volumeName = "pvc-" + claim.getMetadata().getUid();
    assertThat(bound.getSpec().getVolumeName()).isEqualTo(volumeName);
    assertThat(bound.getMetadata().getAnnotations())
        .containsEntry("pv.kubernetes.io/bind-completed", "yes")
        .containsEntry(EmbeddedVolumeController.ANN_SELECTED_NODE, "node-2");
    PersistentVolume pv = pv(volumeName);
    assertThat(pv.getStatus().getPhase()).isEqualTo("Bound");
    assertThat(pv.getSpec().getCapacity()).containsEntry("storage", new Quantity("1Gi"));
    assertThat(pv.getSpec().getStorageClassName()).isEqualTo("fast");
    assertThat(pv.getSpec().getClaimRef().getUid()).isEqualTo(claim.getMetadata().getUid());
    assertThat(pv.getMetadata().getAnnotations())
        .containsEntry("pv.kubernetes.io/provisioned-by", "fast.csi.example.com");
    assertThat(
            pv.getSpec()
                .getNodeAffinity()
                .getRequired()
                .getNodeSelectorTerms()
                .get(0)
                .getMatchExpressions())
        .containsExactly(
            new NodeSelectorRequirementBuilder()
                .withKey("kubernetes.io/hostname")
                .withOperator("In")
                .withValues("node-2")
                .build());
  }

  @Test
  void provisioningForAnUnknownNodeFailsByDroppingTheSelectedNode() {
    writer.updatePersistentVolumeClaim(selected(claim("scratch-b"), "node-9"));

    assertThat(claim("scratch-b").getMetadata().getAnnotations())
        .doesNotContainKey(EmbeddedVolumeController.ANN_SELECTED_NODE);
    assertThat(store.persistentVolumes()).hasSize(1);
  }

  @Test
  void aClaimOfAClassWithoutProvisionerIsLeftAlone() {
    PersistentVolumeClaim written =
        writer.updatePersistentVolumeClaim(selected(claim("data-a"), "node-1"));

    assertThat(claim("data-a")).isSameAs(written);
    assertThat(store.persistentVolumes()).hasSize(1);
  }

  @Test
  void aVolumeTheControllerBoundToAClaimBoundElsewhereIsGivenBack() {
    writer.updatePersistentVolume(preBound(pv("local-pv-1"), claim("data-a")));
    store.put(
        new PersistentVolumeBuilder(pv("local-pv-1"))
            .editMetadata()
            .withName("local-pv-2")
            .withResourceVersion("1000")
            .withAnnotations(Map.of())
            .endMetadata()
            .editSpec()
            .withClaimRef(null)
            .endSpec()
            .editStatus()
            .withPhase("Available")
            .endStatus()
            .build());

    writer.updatePersistentVolume(preBound(pv("local-pv-2"), claim("data-a")));

    PersistentVolume given = pv("local-pv-2");
    assertThat(given.getSpec().getClaimRef()).isNull();
    assertThat(given.getMetadata().getAnnotations())
        .doesNotContainKey("pv.kubernetes.io/bound-by-controller");
    assertThat(given.getStatus().getPhase()).isEqualTo("Available");
    assertThat(claim("data-a").getSpec().getVolumeName()).isEqualTo("local-pv-1");
  }

  @Test
  void anUpdateThatChangesNothingKeepsTheVersion() {
    PersistentVolume pv = pv("local-pv-1");

    assertThat(writer.updatePersistentVolume(new PersistentVolumeBuilder(pv).build())).isSameAs(pv);
    assertThat(pv("local-pv-1")).isSameAs(pv);
  }

  @Test
  void podsExistWhilePendingOrAssigned() {
    assertThat(writer.podExists("default", "app-a")).isTrue();
    assertThat(writer.podExists("default", "ghost")).isFalse();
  }
}
