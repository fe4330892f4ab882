package io.schedext.config;

import io.schedext.plugins.InTreeRegistry;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

class ScratchTest {
  @Test
  void print() throws Exception {
    try (var files = Files.list(Path.of("policy-examples/policies"))) {
      for (Path f : files.sorted().toList()) {
        if (f.toString().endsWith(".profile.yaml")) continue;
        System.out.println("=== " + f);
        FrameworkView.of(new PolicyTranslator().translate(f.toString(), "default-scheduler")).forEach(v -> System.out.println(v.describe()));
      }
    }
    try (var files = Files.list(Path.of("policy-examples/profiles"))) {
      for (Path f : files.sorted().toList()) {
        System.out.println("=== " + f);
        FrameworkView.of(new SchedulerConfigLoader(InTreeRegistry.create().names()).load(f.toString())).forEach(v -> System.out.println(v.describe()));
      }
    }
    System.out.println("=== builtin");
    FrameworkView.of(SchedulerConfigLoader.builtIn("default-scheduler")).forEach(v -> System.out.println(v.describe()));
  }
}
