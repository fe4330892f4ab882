package io.schedext.plugins.interpodaffinity;

import static io.schedext.plugins.interpodaffinity.Fixtures.node;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.schedext.cache.Snapshot;
import io.schedext.cluster.ObjectStore;
import io.schedext.framework.CycleState;
import io.schedext.framework.FrameworkException;
import io.schedext.framework.NodeInfo;
import io.schedext.framework.PluginArgs;
import io.schedext.framework.PodInfo;
import io.schedext.framework.Registry;
import io.schedext.framework.ScoreResult;
import io.schedext.framework.Status;
import io.schedext.framework.runtime.Framework;
import io.schedext.testing.MakePod;
import io.schedext.testing.TestFrameworks;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** The factory, the arguments and the plugin running inside a framework. */
class InterPodAffinityTest {

  record ArgsCase(String name, String json, InterPodAffinityArgs want, String wantError) {
    @Override
    public String toString() {
      return name;
    }
  }

  static Stream<ArgsCase> argsCases() {
    return Stream.of(
        new ArgsCase(
            "missing args take upstream's defaults",
            "{}",
            new InterPodAffinityArgs(1, false),
            null),
        new ArgsCase(
            "given args are kept",
            "{\"hardPodAffinityWeight\": 7, \"ignorePreferredTermsOfExistingPods\": true}",
            new InterPodAffinityArgs(7, true),
            null),
        new ArgsCase(
            "a zero hard weight is allowed",
            "{\"hardPodAffinityWeight\": 0}",
            new InterPodAffinityArgs(0, false),
            null),
        new ArgsCase(
            "a hard weight of 100 is allowed",
            "{\"hardPodAffinityWeight\": 100}",
            new InterPodAffinityArgs(100, false),
            null),
        new ArgsCase(
            "a negative hard weight is rejected",
            "{\"hardPodAffinityWeight\": -1}",
            null,
            "hardPodAffinityWeight: Invalid value: -1: not in valid range [0, 100]"),
        new ArgsCase(
            "a hard weight above 100 is rejected",
            "{\"hardPodAffinityWeight\": 101}",
            null,
            "hardPodAffinityWeight: Invalid value: 101: not in valid range [0, 100]"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("argsCases")
  void create(ArgsCase c) {
    PluginArgs args = PluginArgs.of(InterPodAffinity.NAME, TestFrameworks.json(c.json()));
    if (c.wantError() != null) {
      assertThatThrownBy(
              () -> InterPodAffinity.create(args, TestFrameworks.handle(new ObjectStore())))
          .isInstanceOf(FrameworkException.class)
          .hasMessage(c.wantError());
      return;
    }
    InterPodAffinity plugin =
        InterPodAffinity.create(args, TestFrameworks.handle(new ObjectStore()));
    assertThat(plugin.args()).isEqualTo(c.want());
    assertThat(plugin.name()).isEqualTo("InterPodAffinity");
  }

  @Test
  void createWithoutArgsUsesTheDefaults() {
    assertThat(InterPodAffinity.create(null, TestFrameworks.handle(new ObjectStore())).args())
        .isEqualTo(InterPodAffinityArgs.defaults());
  }

  @Test
  void aFrameworkRefusesInvalidArgs() {
    Registry registry = new Registry().register(InterPodAffinity.NAME, InterPodAffinity::create);

    assertThatThrownBy(
            () ->
                TestFrameworks.framework(
                    registry,
                    new ObjectStore(),
                    List.of(InterPodAffinity.NAME),
                    Map.of(InterPodAffinity.NAME, "{\"hardPodAffinityWeight\": 101}")))
        .isInstanceOf(FrameworkException.class)
        .hasMessageContaining(
            "hardPodAffinityWeight: Invalid value: 101: not in valid range [0, 100]");
  }

  @Test
  void runsInsideAFramework() {
    Registry registry = new Registry().register(InterPodAffinity.NAME, InterPodAffinity::create);
    Framework fw =
        TestFrameworks.framework(
            registry, new ObjectStore(), List.of(InterPodAffinity.NAME), Map.of());
    PodInfo web = MakePod.pod().name("web").node("a").label("app", "web").info();
    List<NodeInfo> nodes =
        Fixtures.nodeInfos(
            List.of(web),
            List.of(
                node("a", Map.of("zone", "z1")),
                node("b", Map.of("zone", "z1")),
                node("c", Map.of("zone", "z2"))));
    PodInfo pod =
        MakePod.pod()
            .name("p")
            .podAntiAffinityIn("zone", "app", "web")
            .preferredPodAffinityIn(10, "zone", "app", "web")
            .info();
    CycleState state = fw.newCycleState(Snapshot.of(nodes));

    assertThat(fw.runPreFilterPlugins(state, pod).status()).isEqualTo(Status.success());
    List<Status> filtered = nodes.stream().map(n -> fw.runFilterPlugins(state, pod, n)).toList();
    assertThat(fw.runPreScorePlugins(state, pod, nodes)).isEqualTo(Status.success());
    ScoreResult scores = fw.runScorePlugins(state, pod, nodes);

    Status anti =
        Status.unschedulable(InterPodAffinity.ERR_REASON_ANTI_AFFINITY_RULES_NOT_MATCH)
            .withPlugin(InterPodAffinity.NAME);
    assertThat(filtered).containsExactly(anti, anti, Status.success());
    assertThat(scores.status()).isEqualTo(Status.success());
    assertThat(scores.totals()).containsExactly(100, 100, 0);
  }
}
