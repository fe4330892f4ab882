package io.schedext.plugins.nodevolumelimits;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.api.model.storage.CSINode;
import io.fabric8.kubernetes.api.model.storage.CSINodeBuilder;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The limits and in-tree translation helpers of NodeVolumeLimits. */
class AttachLimitsTest {

  @Test
  void limitsAreTheCsiNodeCountsByDriverName() {
    CSINode csiNode =
        new CSINodeBuilder()
            .withNewMetadata()
            .withName("n")
            .endMetadata()
            .withNewSpec()
            .addNewDriver()
            .withName("very-long-driver-name.storage.example.company.com")
            .withNodeID("n")
            .withNewAllocatable()
            .withCount(7)
            .endAllocatable()
            .endDriver()
            .addNewDriver()
            .withName("no-limit.example.com")
            .withNodeID("n")
            .endDriver()
            .endSpec()
            .build();
    assertThat(AttachLimits.of(csiNode))
        .isEqualTo(Map.of("very-long-driver-name.storage.example.company.com", 7L));
    assertThat(AttachLimits.of(null)).isEmpty();
  }

  @Test
  void ebsVolumeIdsAreTranslatedFromTheirUrlForm() {
    assertThat(InTreeVolumes.ebsVolumeId("vol-123")).isEqualTo("vol-123");
    assertThat(InTreeVolumes.ebsVolumeId("aws://us-east-1a/vol-123")).isEqualTo("vol-123");
    assertThat(InTreeVolumes.ebsVolumeId("aws:///vol-123")).isEqualTo("vol-123");
  }

  @Test
  void malformedEbsUrlsAndMixedRegionsDoNotTranslate() {
    assertThatThrownBy(() -> InTreeVolumes.ebsVolumeId("aws://zone/not-a-volume"))
        .hasMessage("Invalid format for AWS volume (aws://zone/not-a-volume)");
  }
}
