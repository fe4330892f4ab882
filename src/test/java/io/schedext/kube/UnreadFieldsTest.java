package io.schedext.kube;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ContainerStatus;
import io.fabric8.kubernetes.api.model.ContainerStatusBuilder;
import io.fabric8.kubernetes.api.model.ManagedFieldsEntryBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import java.util.List;
import org.junit.jupiter.api.Test;

class UnreadFieldsTest {

  private final ObjectMapper plain = new ObjectMapper();
  private final ObjectMapper skipping = UnreadFields.skipIn(new ObjectMapper());

  private static Pod pod() {
    return new PodBuilder()
        .withNewMetadata()
        .withName("p")
        .withNamespace("ns")
        .withManagedFields(
            List.of(
                new ManagedFieldsEntryBuilder()
                    .withManager("kubectl")
                    .withOperation("Update")
                    .withApiVersion("v1")
                    .withFieldsType("FieldsV1")
                    .build()))
        .endMetadata()
        .withNewSpec()
        .withNodeName("n1")
        .addNewContainer()
        .withName("app")
        .withImage("registry.example/app:1")
        .withCommand("/app")
        .withArgs("--serve")
        .addNewEnv()
        .withName("MODE")
        .withValue("prod")
        .endEnv()
        .addNewEnvFrom()
        .withNewConfigMapRef()
        .withName("settings")
        .endConfigMapRef()
        .endEnvFrom()
        .withNewLivenessProbe()
        .withNewHttpGet()
        .withPath("/healthz")
        .withNewPort(8080)
        .endHttpGet()
        .endLivenessProbe()
        .withNewReadinessProbe()
        .withPeriodSeconds(5)
        .endReadinessProbe()
        .withNewStartupProbe()
        .withFailureThreshold(30)
        .endStartupProbe()
        .withNewLifecycle()
        .withNewPreStop()
        .withNewExec()
        .withCommand("sleep", "5")
        .endExec()
        .endPreStop()
        .endLifecycle()
        .addNewVolumeMount()
        .withName("data")
        .withMountPath("/data")
        .endVolumeMount()
        .addNewVolumeDevice()
        .withName("raw")
        .withDevicePath("/dev/raw")
        .endVolumeDevice()
        .addNewPort()
        .withContainerPort(8080)
        .withHostPort(80)
        .endPort()
        .withNewResources()
        .addToRequests("cpu", new Quantity("250m"))
        .endResources()
        .endContainer()
        .endSpec()
        .withNewStatus()
        .withPhase("Running")
        .withContainerStatuses(
            List.of(
                new ContainerStatusBuilder()
                    .withName("app")
                    .withRestartCount(3)
                    .withReady(true)
                    .withImage("registry.example/app:1")
                    .withNewState()
                    .withNewRunning()
                    .withStartedAt("2026-11-01T00:00:00Z")
                    .endRunning()
                    .endState()
                    .withNewResources()
                    .addToRequests("cpu", new Quantity("500m"))
                    .endResources()
                    .addToAllocatedResources("cpu", new Quantity("400m"))
                    .build()))
        .withInitContainerStatuses(List.of(new ContainerStatusBuilder().withName("i").build()))
        .withEphemeralContainerStatuses(
            List.of(new ContainerStatusBuilder().withName("debug").build()))
        .endStatus()
        .build();
  }

  @Test
  void decodingSkipsManagedFieldsWhatAContainerRunsWithAndIsAndKeepsTheRest() throws Exception {
    String json = plain.writeValueAsString(pod());

    Pod decoded = skipping.readValue(json, Pod.class);

    assertThat(decoded.getMetadata().getManagedFields()).isEmpty();
    assertThat(decoded.getStatus().getEphemeralContainerStatuses()).isEmpty();
    ContainerStatus status = decoded.getStatus().getContainerStatuses().get(0);
    assertThat(status.getName()).isEqualTo("app");
    assertThat(status.getResources().getRequests()).containsKey("cpu");
    assertThat(status.getAllocatedResources()).containsKey("cpu");
    assertThat(status.getState()).as("skipped").isNull();
    assertThat(status.getRestartCount()).as("skipped").isNull();
    assertThat(decoded.getStatus().getInitContainerStatuses())
        .singleElement()
        .satisfies(i -> assertThat(i.getName()).isEqualTo("i"));
    assertThat(decoded.getMetadata().getAdditionalProperties()).doesNotContainKey("managedFields");
    Container c = decoded.getSpec().getContainers().get(0);
    assertThat(c.getAdditionalProperties()).isEmpty();
    assertThat(c.getPorts())
        .singleElement()
        .satisfies(p -> assertThat(p.getHostPort()).isEqualTo(80));
    assertThat(c.getResources().getRequests()).containsKey("cpu");
    Pod expected = pod();
    expected.getMetadata().setManagedFields(List.of());
    expected.getStatus().setEphemeralContainerStatuses(List.of());
    ContainerStatus es = expected.getStatus().getContainerStatuses().get(0);
    es.setRestartCount(null);
    es.setReady(null);
    es.setImage(null);
    es.setState(null);
    Container e = expected.getSpec().getContainers().get(0);
    e.setCommand(List.of());
    e.setArgs(List.of());
    e.setEnv(List.of());
    e.setEnvFrom(List.of());
    e.setLivenessProbe(null);
    e.setReadinessProbe(null);
    e.setStartupProbe(null);
    e.setLifecycle(null);
    e.setVolumeMounts(List.of());
    e.setVolumeDevices(List.of());
    assertThat(decoded).isEqualTo(expected);
  }

  @Test
  void encodingStillWritesThemWhenAnObjectHasThem() throws Exception {
    assertThat(skipping.writeValueAsString(pod())).isEqualTo(plain.writeValueAsString(pod()));
  }
}
