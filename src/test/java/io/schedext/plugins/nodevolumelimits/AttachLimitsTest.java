package io.schedext.plugins.nodevolumelimits;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/** The limit-key and in-tree translation helpers of NodeVolumeLimits. */
class AttachLimitsTest {

  @Test
  void limitKeysOfLongDriverNamesAreShortenedWithASha1Suffix() {
    assertThat(AttachLimits.key("ebs.csi.aws.com"))
        .isEqualTo("attachable-volumes-csi-ebs.csi.aws.com");
    assertThat(AttachLimits.key("exactly-forty-chars-long-driver-name.io"))
        .isEqualTo("attachable-volumes-csi-exactly-forty-chars-long-driver-name.io");
    assertThat(AttachLimits.key("exactly-forty-chars-long-driver-name.io1"))
        .isEqualTo("attachable-volumes-csi-exactly-forty-chars-lon8bf0972823979492");
    assertThat(AttachLimits.key("very-long-driver-name.storage.example.company.com"))
        .isEqualTo("attachable-volumes-csi-very-long-driver-name.s3bf25ba5a54dbb4a");
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
