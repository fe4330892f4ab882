package io.schedext.extender;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Pod;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.schedext.cache.SchedulerCache;
import io.schedext.cluster.ObjectStore;
import io.schedext.extender.wire.ExtenderArgs;
import io.schedext.extender.wire.ExtenderFilterResult;
import io.schedext.framework.runtime.Framework;
import io.schedext.framework.runtime.FrameworkServices;
import io.schedext.framework.runtime.Frameworks;
import io.schedext.profiles.InTreeRegistry;
import io.schedext.profiles.ProfileDefaults;
import io.schedext.testing.FixedSource;
import io.schedext.testing.MakeNode;
import io.schedext.testing.MakePod;
import io.schedext.testing.PodWrapper;
import io.schedext.testing.TestFrameworks;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Nodes a PreFilter narrowing leaves out are UnschedulableAndUnresolvable with upstream's 1.34
 * reason, which names the plugins that narrowed ({@code schedule_one.go}; the rows of
 * schedule_one_test.go's TestSchedulerSchedulePod where a PreFilter result leaves nodes out), alike
 * in the filter reply and in the explanation.
 */
class PreFilterNarrowingTest {

  private static final String NOT_SATISFIED = "node(s) didn't satisfy plugin(s) [NodeAffinity]";

  private final SchedulerCache cache = new SchedulerCache(Clock.systemUTC(), Duration.ZERO);
  private final VerbHarness service = service();

  private VerbHarness service() {
    for (String n : List.of("n1", "n2", "n3")) {
      cache.addNode(
          MakeNode.node()
              .name(n)
              .label("kubernetes.io/hostname", n)
              .capacity(Map.of("cpu", "4", "memory", "8Gi", "pods", "10"))
              .obj());
    }
    FrameworkServices services = TestFrameworks.services(new ObjectStore());
    var registry = InTreeRegistry.create();
    Framework fw =
        Framework.create(
            ProfileDefaults.profile(ProfileDefaults.NAME, registry.names()), registry, services);
    return new VerbHarness(
        cache,
        FixedSource.ready(),
        new Frameworks(Map.of(fw.profileName(), fw), fw.profileName()),
        services.parallelizer(),
        new SeenPods(10, Duration.ofMinutes(1), System::nanoTime),
        new ExtenderMetrics(new SimpleMeterRegistry()));
  }

  record Case(
      String name,
      PodWrapper pod,
      List<String> feasible,
      Map<String, String> failed,
      Map<String, String> unresolvable,
      String summary) {
    @Override
    public String toString() {
      return name;
    }
  }

  private static PodWrapper pinnedTo(String node) {
    return MakePod.pod().name("p").uid("u").nodeFieldTerm("metadata.name", "In", node);
  }

  static Stream<Case> cases() {
    return Stream.of(
        new Case(
            "the nodes a narrowing leaves out name the plugin that narrowed",
            pinnedTo("n2").req(Map.of("cpu", "1")),
            List.of("n2"),
            Map.of(),
            Map.of("n1", NOT_SATISFIED, "n3", NOT_SATISFIED),
            null),
        new Case(
            "a node left in keeps its own Filter's reason",
            pinnedTo("n2").req(Map.of("cpu", "5")),
            List.of(),
            Map.of(),
            Map.of("n1", NOT_SATISFIED, "n2", "Insufficient cpu", "n3", NOT_SATISFIED),
            "0/3 nodes are available: 1 Insufficient cpu, 2 " + NOT_SATISFIED + "."),
        new Case(
            "a narrowing to a node the cluster does not have leaves every node out",
            pinnedTo("n9"),
            List.of(),
            Map.of(),
            Map.of("n1", NOT_SATISFIED, "n2", NOT_SATISFIED, "n3", NOT_SATISFIED),
            "0/3 nodes are available: 3 " + NOT_SATISFIED + "."));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void filterAndExplainGiveTheSameReasons(Case c) {
    Pod pod = c.pod().obj();
    ExtenderArgs args = new ExtenderArgs(pod, null, List.of("n1", "n2", "n3"));

    ExtenderFilterResult r = service.filter(null, args);

    assertThat(r.error()).isEmpty();
    assertThat(r.nodeNames()).containsExactlyElementsOf(c.feasible());
    assertThat(r.failedNodes()).isEqualTo(c.failed());
    assertThat(r.failedAndUnresolvableNodes()).isEqualTo(c.unresolvable());

    Explanation e = service.explain(null, args);
    assertThat(e.feasibleNodes()).containsExactlyElementsOf(c.feasible());
    for (Explanation.NodeVerdict v : e.nodes()) {
      if (NOT_SATISFIED.equals(c.unresolvable().get(v.node()))) {
        assertThat(v.filters())
            .as(v.node())
            .containsExactly(
                new Explanation.PluginStatus(
                    "", "UnschedulableAndUnresolvable", List.of(NOT_SATISFIED)));
      }
    }
    if (c.summary() != null) {
      assertThat(e.summary()).startsWith(c.summary());
    }
  }
}
