package io.schedext.framework.runtime;

import static io.schedext.framework.ExtensionPoint.FILTER;
import static io.schedext.framework.ExtensionPoint.PRE_FILTER;
import static org.assertj.core.api.Assertions.assertThat;

import io.schedext.framework.Code;
import io.schedext.framework.CycleState;
import io.schedext.framework.ExtensionPoint;
import io.schedext.framework.FrameworkException;
import io.schedext.framework.NodeInfo;
import io.schedext.framework.Plugin;
import io.schedext.framework.PodInfo;
import io.schedext.framework.PodNominator;
import io.schedext.framework.PreFilterExtensions;
import io.schedext.framework.PreFilterPlugin;
import io.schedext.framework.PreFilterResult;
import io.schedext.framework.Profile;
import io.schedext.framework.StateData;
import io.schedext.framework.Status;
import io.schedext.testing.MakeNode;
import io.schedext.testing.MakePod;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * PreFilter, its AddPod/RemovePod extensions, Filter and Filter with nominated pods, as upstream's
 * tests.
 */
class FrameworkFilterTest {

  static final String INJECTED = "injected status";
  static final String INJECTED_FILTER = "injected filter status";

  private static final PodInfo POD = MakePod.pod().name("p").uid("p").info();
  private static final NodeInfo NODE = MakeNode.node().name("node").info();

  /** A fake plugin set up by {@code setup}. */
  record Spec(String name, Consumer<FakePlugin> setup) {
    static Spec of(String name, Consumer<FakePlugin> setup) {
      return new Spec(name, setup);
    }
  }

  private static List<FakePlugin> build(List<Spec> specs, List<String> calls) {
    List<FakePlugin> out = new ArrayList<>();
    for (Spec s : specs) {
      FakePlugin p = new FakePlugin(s.name(), calls);
      s.setup().accept(p);
      out.add(p);
    }
    return out;
  }

  // ---------------------------------------------------------------------------------------------------- PreFilter

  record PreFilterCase(
      String name,
      List<Spec> plugins,
      PreFilterResult want,
      Set<String> skipped,
      List<String> calls) {
    @Override
    public String toString() {
      return name;
    }
  }

  static Spec pf(String name, PreFilterResult r) {
    return Spec.of(name, p -> p.preFilter = r);
  }

  static Spec pf(String name, Status s) {
    return pf(name, PreFilterResult.of(s));
  }

  static PreFilterResult narrow(String... nodes) {
    return PreFilterResult.nodes(Set.of(nodes));
  }

  static Stream<PreFilterCase> preFilterCases() {
    return Stream.of(
        new PreFilterCase(
            "no plugins: success for every node",
            List.of(),
            PreFilterResult.success(),
            Set.of(),
            List.of()),
        new PreFilterCase(
            "every plugin succeeds: success for every node",
            List.of(pf("a", Status.success()), pf("b", Status.success())),
            PreFilterResult.success(),
            Set.of(),
            List.of("a:PreFilter", "b:PreFilter")),
        new PreFilterCase(
            "a plugin returning nothing counts as success",
            List.of(pf("a", (PreFilterResult) null)),
            PreFilterResult.success(),
            Set.of(),
            List.of("a:PreFilter")),
        new PreFilterCase(
            "Skip marks the plugin's Filter skipped and its node set is ignored",
            List.of(
                pf("a", new PreFilterResult(Status.skip(), Set.of())), pf("b", Status.success())),
            PreFilterResult.success(),
            Set.of("a"),
            List.of("a:PreFilter", "b:PreFilter")),
        new PreFilterCase(
            "an Error stops the run and is wrapped, attributed to its plugin",
            List.of(pf("a", Status.error(INJECTED)), pf("b", Status.success())),
            PreFilterResult.of(
                Status.error("running PreFilter plugin \"a\": " + INJECTED).withPlugin("a")),
            Set.of(),
            List.of("a:PreFilter")),
        new PreFilterCase(
            "a thrown FrameworkException is the same Error",
            List.of(
                Spec.of("a", p -> p.throwAt.put("PreFilter", new FrameworkException(INJECTED)))),
            PreFilterResult.of(
                Status.error("running PreFilter plugin \"a\": " + INJECTED).withPlugin("a")),
            Set.of(),
            List.of("a:PreFilter")),
        new PreFilterCase(
            "a Wait from PreFilter is an Error too",
            List.of(pf("a", Status.waiting(INJECTED))),
            PreFilterResult.of(
                Status.error("running PreFilter plugin \"a\": " + INJECTED).withPlugin("a")),
            Set.of(),
            List.of("a:PreFilter")),
        new PreFilterCase(
            "UnschedulableAndUnresolvable stops at once, keeping its code, attributed to its plugin",
            List.of(pf("a", Status.unresolvable(INJECTED)), pf("b", Status.success())),
            PreFilterResult.of(Status.unresolvable(INJECTED).withPlugin("a")),
            Set.of(),
            List.of("a:PreFilter")),
        new PreFilterCase(
            "Unschedulable lets the remaining plugins run and is returned at the end",
            List.of(pf("a", Status.unschedulable(INJECTED)), pf("b", narrow("n1"))),
            new PreFilterResult(
                Status.unschedulable(INJECTED).withPlugin("a"), Set.of("n1"), List.of("b")),
            Set.of(),
            List.of("a:PreFilter", "b:PreFilter")),
        new PreFilterCase(
            "Unschedulable then UnschedulableAndUnresolvable: the latter is returned",
            List.of(pf("a", Status.unschedulable(INJECTED)), pf("b", Status.unresolvable("other"))),
            PreFilterResult.of(Status.unresolvable("other").withPlugin("b")),
            Set.of(),
            List.of("a:PreFilter", "b:PreFilter")),
        new PreFilterCase(
            "Unschedulable then an Error: the Error is returned",
            List.of(pf("a", Status.unschedulable(INJECTED)), pf("b", Status.error("boom"))),
            PreFilterResult.of(
                Status.error("running PreFilter plugin \"b\": boom").withPlugin("b")),
            Set.of(),
            List.of("a:PreFilter", "b:PreFilter")),
        new PreFilterCase(
            "node sets of several plugins are intersected",
            List.of(
                pf("a", narrow("n1", "n2", "n3")),
                pf("b", Status.success()),
                pf("c", narrow("n2", "n3", "n4"))),
            new PreFilterResult(Status.success(), Set.of("n2", "n3"), List.of("a", "c")),
            Set.of(),
            List.of("a:PreFilter", "b:PreFilter", "c:PreFilter")),
        new PreFilterCase(
            "a plugin naming every node still counts as narrowing, sorted by name",
            List.of(pf("zz", narrow("n1", "n2")), pf("aa", narrow("n1", "n2"))),
            new PreFilterResult(Status.success(), Set.of("n1", "n2"), List.of("aa", "zz")),
            Set.of(),
            List.of("zz:PreFilter", "aa:PreFilter")),
        new PreFilterCase(
            "one plugin narrowing to no node is named alone",
            List.of(pf("a", narrow()), pf("b", Status.success())),
            new PreFilterResult(
                Status.unresolvable("node(s) didn't satisfy plugin a"), Set.of(), List.of("a")),
            Set.of(),
            List.of("a:PreFilter")),
        new PreFilterCase(
            "disjoint node sets name every narrowing plugin, sorted, and stop the run",
            List.of(
                pf("zz", narrow("n1")),
                pf("b", Status.success()),
                pf("aa", narrow("n2")),
                pf("c", narrow("n2"))),
            new PreFilterResult(
                Status.unresolvable("node(s) didn't satisfy plugin(s) [aa zz] simultaneously"),
                Set.of(),
                List.of("aa", "zz")),
            Set.of(),
            List.of("zz:PreFilter", "b:PreFilter", "aa:PreFilter")),
        new PreFilterCase(
            "an empty intersection after an Unschedulable still reports the intersection",
            List.of(
                pf("a", Status.unschedulable(INJECTED)),
                pf("b", narrow("n1")),
                pf("c", narrow("n2"))),
            new PreFilterResult(
                Status.unresolvable("node(s) didn't satisfy plugin(s) [b c] simultaneously"),
                Set.of(),
                List.of("b", "c")),
            Set.of(),
            List.of("a:PreFilter", "b:PreFilter", "c:PreFilter")));
  }

  @Test
  void theReasonForNodesLeftOutNamesTheNarrowingPluginsAsGoPrintsASlice() {
    assertThat(new PreFilterResult(Status.success(), Set.of("n1"), List.of("A")).excludedReason())
        .isEqualTo("node(s) didn't satisfy plugin(s) [A]");
    assertThat(
            new PreFilterResult(Status.success(), Set.of("n1"), List.of("A", "B")).excludedReason())
        .isEqualTo("node(s) didn't satisfy plugin(s) [A B]");
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("preFilterCases")
  void runPreFilterPlugins(PreFilterCase c) {
    List<String> calls = new ArrayList<>();
    Framework fw = Fixtures.at(PRE_FILTER, build(c.plugins(), calls).toArray(Plugin[]::new));
    CycleState state = Fixtures.state(NODE);
    List<String> observed = new ArrayList<>();

    PreFilterResult got = fw.runPreFilterPlugins(state, POD, (name, r) -> observed.add(name));

    assertThat(got).isEqualTo(c.want());
    assertThat(state.skipFilterPlugins()).isEqualTo(c.skipped());
    assertThat(calls).isEqualTo(c.calls());
    assertThat(observed)
        .isEqualTo(c.calls().stream().map(s -> s.substring(0, s.indexOf(':'))).toList());
  }

  // ------------------------------------------------------------------------------------------
  // AddPod / RemovePod

  @Test
  void extensionsRunForEveryPluginThatHasThemExceptSkippedOnes() {
    List<String> calls = new ArrayList<>();
    FakePlugin withExt = new FakePlugin("with-ext", calls);
    FakePlugin noExt = new FakePlugin("no-ext", calls);
    noExt.withExtensions = false;
    FakePlugin skipped = new FakePlugin("skipped", calls);
    skipped.preFilter = PreFilterResult.of(Status.skip());
    Framework fw = Fixtures.at(PRE_FILTER, withExt, noExt, skipped);
    CycleState state = Fixtures.state(NODE);
    fw.runPreFilterPlugins(state, POD);
    calls.clear();

    assertThat(fw.runPreFilterExtensionAddPod(state, POD, POD, NODE)).isEqualTo(Status.success());
    assertThat(fw.runPreFilterExtensionRemovePod(state, POD, POD, NODE))
        .isEqualTo(Status.success());
    assertThat(calls).containsExactly("with-ext:AddPod", "with-ext:RemovePod");
  }

  record ExtensionCase(
      String name, List<Spec> plugins, Status wantAdd, Status wantRemove, List<String> calls) {
    @Override
    public String toString() {
      return name;
    }
  }

  static Stream<ExtensionCase> extensionCases() {
    return Stream.of(
        new ExtensionCase(
            "every extension succeeds",
            List.of(Spec.of("a", p -> {}), Spec.of("b", p -> {})),
            Status.success(),
            Status.success(),
            List.of("a:AddPod", "b:AddPod", "a:RemovePod", "b:RemovePod")),
        new ExtensionCase(
            "a failing AddPod stops and becomes an Error without plugin attribution",
            List.of(
                Spec.of("a", p -> p.addPod = Status.unschedulable(INJECTED)),
                Spec.of("b", p -> {})),
            Status.error("running AddPod on PreFilter plugin \"a\": " + INJECTED),
            Status.success(),
            List.of("a:AddPod", "a:RemovePod", "b:RemovePod")),
        new ExtensionCase(
            "a failing RemovePod stops and becomes an Error without plugin attribution",
            List.of(Spec.of("a", p -> {}), Spec.of("b", p -> p.removePod = Status.error(INJECTED))),
            Status.success(),
            Status.error("running RemovePod on PreFilter plugin \"b\": " + INJECTED),
            List.of("a:AddPod", "b:AddPod", "a:RemovePod", "b:RemovePod")),
        new ExtensionCase(
            "thrown exceptions are wrapped the same way",
            List.of(
                Spec.of(
                    "a",
                    p -> {
                      p.throwAt.put("AddPod", new FrameworkException("add broke"));
                      p.throwAt.put("RemovePod", new IllegalArgumentException("remove broke"));
                    })),
            Status.error("running AddPod on PreFilter plugin \"a\": add broke"),
            Status.error("running RemovePod on PreFilter plugin \"a\": remove broke"),
            List.of("a:AddPod", "a:RemovePod")));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("extensionCases")
  void preFilterExtensions(ExtensionCase c) {
    List<String> calls = new ArrayList<>();
    Framework fw = Fixtures.at(PRE_FILTER, build(c.plugins(), calls).toArray(Plugin[]::new));
    CycleState state = Fixtures.state(NODE);

    assertThat(fw.runPreFilterExtensionAddPod(state, POD, POD, NODE)).isEqualTo(c.wantAdd());
    assertThat(fw.runPreFilterExtensionRemovePod(state, POD, POD, NODE)).isEqualTo(c.wantRemove());
    assertThat(calls).isEqualTo(c.calls());
  }

  // ------------------------------------------------------------------------------------------------------- Filter

  record FilterCase(String name, List<Spec> plugins, Status want, List<String> calls) {
    @Override
    public String toString() {
      return name;
    }
  }

  static Spec f(String name, Status s) {
    return Spec.of(name, p -> p.filter = s);
  }

  static Status wrapped(String plugin) {
    return Status.error("running \"" + plugin + "\" filter plugin: " + INJECTED_FILTER)
        .withPlugin(plugin);
  }

  static Stream<FilterCase> filterCases() {
    Status unsched = Status.unschedulable(INJECTED_FILTER);
    Status unresolvable = Status.unresolvable(INJECTED_FILTER);
    return Stream.of(
        new FilterCase(
            "one succeeding filter",
            List.of(f("TestPlugin", Status.success())),
            Status.success(),
            List.of("TestPlugin:Filter")),
        new FilterCase(
            "an Error is wrapped and attributed",
            List.of(f("TestPlugin", Status.error(INJECTED_FILTER))),
            wrapped("TestPlugin"),
            List.of("TestPlugin:Filter")),
        new FilterCase(
            "Unschedulable is returned with its plugin",
            List.of(f("TestPlugin", unsched)),
            unsched.withPlugin("TestPlugin"),
            List.of("TestPlugin:Filter")),
        new FilterCase(
            "UnschedulableAndUnresolvable is returned with its plugin",
            List.of(f("TestPlugin", unresolvable)),
            unresolvable.withPlugin("TestPlugin"),
            List.of("TestPlugin:Filter")),
        new FilterCase(
            "two Errors: the first stops the run",
            List.of(
                f("TestPlugin1", Status.error(INJECTED_FILTER)),
                f("TestPlugin2", Status.error(INJECTED_FILTER))),
            wrapped("TestPlugin1"),
            List.of("TestPlugin1:Filter")),
        new FilterCase(
            "two successes",
            List.of(f("TestPlugin1", Status.success()), f("TestPlugin2", Status.success())),
            Status.success(),
            List.of("TestPlugin1:Filter", "TestPlugin2:Filter")),
        new FilterCase(
            "an Error then a success: the Error, the second not run",
            List.of(
                f("TestPlugin1", Status.error(INJECTED_FILTER)),
                f("TestPlugin2", Status.success())),
            wrapped("TestPlugin1"),
            List.of("TestPlugin1:Filter")),
        new FilterCase(
            "a success then an Error: the Error",
            List.of(
                f("TestPlugin1", Status.success()),
                f("TestPlugin2", Status.error(INJECTED_FILTER))),
            wrapped("TestPlugin2"),
            List.of("TestPlugin1:Filter", "TestPlugin2:Filter")),
        new FilterCase(
            "the first rejection stops the run",
            List.of(f("TestPlugin1", unsched), f("TestPlugin2", Status.error(INJECTED_FILTER))),
            unsched.withPlugin("TestPlugin1"),
            List.of("TestPlugin1:Filter")),
        new FilterCase(
            "UnschedulableAndUnresolvable then Unschedulable: the first",
            List.of(f("TestPlugin1", unresolvable), f("TestPlugin2", unsched)),
            unresolvable.withPlugin("TestPlugin1"),
            List.of("TestPlugin1:Filter")),
        new FilterCase(
            "a Skip from Filter is wrapped as an Error",
            List.of(f("TestPlugin", Status.of(Code.SKIP, INJECTED_FILTER))),
            wrapped("TestPlugin"),
            List.of("TestPlugin:Filter")),
        new FilterCase(
            "a thrown FrameworkException is wrapped as an Error",
            List.of(
                Spec.of(
                    "TestPlugin",
                    p -> p.throwAt.put("Filter", new FrameworkException(INJECTED_FILTER)))),
            wrapped("TestPlugin"),
            List.of("TestPlugin:Filter")),
        new FilterCase(
            "a filter returning nothing counts as success",
            List.of(f("TestPlugin", null)),
            Status.success(),
            List.of("TestPlugin:Filter")));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("filterCases")
  void runFilterPlugins(FilterCase c) {
    List<String> calls = new ArrayList<>();
    Framework fw = Fixtures.at(FILTER, build(c.plugins(), calls).toArray(Plugin[]::new));
    CycleState state = Fixtures.state(NODE);

    assertThat(fw.runFilterPlugins(state, POD, NODE)).isEqualTo(c.want());
    assertThat(calls).isEqualTo(c.calls());

    calls.clear();
    state.setRecordPluginMetrics(true);
    assertThat(fw.runFilterPlugins(state, POD, NODE))
        .as("the same with plugin metrics sampled")
        .isEqualTo(c.want());
    assertThat(calls).isEqualTo(c.calls());
  }

  @Test
  void filtersOfPluginsSkippedAtPreFilterDoNotRun() {
    List<String> calls = new ArrayList<>();
    FakePlugin skipped = new FakePlugin("skipped", calls);
    skipped.preFilter = PreFilterResult.of(Status.skip());
    skipped.filter = Status.unschedulable("never");
    FakePlugin other = new FakePlugin("other", calls);
    Framework fw = Fixtures.multiPoint(Fixtures.services(), skipped, other);
    CycleState state = Fixtures.state(NODE);
    fw.runPreFilterPlugins(state, POD);
    calls.clear();

    assertThat(fw.runFilterPlugins(state, POD, NODE)).isEqualTo(Status.success());
    assertThat(calls).containsExactly("other:Filter");
    assertThat(fw.runAllFilterPlugins(state, POD, NODE))
        .containsExactly(null, Status.success().withPlugin("other"));
    calls.clear();
    assertThat(fw.runFilterPluginsOnNodes(state, POD, List.of(NODE)))
        .as("the many-node loop skips it too")
        .containsExactly(Status.success());
    assertThat(calls).containsExactly("other:Filter");
  }

  @Test
  void runAllFilterPluginsDoesNotStopAtTheFirstRejection() {
    List<String> calls = new ArrayList<>();
    Framework fw =
        Fixtures.at(
            FILTER,
            build(
                    List.of(
                        f("a", Status.unschedulable("x")),
                        f("b", Status.error(INJECTED_FILTER)),
                        f("c", Status.success())),
                    calls)
                .toArray(Plugin[]::new));

    Status[] got = fw.runAllFilterPlugins(Fixtures.state(NODE), POD, NODE);

    assertThat(got)
        .containsExactly(
            Status.unschedulable("x").withPlugin("a"),
            wrapped("b"),
            Status.success().withPlugin("c"));
    assertThat(calls).containsExactly("a:Filter", "b:Filter", "c:Filter");
  }

  // -------------------------------------------------------------------------------------- Filter
  // with nominated

  private static final PodInfo LOW = MakePod.pod().name("low").uid("low").priority(0).info();
  private static final PodInfo HIGH = MakePod.pod().name("high").uid("high").priority(1000).info();

  record NominatedCase(
      String name,
      PodInfo pod,
      List<PodInfo> nominated,
      Status addPod,
      Status withNominated,
      Status without,
      Status want,
      List<Integer> podsSeenByFilter) {
    @Override
    public String toString() {
      return name;
    }
  }

  static Stream<NominatedCase> nominatedCases() {
    Status rejected = Status.unschedulable(INJECTED_FILTER);
    return Stream.of(
        new NominatedCase(
            "no nominated pod: one pass",
            LOW,
            List.of(),
            Status.success(),
            rejected,
            Status.success(),
            Status.success(),
            List.of(0)),
        new NominatedCase(
            "no nominated pod and the filter rejects",
            LOW,
            List.of(),
            Status.success(),
            Status.success(),
            rejected,
            rejected.withPlugin("f"),
            List.of(0)),
        new NominatedCase(
            "a lower-priority nominated pod is not taken into account",
            HIGH,
            List.of(LOW),
            Status.success(),
            rejected,
            Status.success(),
            Status.success(),
            List.of(0)),
        new NominatedCase(
            "the pod itself being nominated to the node is not taken into account",
            LOW,
            List.of(MakePod.pod().name("low").uid("low").priority(5).info()),
            Status.success(),
            rejected,
            Status.success(),
            Status.success(),
            List.of(0)),
        new NominatedCase(
            "an equal-priority nominated pod: both passes must succeed",
            LOW,
            List.of(MakePod.pod().name("peer").uid("peer").priority(0).info()),
            Status.success(),
            Status.success(),
            Status.success(),
            Status.success(),
            List.of(1, 0)),
        new NominatedCase(
            "a higher-priority nominated pod that makes the filter reject: the second pass is skipped",
            LOW,
            List.of(HIGH),
            Status.success(),
            rejected,
            Status.success(),
            rejected.withPlugin("f"),
            List.of(1)),
        new NominatedCase(
            "the first pass succeeds and the second rejects: rejected",
            LOW,
            List.of(HIGH),
            Status.success(),
            Status.success(),
            rejected,
            rejected.withPlugin("f"),
            List.of(1, 0)),
        new NominatedCase(
            "a failing AddPod is an Error and no filter runs",
            LOW,
            List.of(HIGH),
            Status.error(INJECTED),
            Status.success(),
            Status.success(),
            Status.error("running AddPod on PreFilter plugin \"f\": " + INJECTED),
            List.of()),
        new NominatedCase(
            "an Error in the first pass is returned at once",
            LOW,
            List.of(HIGH),
            Status.success(),
            Status.error(INJECTED_FILTER),
            Status.success(),
            wrapped("f"),
            List.of(1)));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("nominatedCases")
  void runFilterPluginsWithNominatedPods(NominatedCase c) {
    List<Integer> seen = new ArrayList<>();
    FakePlugin plugin = new FakePlugin("f");
    plugin.addPod = c.addPod();
    plugin.filterFn =
        (state, node) -> {
          seen.add(node.pods().size());
          return node.pods().isEmpty() ? c.without() : c.withNominated();
        };
    PodNominator nominator = name -> name.equals("node") ? c.nominated() : List.of();
    Framework fw = Fixtures.multiPoint(Fixtures.services(nominator, new FakeTimers()), plugin);
    CycleState state = Fixtures.state(NODE);
    state.write("key", new Counter(0));

    assertThat(fw.runFilterPluginsWithNominatedPods(state, c.pod(), NODE)).isEqualTo(c.want());
    assertThat(seen).isEqualTo(c.podsSeenByFilter());
    assertThat(NODE.pods()).as("the node info given is never changed").isEmpty();
    assertThat(state.read("key", Counter.class).value()).as("nor is the cycle state").isZero();
  }

  @Test
  void theFirstPassSeesTheNominatedPodInACopiedStateAndNode() {
    List<String> seen = new ArrayList<>();
    FakePlugin recorder = new FakePlugin("rec");
    recorder.filterFn =
        (state, node) -> {
          seen.add(
              state.read("key", Counter.class).value()
                  + " "
                  + node.pods().stream().map(PodInfo::name).toList());
          return Status.success();
        };
    PreFilterExtensions counting =
        new PreFilterExtensions() {
          @Override
          public Status addPod(
              CycleState state, PodInfo podToSchedule, PodInfo podToAdd, NodeInfo node) {
            state.write("key", new Counter(state.read("key", Counter.class).value() + 1));
            return Status.success();
          }

          @Override
          public Status removePod(
              CycleState state, PodInfo podToSchedule, PodInfo podToRemove, NodeInfo node) {
            return Status.success();
          }
        };
    PreFilterPlugin counter =
        new PreFilterPlugin() {
          @Override
          public String name() {
            return "counter";
          }

          @Override
          public PreFilterResult preFilter(CycleState state, PodInfo pod) {
            return PreFilterResult.success();
          }

          @Override
          public PreFilterExtensions preFilterExtensions() {
            return counting;
          }
        };
    PodNominator nominator = name -> List.of(HIGH, MakePod.pod().name("peer").uid("peer").info());
    Map<ExtensionPoint, Profile.PluginSet> points =
        Map.of(
            PRE_FILTER, new Profile.PluginSet(List.of(Profile.PluginRef.of("counter")), null),
            FILTER, new Profile.PluginSet(List.of(Profile.PluginRef.of("rec")), null));
    Framework fw =
        Framework.create(
            new Profile("p", null, points, null),
            Fixtures.registry(counter, recorder),
            Fixtures.services(nominator, new FakeTimers()));
    CycleState state = Fixtures.state(NODE);
    state.write("key", new Counter(0));

    assertThat(fw.runFilterPluginsWithNominatedPods(state, LOW, NODE)).isEqualTo(Status.success());
    assertThat(seen).containsExactly("2 [high, peer]", "0 []");
  }

  /** Immutable cycle-state data for the nominated-pods tests. */
  record Counter(int value) implements StateData {
    @Override
    public StateData copy() {
      return this;
    }
  }
}
