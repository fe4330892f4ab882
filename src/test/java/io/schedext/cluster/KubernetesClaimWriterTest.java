package io.schedext.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaimBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaimConsumerReferenceBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.fabric8.mockwebserver.Context;
import io.fabric8.mockwebserver.MockWebServer;
import io.schedext.framework.FrameworkException;
import io.schedext.framework.ResourceClaimWriter;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * {@link KubernetesClaimWriter} against fabric8's CRUD API: the finalizer update, the status
 * update, the reservation patch and the read after a conflict are the requests {@link ApiAccess}
 * declares for them, a stale claim is a {@link ResourceClaimWriter.Conflict}, a missing one a
 * {@link ResourceClaimWriter.NotFound}.
 */
class KubernetesClaimWriterTest {

  private ApiAccessTest.RecordingApi api;
  private KubernetesMockServer server;
  private KubernetesClient client;
  private KubernetesClaimWriter writer;

  @BeforeEach
  void start() {
    api = new ApiAccessTest.RecordingApi();
    server =
        new KubernetesMockServer(new Context(), new MockWebServer(), new HashMap<>(), api, false);
    server.init(java.net.InetAddress.getLoopbackAddress(), 0);
    client = server.createClient();
    writer = new KubernetesClaimWriter(client, Duration.ofSeconds(5));
  }

  @AfterEach
  void stop() {
    client.close();
    server.destroy();
  }

  private ResourceClaim created() {
    return client
        .dynamicResourceAllocation()
        .v1()
        .resourceClaims()
        .inNamespace("ns")
        .resource(
            new ResourceClaimBuilder()
                .withNewMetadata()
                .withName("gpu")
                .withNamespace("ns")
                .endMetadata()
                .withNewSpec()
                .withNewDevices()
                .endDevices()
                .endSpec()
                .build())
        .create();
  }

  @Test
  void theWritesAreTheDeclaredOnes() {
    ResourceClaim c = created();
    api.recording = true;
    ResourceClaim withFinalizer =
        writer.update(
            new ResourceClaimBuilder(c)
                .editMetadata()
                .addToFinalizers("resource.kubernetes.io/delete-protection")
                .endMetadata()
                .build());
    assertThat(withFinalizer.getMetadata().getFinalizers())
        .containsExactly("resource.kubernetes.io/delete-protection");
    ResourceClaim reserved =
        writer.updateStatus(
            new ResourceClaimBuilder(withFinalizer)
                .withNewStatus()
                .withReservedFor(
                    new ResourceClaimConsumerReferenceBuilder()
                        .withResource("pods")
                        .withName("p")
                        .withUid("pod-uid")
                        .build())
                .endStatus()
                .build());
    assertThat(reserved.getStatus().getReservedFor()).hasSize(1);
    assertThat(writer.get("ns", "gpu").getMetadata().getName()).isEqualTo("gpu");
    try {
      writer.removeReservation(reserved, "pod-uid");
    } catch (FrameworkException e) {
      // The CRUD mock knows no strategic merge patch (415); the request is what counts here.
    }
    Set<String> declared = ApiAccess.triples();
    assertThat(new TreeSet<>(api.seen))
        .isSubsetOf(declared)
        .containsAll(
            List.of(
                "resource.k8s.io/resourceclaims:update",
                "resource.k8s.io/resourceclaims/status:update",
                "resource.k8s.io/resourceclaims:get",
                "resource.k8s.io/resourceclaims/status:patch"));
  }

  @Test
  void aStaleClaimIsAConflictAndAMissingOneNotFound() {
    ResourceClaim c = created();
    writer.update(
        new ResourceClaimBuilder(c).editMetadata().addToLabels("a", "b").endMetadata().build());
    assertThatThrownBy(
            () ->
                writer.update(
                    new ResourceClaimBuilder(c)
                        .editMetadata()
                        .addToLabels("c", "d")
                        .endMetadata()
                        .build()))
        .isInstanceOf(ResourceClaimWriter.Conflict.class);
    assertThatThrownBy(() -> writer.get("ns", "missing"))
        .isInstanceOf(ResourceClaimWriter.NotFound.class);
  }
}
