package io.schedext.kube;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.fabric8.kubernetes.api.model.ContainerStatusBuilder;
import io.fabric8.kubernetes.api.model.ManagedFieldsEntryBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
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
        .endSpec()
        .withNewStatus()
        .withPhase("Running")
        .withContainerStatuses(
            List.of(new ContainerStatusBuilder().withName("c").withRestartCount(3).build()))
        .withInitContainerStatuses(List.of(new ContainerStatusBuilder().withName("i").build()))
        .endStatus()
        .build();
  }

  @Test
  void decodingSkipsManagedFieldsAndContainerStatusesAndKeepsTheRest() throws Exception {
    String json = plain.writeValueAsString(pod());

    Pod decoded = skipping.readValue(json, Pod.class);

    assertThat(decoded.getMetadata().getManagedFields()).isEmpty();
    assertThat(decoded.getStatus().getContainerStatuses()).isEmpty();
    assertThat(decoded.getStatus().getInitContainerStatuses()).isEmpty();
    assertThat(decoded.getMetadata().getAdditionalProperties()).doesNotContainKey("managedFields");
    Pod expected = pod();
    expected.getMetadata().setManagedFields(List.of());
    expected.getStatus().setContainerStatuses(List.of());
    expected.getStatus().setInitContainerStatuses(List.of());
    assertThat(decoded).isEqualTo(expected);
  }

  @Test
  void encodingStillWritesThemWhenAnObjectHasThem() throws Exception {
    assertThat(skipping.writeValueAsString(pod())).isEqualTo(plain.writeValueAsString(pod()));
  }
}
