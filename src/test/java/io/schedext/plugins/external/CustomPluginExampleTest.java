package io.schedext.plugins.external;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.schedext.cluster.ObjectStore;
import io.schedext.framework.CycleState;
import io.schedext.framework.ExtensionPoint;
import io.schedext.framework.FrameworkException;
import io.schedext.framework.NodeInfo;
import io.schedext.framework.PodInfo;
import io.schedext.framework.Profile;
import io.schedext.framework.Registry;
import io.schedext.framework.Status;
import io.schedext.framework.runtime.Framework;
import io.schedext.profiles.InTreeRegistry;
import io.schedext.testing.MakeNode;
import io.schedext.testing.MakePod;
import io.schedext.testing.TestFrameworks;
import java.io.IOException;
import java.io.OutputStream;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.stream.Stream;
import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Builds the worked example under docs/examples/custom-plugin into a jar, as a plugin author would,
 * loads it the way the service does (ServiceLoader over the classpath), and runs its plugin in a
 * profile with typed args.
 */
class CustomPluginExampleTest {

  private static final Path EXAMPLE = Path.of("docs/examples/custom-plugin");

  @TempDir Path tmp;

  private URLClassLoader exampleJar() throws IOException {
    Path classes = tmp.resolve("classes");
    Files.createDirectories(classes);
    List<String> args =
        new ArrayList<>(
            List.of(
                "-d",
                classes.toString(),
                "-cp",
                System.getProperty("java.class.path"),
                "--release",
                "17"));
    try (Stream<Path> s = Files.walk(EXAMPLE.resolve("src/main/java"))) {
      s.filter(p -> p.toString().endsWith(".java")).forEach(p -> args.add(p.toString()));
    }
    JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
    assertThat(javac.run(null, null, null, args.toArray(new String[0])))
        .as("the example compiles")
        .isZero();
    Path jar = tmp.resolve("prefer-label-plugin.jar");
    try (JarOutputStream out = new JarOutputStream(Files.newOutputStream(jar))) {
      add(out, classes);
      add(out, EXAMPLE.resolve("src/main/resources"));
    }
    return new URLClassLoader(new URL[] {jar.toUri().toURL()}, getClass().getClassLoader());
  }

  private static void add(JarOutputStream out, Path root) throws IOException {
    try (Stream<Path> s = Files.walk(root)) {
      for (Path p : s.filter(Files::isRegularFile).toList()) {
        out.putNextEntry(new JarEntry(root.relativize(p).toString().replace('\\', '/')));
        try (var in = Files.newInputStream(p)) {
          in.transferTo((OutputStream) out);
        }
        out.closeEntry();
      }
    }
  }

  @Test
  void theExampleJarRegistersItsPluginAndAProfileRunsItWithTypedArgs() throws Exception {
    try (URLClassLoader loader = exampleJar()) {
      Registry registry = InTreeRegistry.withProviders(loader);
      assertThat(registry.names()).contains("PreferLabel", "NodeResourcesFit");
      Profile profile =
          new Profile(
              "with-example",
              List.of(Profile.PluginRef.of("NodeName"), new Profile.PluginRef("PreferLabel", 2)),
              Map.of(),
              Map.of(
                  "PreferLabel",
                  TestFrameworks.json(
                      "{\"key\":\"disktype\",\"preferred\":[\"ssd\"],\"required\":true}")));
      Framework fw =
          Framework.create(profile, registry, TestFrameworks.services(new ObjectStore()));
      assertThat(fw.pluginNames(ExtensionPoint.FILTER)).containsExactly("NodeName", "PreferLabel");
      assertThat(fw.scoreWeights()).containsEntry("PreferLabel", 2);
      NodeInfo ssd = MakeNode.node().name("ssd-node").label("disktype", "ssd").info();
      NodeInfo hdd = MakeNode.node().name("hdd-node").label("disktype", "hdd").info();
      PodInfo pod = MakePod.pod().name("p").info();
      CycleState state = fw.newCycleState(io.schedext.cache.Snapshot.of(List.of(ssd, hdd)));
      fw.runPreFilterPlugins(state, pod);
      assertThat(fw.runFilterPlugins(state, pod, ssd).isSuccess()).isTrue();
      assertThat(fw.runFilterPlugins(state, pod, hdd))
          .isEqualTo(
              Status.unresolvable("node(s) didn't have label disktype in [ssd]")
                  .withPlugin("PreferLabel"));
      assertThat(fw.runScorePlugins(state, pod, List.of(ssd, hdd)).totals())
          .containsExactly(200L, 0L);
    }
  }

  @Test
  void invalidArgsOfTheExamplePluginNameTheField() throws Exception {
    try (URLClassLoader loader = exampleJar()) {
      Registry registry = InTreeRegistry.withProviders(loader);
      Profile profile =
          new Profile(
              "bad",
              List.of(Profile.PluginRef.of("PreferLabel")),
              Map.of(),
              Map.of("PreferLabel", TestFrameworks.json("{\"preferred\":[\"ssd\"]}")));
      assertThatThrownBy(
              () -> Framework.create(profile, registry, TestFrameworks.services(new ObjectStore())))
          .isInstanceOf(FrameworkException.class)
          .hasMessage("PreferLabel args: key: Required value");
    }
  }

  @Test
  void aProviderRegisteringAnInTreeNameStopsStartUpNamingTheProvider() throws Exception {
    Path src = tmp.resolve("clash/src/com/example/Clash.java");
    Files.createDirectories(src.getParent());
    Files.writeString(
        src,
        "package com.example;\n"
            + "public final class Clash implements io.schedext.framework.PluginProvider {\n"
            + "  public void register(io.schedext.framework.Registry r) {\n"
            + "    r.register(\"NodeName\", (a, h) -> null);\n"
            + "  }\n"
            + "}\n");
    Path classes = tmp.resolve("clash/classes");
    Files.createDirectories(classes.resolve("META-INF/services"));
    Files.writeString(
        classes.resolve("META-INF/services/io.schedext.framework.PluginProvider"),
        "com.example.Clash\n");
    assertThat(
            ToolProvider.getSystemJavaCompiler()
                .run(
                    null,
                    null,
                    null,
                    "-d",
                    classes.toString(),
                    "-cp",
                    System.getProperty("java.class.path"),
                    src.toString()))
        .isZero();
    try (URLClassLoader loader =
        new URLClassLoader(new URL[] {classes.toUri().toURL()}, getClass().getClassLoader())) {
      assertThatThrownBy(() -> InTreeRegistry.withProviders(loader))
          .isInstanceOf(FrameworkException.class)
          .hasMessage("plugin provider com.example.Clash: a plugin named NodeName already exists");
    }
  }
}
