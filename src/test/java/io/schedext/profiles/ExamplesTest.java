package io.schedext.profiles;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import io.schedext.framework.Registry;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every file under policy-examples works as its comment says: kube-scheduler configurations pass
 * the checks kube-scheduler and the extender apply to extenders, profile files load into
 * frameworks, and every Policy becomes exactly the profile of its sibling {@code .profile.yaml}.
 */
class ExamplesTest {

  private static final Path ROOT = Path.of("policy-examples");
  private static final YAMLMapper YAML = new YAMLMapper();
  private static final Registry REGISTRY = InTreeRegistry.create();

  static Stream<Path> files(String dir) throws IOException {
    try (Stream<Path> s = Files.list(ROOT.resolve(dir))) {
      return s.sorted().toList().stream();
    }
  }

  static Stream<Path> kubeSchedulerConfigs() throws IOException {
    return files("kube-scheduler");
  }

  static Stream<Path> profileFiles() throws IOException {
    return files("profiles");
  }

  static Stream<Path> policies() throws IOException {
    return files("policies").filter(p -> !p.toString().endsWith(".profile.yaml"));
  }

  @Test
  void everyKindOfExampleIsThere() throws IOException {
    assertThat(kubeSchedulerConfigs().map(p -> p.getFileName().toString()))
        .containsExactlyInAnyOrder(
            "filter-prioritize.yaml",
            "bind.yaml",
            "preempt.yaml",
            "node-cache-capable-false.yaml",
            "https-client-cert.yaml",
            "managed-resources-ignorable.yaml");
    assertThat(profileFiles().map(p -> p.getFileName().toString()))
        .containsExactlyInAnyOrder("default-like.yaml", "bin-packing.yaml", "legacy-plugins.yaml");
    assertThat(policies()).hasSizeGreaterThanOrEqualTo(5);
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("kubeSchedulerConfigs")
  void kubeSchedulerConfigurationsRegisterTheExtenderAsKubeSchedulerRequires(Path file)
      throws IOException {
    String text = Files.readString(file);
    JsonNode root = YAML.readTree(text);
    assertThat(text).as("a comment says when to use it").startsWith("# When to use:");
    assertThat(root.path("apiVersion").asText()).isEqualTo("kubescheduler.config.k8s.io/v1");
    assertThat(root.path("kind").asText()).isEqualTo("KubeSchedulerConfiguration");
    assertThat(ExtenderEntries.problems(root.get("extenders"))).isEmpty();
    // The same file is also a valid extender.config.file (its extenders are ignored there).
    assertThat(FrameworkView.of(loader().load(file.toString())))
        .extracting(FrameworkView::name)
        .containsExactly("default-scheduler");
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("profileFiles")
  void profileFilesLoadIntoFrameworks(Path file) throws IOException {
    assertThat(Files.readString(file)).startsWith("# extender.config.file:");
    assertThat(FrameworkView.of(loader().load(file.toString()))).isNotEmpty();
  }

  @Test
  void theDefaultLikeProfileIsTheBuiltInOne() {
    assertThat(FrameworkView.of(loader().load("policy-examples/profiles/default-like.yaml")))
        .isEqualTo(FrameworkView.of(SchedulerConfigLoader.builtIn("default-scheduler", REGISTRY)));
  }

  @Test
  void theBinPackingProfileScoresMostAllocatedWithoutBalancingOrSpreading() {
    List<FrameworkView> views =
        FrameworkView.of(loader().load("policy-examples/profiles/bin-packing.yaml"));
    assertThat(views)
        .extracting(FrameworkView::name)
        .containsExactly("default-scheduler", "bin-packing");
    FrameworkView binPacking = views.get(1);
    assertThat(binPacking.plugins().get("score"))
        .startsWith("NodeResourcesFit")
        .doesNotContain("NodeResourcesBalancedAllocation", "PodTopologySpread");
    assertThat(binPacking.args().get("NodeResourcesFit").at("/scoringStrategy/type").asText())
        .isEqualTo("MostAllocated");
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("policies")
  void everyPolicyBecomesTheProfileOfItsSiblingFile(Path file) {
    String name = file.getFileName().toString();
    Path sibling = file.resolveSibling(name.substring(0, name.lastIndexOf('.')) + ".profile.yaml");
    assertThat(sibling).exists();
    List<FrameworkView> translated =
        FrameworkView.of(
            new PolicyTranslator(REGISTRY).translate(file.toString(), "default-scheduler"));
    assertThat(translated).isEqualTo(FrameworkView.of(loader().load(sibling.toString())));
  }

  record BadExtender(String name, String yaml, List<String> problems) {
    @Override
    public String toString() {
      return name;
    }
  }

  static Stream<BadExtender> badExtenders() {
    return Stream.of(
        new BadExtender(
            "no extender at all",
            "[]",
            List.of("extenders: Required value: the file registers no extender")),
        new BadExtender(
            "a missing urlPrefix and no verb",
            "[{weight: 1}]",
            List.of(
                "extenders[0].urlPrefix: Required value",
                "extenders[0]: Required value: at least one of filterVerb, prioritizeVerb, preemptVerb, bindVerb")),
        new BadExtender(
            "prioritize without a weight",
            "[{urlPrefix: 'http://x:8888/scheduler', prioritizeVerb: prioritize}]",
            List.of(
                "extenders[0].weight: Invalid value: 0: must have a positive weight applied to it")),
        new BadExtender(
            "two binders",
            "[{urlPrefix: 'http://x/scheduler', bindVerb: bind}, "
                + "{urlPrefix: 'http://y/profiles/p', bindVerb: bind}]",
            List.of(
                "extenders: Invalid value: \"found 2 extenders implementing bind\": only one extender can "
                    + "implement bind")),
        new BadExtender(
            "an https URL without enableHTTPS and TLS settings without HTTPS",
            "[{urlPrefix: 'https://x/scheduler', filterVerb: filter, tlsConfig: {certFile: c}}]",
            List.of(
                "extenders[0].urlPrefix: Invalid value: \"https://x/scheduler\": the scheme must be https exactly "
                    + "when enableHTTPS is true",
                "extenders[0].tlsConfig: Invalid value: the settings are only used with enableHTTPS: true",
                "extenders[0].tlsConfig: Invalid value: a client certificate needs both certFile and keyFile")),
        new BadExtender(
            "a verb the extender does not serve and a URL outside its endpoints",
            "[{urlPrefix: 'http://x/api', filterVerb: filtr, httpTimeout: 5}]",
            List.of(
                "extenders[0].urlPrefix: Invalid value: \"http://x/api\": must be http(s)://<host>[:<port>]/scheduler "
                    + "or /profiles/<profile>",
                "extenders[0].filterVerb: Unsupported value: \"filtr\": supported values: \"filter\" (the extender's "
                    + "filter endpoint)",
                "extenders[0].httpTimeout: Invalid value: \"5\": not a duration")),
        new BadExtender(
            "managed resources that are not extended resources or repeat",
            "[{urlPrefix: 'http://x/scheduler', filterVerb: filter, managedResources: [{name: cpu}, "
                + "{name: example.com/a}, {name: example.com/a}]}]",
            List.of(
                "extenders[0].managedResources[0].name: Invalid value: \"cpu\": is an invalid extended resource name",
                "extenders[0].managedResources[2].name: Invalid value: \"example.com/a\": duplicate extender managed "
                    + "resource name")));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("badExtenders")
  void theExtenderChecksCatchWhatKubeSchedulerWouldRefuse(BadExtender c) throws IOException {
    assertThat(ExtenderEntries.problems(YAML.readTree(c.yaml()))).isEqualTo(c.problems());
  }

  private static SchedulerConfigLoader loader() {
    return new SchedulerConfigLoader(REGISTRY);
  }
}
