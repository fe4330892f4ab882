package io.schedext.extender;

import static org.assertj.core.api.Assertions.assertThat;

import io.schedext.testing.Http;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.test.context.SpringBootTest;

/**
 * The text reports the docs show are what the service answers on the demo cluster, character for
 * character.
 */
@SpringBootTest(
    webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
    properties = ExplainByNameTest.UNTOUCHED_DEMO)
class DocsExplainReportTest {

  @Value("${local.server.port}")
  int port;

  record Shown(String doc, String example) {
    @Override
    public String toString() {
      return doc + " shows the " + example + " report as the service writes it";
    }
  }

  static Stream<Shown> shown() {
    return Stream.of(
        new Shown("docs/api.md", "shop/redis-2"),
        new Shown("docs/verify.md", "shop/redis-2"),
        new Shown("docs/api.md", "docs/examples/pod.yaml"),
        new Shown("docs/troubleshooting.md", "docs/examples/pod.yaml"),
        new Shown("README.md", "ml/training"),
        new Shown("docs/api.md", "ml/training"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("shown")
  void theDocShowsTheLiveReport(Shown s) throws Exception {
    Http http = new Http(port);
    Http.Reply r =
        s.example().endsWith(".yaml")
            ? http.post(
                "/scheduler/explain?format=text",
                Files.readString(Path.of(s.example())),
                "application/yaml",
                "*/*")
            : http.get("/scheduler/explain/" + s.example() + "?format=text");
    assertThat(r.status()).isEqualTo(200);
    assertThat(Files.readString(Path.of(s.doc()))).contains("\n" + r.body() + "```\n");
  }
}
