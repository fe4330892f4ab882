package io.schedext.config;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.reflect.RecordComponent;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * docs/configuration.md lists every property {@link ExtenderProperties} declares, and nothing it
 * does not.
 */
class DocsConfigurationTest {

  @Test
  void everyDeclaredPropertyIsDocumented() throws Exception {
    String doc = Files.readString(Path.of("docs/configuration.md"));
    List<String> declared = new ArrayList<>();
    collect("extender", ExtenderProperties.class, declared);
    assertThat(declared).isNotEmpty();
    for (String p : declared) {
      assertThat(doc).as("docs/configuration.md documents " + p).contains("`" + p + "`");
    }
    var documented =
        Pattern.compile("`(extender\\.[a-z.-]+)`")
            .matcher(doc)
            .results()
            .map(m -> m.group(1))
            .distinct()
            .toList();
    assertThat(declared).as("every documented property exists").containsAll(documented);
  }

  private static void collect(String prefix, Class<?> type, List<String> out) {
    for (RecordComponent c : type.getRecordComponents()) {
      String name = prefix + "." + kebab(c.getName());
      if (c.getType().isRecord()) {
        collect(name, c.getType(), out);
      } else {
        out.add(name);
      }
    }
  }

  private static String kebab(String camel) {
    return camel.replaceAll("([a-z0-9])([A-Z])", "$1-$2").toLowerCase();
  }
}
