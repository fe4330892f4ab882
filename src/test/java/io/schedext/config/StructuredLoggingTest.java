package io.schedext.config;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;

/**
 * The documented switch to JSON logs: {@code logging.structured.format.console=ecs} writes one JSON
 * object a line.
 */
@SpringBootTest(properties = "logging.structured.format.console=ecs")
@ExtendWith(OutputCaptureExtension.class)
class StructuredLoggingTest {

  @Test
  void aLogLineIsOneEcsJsonObject(CapturedOutput output) {
    org.slf4j.LoggerFactory.getLogger(StructuredLoggingTest.class).info("structured logging check");
    assertThat(output.getOut().lines().filter(l -> l.contains("structured logging check")))
        .singleElement()
        .satisfies(
            l ->
                assertThat(l)
                    .startsWith("{")
                    .contains("\"@timestamp\"")
                    .contains("\"log\":{\"level\":\"INFO\"")
                    .contains("\"message\":\"structured logging check\""));
  }
}
