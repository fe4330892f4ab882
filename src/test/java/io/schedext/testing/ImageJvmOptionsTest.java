package io.schedext.testing;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The image's JVM options as the benchmarks read them: the inlining options are there, once each,
 * so a benchmark of the service runs it with the compiler settings the image ships (a typo in the
 * Dockerfile would otherwise leave the benchmarks on the JVM's defaults without a word).
 */
class ImageJvmOptionsTest {

  @Test
  void theImageSetsTheInliningOptionsOnceEachWithANumber() {
    List<String> compiler = ImageJvmOptions.compiler();

    assertThat(compiler)
        .extracting(o -> o.substring(0, o.indexOf('=') + 1))
        .containsExactlyInAnyOrder("-XX:MaxInlineLevel=", "-XX:InlineSmallCode=");
    assertThat(compiler).allMatch(o -> o.matches("-XX:\\w+=\\d+"));
    assertThat(ImageJvmOptions.all()).containsAll(compiler).contains("-XX:MaxRAMPercentage=75");
  }

  @Test
  void theBenchmarksRunTheImagesCollectorAndMemoryOptions() {
    assertThat(ImageJvmOptions.all()).contains("-XX:+Use" + ImageJvmOptions.gc() + "GC");
    assertThat(ImageJvmOptions.gc()).isEqualTo("Parallel");
    assertThat(ImageJvmOptions.memory())
        .containsExactly("-XX:MetaspaceSize=128m", "-XX:+UseTransparentHugePages");
  }
}
