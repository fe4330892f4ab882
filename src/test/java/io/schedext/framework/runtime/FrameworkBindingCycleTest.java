package io.schedext.framework.runtime;

import static io.schedext.framework.ExtensionPoint.BIND;
import static io.schedext.framework.ExtensionPoint.PERMIT;
import static io.schedext.framework.ExtensionPoint.POST_BIND;
import static io.schedext.framework.ExtensionPoint.POST_FILTER;
import static io.schedext.framework.ExtensionPoint.PRE_BIND;
import static io.schedext.framework.ExtensionPoint.RESERVE;
import static org.assertj.core.api.Assertions.assertThat;

import io.schedext.framework.ExtensionPoint;
import io.schedext.framework.FrameworkException;
import io.schedext.framework.PermitPlugin;
import io.schedext.framework.Plugin;
import io.schedext.framework.PodInfo;
import io.schedext.framework.PodNominator;
import io.schedext.framework.PostFilterResult;
import io.schedext.framework.Status;
import io.schedext.testing.MakePod;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Reserve, Unreserve, Permit and waiting, PreBind, Bind, PostBind and PostFilter, as upstream's
 * tests.
 */
class FrameworkBindingCycleTest {

  static final String INJECTED = "injected status";

  private static final PodInfo POD = MakePod.pod().name("pod").uid("pod-uid").info();

  /** A fake plugin set up by {@code setup}. */
  record Spec(String name, Consumer<FakePlugin> setup) {}

  static Spec spec(String name, Consumer<FakePlugin> setup) {
    return new Spec(name, setup);
  }

  private static Framework at(
      ExtensionPoint point, FrameworkServices services, List<Spec> specs, List<String> calls) {
    List<Plugin> plugins = new ArrayList<>();
    for (Spec s : specs) {
      FakePlugin p = new FakePlugin(s.name(), calls);
      s.setup().accept(p);
      plugins.add(p);
    }
    return Fixtures.at(point, services, plugins.toArray(Plugin[]::new));
  }

  /**
   * One table case of a serial extension point.
   *
   * @param name the behaviour
   * @param plugins the plugins in order
   * @param want the expected status
   * @param calls the expected calls
   */
  record Case(String name, List<Spec> plugins, Status want, List<String> calls) {
    @Override
    public String toString() {
      return name;
    }
  }

  // ------------------------------------------------------------------------------------------------------ Reserve

  static Spec reserve(String name, Status s) {
    return spec(name, p -> p.reserve = s);
  }

  static Stream<Case> reserveCases() {
    return Stream.of(
        new Case("no Reserve plugin", List.of(), Status.success(), List.of()),
        new Case(
            "a succeeding Reserve",
            List.of(reserve("TestPlugin", Status.success())),
            Status.success(),
            List.of("TestPlugin:Reserve")),
        new Case(
            "Unschedulable is kept, with its plugin (current upstream)",
            List.of(reserve("TestPlugin", Status.unschedulable(INJECTED))),
            Status.unschedulable(INJECTED).withPlugin("TestPlugin"),
            List.of("TestPlugin:Reserve")),
        new Case(
            "UnschedulableAndUnresolvable is kept, with its plugin",
            List.of(reserve("TestPlugin", Status.unresolvable(INJECTED))),
            Status.unresolvable(INJECTED).withPlugin("TestPlugin"),
            List.of("TestPlugin:Reserve")),
        new Case(
            "an Error is wrapped without plugin attribution",
            List.of(reserve("TestPlugin", Status.error(INJECTED))),
            Status.error("running Reserve plugin \"TestPlugin\": " + INJECTED),
            List.of("TestPlugin:Reserve")),
        new Case(
            "two successes",
            List.of(
                reserve("TestPlugin", Status.success()), reserve("TestPlugin 1", Status.success())),
            Status.success(),
            List.of("TestPlugin:Reserve", "TestPlugin 1:Reserve")),
        new Case(
            "two Errors: the first stops the run",
            List.of(
                reserve("TestPlugin", Status.error(INJECTED)),
                reserve("TestPlugin 1", Status.error(INJECTED))),
            Status.error("running Reserve plugin \"TestPlugin\": " + INJECTED),
            List.of("TestPlugin:Reserve")),
        new Case(
            "a success then an Error: the Error",
            List.of(
                reserve("TestPlugin", Status.success()),
                reserve("TestPlugin 1", Status.error(INJECTED))),
            Status.error("running Reserve plugin \"TestPlugin 1\": " + INJECTED),
            List.of("TestPlugin:Reserve", "TestPlugin 1:Reserve")),
        new Case(
            "a rejection stops the run",
            List.of(
                reserve("TestPlugin", Status.unschedulable(INJECTED)),
                reserve("TestPlugin 1", Status.success())),
            Status.unschedulable(INJECTED).withPlugin("TestPlugin"),
            List.of("TestPlugin:Reserve")),
        new Case(
            "a thrown exception is wrapped like an Error",
            List.of(
                spec(
                    "TestPlugin", p -> p.throwAt.put("Reserve", new FrameworkException(INJECTED)))),
            Status.error("running Reserve plugin \"TestPlugin\": " + INJECTED),
            List.of("TestPlugin:Reserve")));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("reserveCases")
  void runReservePluginsReserve(Case c) {
    List<String> calls = new ArrayList<>();
    Framework fw = at(RESERVE, Fixtures.services(), c.plugins(), calls);
    assertThat(fw.runReservePluginsReserve(Fixtures.state(), POD, "node")).isEqualTo(c.want());
    assertThat(calls).isEqualTo(c.calls());
  }

  @Test
  void unreserveRunsEveryReservePluginInReverseOrderEvenWhenOneThrows() {
    List<String> calls = new ArrayList<>();
    Framework fw =
        at(
            RESERVE,
            Fixtures.services(),
            List.of(
                spec("a", p -> {}),
                spec("b", p -> p.throwAt.put("Unreserve", new FrameworkException("boom"))),
                spec("c", p -> {})),
            calls);

    fw.runReservePluginsUnreserve(Fixtures.state(), POD, "node");

    assertThat(calls).containsExactly("c:Unreserve", "b:Unreserve", "a:Unreserve");
  }

  // ------------------------------------------------------------------------------------------------------- Permit

  static Spec permit(String name, Status s) {
    return spec(name, p -> p.permit = PermitPlugin.Result.of(s));
  }

  static final Status WAITING =
      Status.waiting("one or more plugins asked to wait and no plugin rejected pod \"pod\"");

  static Stream<Case> permitCases() {
    return Stream.of(
        new Case("no Permit plugin", List.of(), Status.success(), List.of()),
        new Case(
            "a succeeding Permit",
            List.of(permit("TestPlugin", Status.success())),
            Status.success(),
            List.of("TestPlugin:Permit")),
        new Case(
            "a Permit returning nothing counts as success",
            List.of(spec("TestPlugin", p -> p.permit = new PermitPlugin.Result(null, null))),
            Status.success(),
            List.of("TestPlugin:Permit")),
        new Case(
            "Unschedulable is returned with its plugin",
            List.of(permit("TestPlugin", Status.unschedulable(INJECTED))),
            Status.unschedulable(INJECTED).withPlugin("TestPlugin"),
            List.of("TestPlugin:Permit")),
        new Case(
            "an Error is wrapped and attributed",
            List.of(permit("TestPlugin", Status.error(INJECTED))),
            Status.error("running Permit plugin \"TestPlugin\": " + INJECTED)
                .withPlugin("TestPlugin"),
            List.of("TestPlugin:Permit")),
        new Case(
            "UnschedulableAndUnresolvable is returned with its plugin",
            List.of(permit("TestPlugin", Status.unresolvable(INJECTED))),
            Status.unresolvable(INJECTED).withPlugin("TestPlugin"),
            List.of("TestPlugin:Permit")),
        new Case(
            "Wait makes the pod wait",
            List.of(
                spec(
                    "TestPlugin",
                    p -> p.permit = PermitPlugin.Result.waitFor(Duration.ofSeconds(10)))),
            WAITING,
            List.of("TestPlugin:Permit")),
        new Case(
            "two successes",
            List.of(
                permit("TestPlugin", Status.success()), permit("TestPlugin 1", Status.success())),
            Status.success(),
            List.of("TestPlugin:Permit", "TestPlugin 1:Permit")),
        new Case(
            "two Errors: the first stops the run",
            List.of(
                permit("TestPlugin", Status.error(INJECTED)),
                permit("TestPlugin 1", Status.error(INJECTED))),
            Status.error("running Permit plugin \"TestPlugin\": " + INJECTED)
                .withPlugin("TestPlugin"),
            List.of("TestPlugin:Permit")),
        new Case(
            "a Wait then a rejection: the rejection, and nothing waits",
            List.of(
                spec("w", p -> p.permit = PermitPlugin.Result.waitFor(Duration.ofSeconds(1))),
                permit("r", Status.unschedulable(INJECTED))),
            Status.unschedulable(INJECTED).withPlugin("r"),
            List.of("w:Permit", "r:Permit")));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("permitCases")
  void runPermitPlugins(Case c) {
    List<String> calls = new ArrayList<>();
    FrameworkServices services = Fixtures.services();
    Framework fw = at(PERMIT, services, c.plugins(), calls);

    assertThat(fw.runPermitPlugins(Fixtures.state(), POD, "node")).isEqualTo(c.want());
    assertThat(calls).isEqualTo(c.calls());
    assertThat(services.waitingPods().get(POD.uid()) != null).isEqualTo(c.want().isWait());
  }

  /** A framework whose two Permit plugins ask to wait 10s and 20 minutes. */
  private record Waiting(Framework fw, FakeTimers timers, WaitingPodsMap waitingPods) {
    static Waiting start() {
      FakeTimers timers = new FakeTimers();
      FrameworkServices services = Fixtures.services(PodNominator.NONE, timers);
      Framework fw =
          at(
              PERMIT,
              services,
              List.of(
                  spec(
                      "short", p -> p.permit = PermitPlugin.Result.waitFor(Duration.ofSeconds(10))),
                  spec("ok", p -> {}),
                  spec(
                      "long", p -> p.permit = PermitPlugin.Result.waitFor(Duration.ofMinutes(20)))),
              new ArrayList<>());
      assertThat(fw.runPermitPlugins(Fixtures.state(), POD, "node")).isEqualTo(WAITING);
      return new Waiting(fw, timers, services.waitingPods());
    }

    HeldPod pod() {
      return waitingPods.held(POD.uid());
    }
  }

  @Test
  void aWaitingPodHasOneTimerPerWaitingPluginCappedAtFifteenMinutes() {
    Waiting w = Waiting.start();

    assertThat(w.timers().delays()).containsExactly(Duration.ofSeconds(10), Duration.ofMinutes(15));
    assertThat(w.pod().pendingPlugins()).containsExactlyInAnyOrder("short", "long");
    assertThat(w.pod().nodeName()).isEqualTo("node");
    assertThat(w.pod().pod()).isSameAs(POD);
    assertThat(w.pod().since()).isEqualTo(Fixtures.CLOCK.instant());
    assertThat(w.waitingPods().list()).containsExactly(w.pod());
  }

  @Test
  void aPodAllowedByEveryWaitingPluginProceedsAndStopsWaiting() {
    Waiting w = Waiting.start();
    HeldPod wp = w.pod();

    wp.allow("short");
    assertThat(wp.pendingPlugins()).containsExactly("long");
    assertThat(wp.outcome()).isNotDone();
    wp.allow("long");

    assertThat(w.fw().waitOnPermit(POD)).isEqualTo(Status.success());
    assertThat(w.waitingPods().get(POD.uid())).isNull();
    assertThat(w.timers().scheduled).allMatch(s -> s.cancelled);
  }

  @Test
  void allowingAPluginThatIsNotWaitingChangesNothing() {
    Waiting w = Waiting.start();

    w.pod().allow("ok");

    assertThat(w.pod().pendingPlugins()).containsExactlyInAnyOrder("short", "long");
    assertThat(w.pod().outcome()).isNotDone();
  }

  @Test
  void aRejectedPodIsUnschedulableAttributedToTheRejectingPlugin() {
    Waiting w = Waiting.start();

    w.pod().reject("long", "not now");
    w.pod().allow("short");

    assertThat(w.fw().waitOnPermit(POD))
        .isEqualTo(Status.unschedulable("not now").withPlugin("long"));
    assertThat(w.waitingPods().get(POD.uid())).isNull();
    assertThat(w.timers().scheduled).allMatch(s -> s.cancelled);
  }

  @Test
  void aTimerFiringRejectsThePodNamingTheWaitAndThePlugin() {
    Waiting w = Waiting.start();

    w.timers().scheduled.get(0).fire();
    w.timers().scheduled.get(1).fire();

    assertThat(w.fw().waitOnPermit(POD))
        .isEqualTo(
            Status.unschedulable("rejected due to timeout after waiting 10s at plugin short")
                .withPlugin("short"));
    assertThat(w.timers().scheduled.get(1).fired)
        .as("the other timer was cancelled first")
        .isFalse();
  }

  @Test
  void theCappedTimerNamesFifteenMinutes() {
    Waiting w = Waiting.start();
    w.pod().allow("short");

    w.timers().scheduled.get(1).fire();

    assertThat(w.fw().waitOnPermit(POD))
        .isEqualTo(
            Status.unschedulable("rejected due to timeout after waiting 15m0s at plugin long")
                .withPlugin("long"));
  }

  @Test
  void waitingOnAPodThatDoesNotWaitSucceeds() {
    Framework fw = at(PERMIT, Fixtures.services(), List.of(), new ArrayList<>());
    assertThat(fw.waitOnPermit(POD)).isEqualTo(Status.success());
  }

  @Test
  void anOutcomeThatIsNeitherSuccessNorRejectionIsWrappedWithItsPlugin() {
    Waiting w = Waiting.start();
    w.pod().outcome().complete(Status.error("lost").withPlugin("short"));

    assertThat(w.fw().waitOnPermit(POD))
        .isEqualTo(Status.error("waiting on permit for pod: lost").withPlugin("short"));
  }

  // ------------------------------------------------------------------------------------------------------ PreBind

  static Spec preBind(String name, Status s) {
    return spec(name, p -> p.preBind = s);
  }

  static Stream<Case> preBindCases() {
    return Stream.of(
        new Case("no PreBind plugin", List.of(), Status.success(), List.of()),
        new Case(
            "a succeeding PreBind",
            List.of(preBind("TestPlugin", Status.success())),
            Status.success(),
            List.of("TestPlugin:PreBind")),
        new Case(
            "Unschedulable is returned with its plugin",
            List.of(preBind("TestPlugin", Status.unschedulable(INJECTED))),
            Status.unschedulable(INJECTED).withPlugin("TestPlugin"),
            List.of("TestPlugin:PreBind")),
        new Case(
            "an Error is wrapped without plugin attribution",
            List.of(preBind("TestPlugin", Status.error(INJECTED))),
            Status.error("running PreBind plugin \"TestPlugin\": " + INJECTED),
            List.of("TestPlugin:PreBind")),
        new Case(
            "UnschedulableAndUnresolvable is returned with its plugin",
            List.of(preBind("TestPlugin", Status.unresolvable(INJECTED))),
            Status.unresolvable(INJECTED).withPlugin("TestPlugin"),
            List.of("TestPlugin:PreBind")),
        new Case(
            "a success then an Error: the Error",
            List.of(
                preBind("TestPlugin", Status.success()),
                preBind("TestPlugin 1", Status.error(INJECTED))),
            Status.error("running PreBind plugin \"TestPlugin 1\": " + INJECTED),
            List.of("TestPlugin:PreBind", "TestPlugin 1:PreBind")),
        new Case(
            "an Error then a success: the Error, the second not run",
            List.of(
                preBind("TestPlugin", Status.error(INJECTED)),
                preBind("TestPlugin 1", Status.success())),
            Status.error("running PreBind plugin \"TestPlugin\": " + INJECTED),
            List.of("TestPlugin:PreBind")),
        new Case(
            "two successes",
            List.of(
                preBind("TestPlugin", Status.success()), preBind("TestPlugin 1", Status.success())),
            Status.success(),
            List.of("TestPlugin:PreBind", "TestPlugin 1:PreBind")),
        new Case(
            "a rejection then a success: the rejection",
            List.of(
                preBind("TestPlugin", Status.unschedulable(INJECTED)),
                preBind("TestPlugin 1", Status.success())),
            Status.unschedulable(INJECTED).withPlugin("TestPlugin"),
            List.of("TestPlugin:PreBind")));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("preBindCases")
  void runPreBindPlugins(Case c) {
    List<String> calls = new ArrayList<>();
    Framework fw = at(PRE_BIND, Fixtures.services(), c.plugins(), calls);
    assertThat(fw.runPreBindPlugins(Fixtures.state(), POD, "node")).isEqualTo(c.want());
    assertThat(calls).isEqualTo(c.calls());
  }

  // ---------------------------------------------------------------------------------------------
  // Bind, PostBind

  static Spec bind(String name, Status s) {
    return spec(name, p -> p.bind = s);
  }

  static Stream<Case> bindCases() {
    return Stream.of(
        new Case("no Bind plugin: Skip", List.of(), Status.skip(), List.of()),
        new Case(
            "a binder that binds",
            List.of(bind("a", Status.success())),
            Status.success(),
            List.of("a:Bind")),
        new Case(
            "a skipping binder leaves the pod to the next one",
            List.of(
                bind("a", Status.skip()), bind("b", Status.success()), bind("c", Status.success())),
            Status.success(),
            List.of("a:Bind", "b:Bind")),
        new Case(
            "every binder skipping is Skip",
            List.of(bind("a", Status.skip()), bind("b", Status.skip())),
            Status.skip(),
            List.of("a:Bind", "b:Bind")),
        new Case(
            "an Error is wrapped without plugin attribution and stops",
            List.of(bind("a", Status.error(INJECTED)), bind("b", Status.success())),
            Status.error("running Bind plugin \"a\": " + INJECTED),
            List.of("a:Bind")),
        new Case(
            "a rejection is returned with its plugin",
            List.of(bind("a", Status.unschedulable(INJECTED))),
            Status.unschedulable(INJECTED).withPlugin("a"),
            List.of("a:Bind")),
        new Case(
            "a binder returning nothing counts as bound",
            List.of(bind("a", null), bind("b", Status.success())),
            Status.success(),
            List.of("a:Bind")));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("bindCases")
  void runBindPlugins(Case c) {
    List<String> calls = new ArrayList<>();
    Framework fw = at(BIND, Fixtures.services(), c.plugins(), calls);
    assertThat(fw.runBindPlugins(Fixtures.state(), POD, "node")).isEqualTo(c.want());
    assertThat(calls).isEqualTo(c.calls());
  }

  @Test
  void postBindRunsEveryPluginAndIgnoresFailures() {
    List<String> calls = new ArrayList<>();
    Framework fw =
        at(
            POST_BIND,
            Fixtures.services(),
            List.of(
                spec("a", p -> p.throwAt.put("PostBind", new FrameworkException("boom"))),
                spec("b", p -> {})),
            calls);

    fw.runPostBindPlugins(Fixtures.state(), POD, "node");

    assertThat(calls).containsExactly("a:PostBind", "b:PostBind");
  }

  // --------------------------------------------------------------------------------------------------- PostFilter

  /**
   * A PostFilter case.
   *
   * @param name the behaviour
   * @param plugins the plugins in order
   * @param want the expected result
   * @param calls the expected calls
   */
  record PostFilterCase(
      String name, List<Spec> plugins, PostFilterResult want, List<String> calls) {
    @Override
    public String toString() {
      return name;
    }
  }

  static Spec post(String name, PostFilterResult r) {
    return spec(name, p -> p.postFilter = r);
  }

  static Stream<PostFilterCase> postFilterCases() {
    PostFilterResult nominating =
        new PostFilterResult(Status.unschedulable("partial"), "n1", List.of(POD));
    return Stream.of(
        new PostFilterCase(
            "no PostFilter plugin: Unschedulable",
            List.of(),
            PostFilterResult.of(Status.unschedulable()),
            List.of()),
        new PostFilterCase(
            "the first success is returned as is",
            List.of(
                post("a", PostFilterResult.of(Status.unschedulable("a1"))),
                post("b", new PostFilterResult(Status.success(), "n2", List.of())),
                post("c", PostFilterResult.of(Status.success()))),
            new PostFilterResult(Status.success(), "n2", List.of()),
            List.of("a:PostFilter", "b:PostFilter")),
        new PostFilterCase(
            "UnschedulableAndUnresolvable stops at once with its plugin",
            List.of(
                post("a", PostFilterResult.of(Status.unresolvable("a1"))),
                post("b", PostFilterResult.of(Status.success()))),
            PostFilterResult.of(Status.unresolvable("a1").withPlugin("a")),
            List.of("a:PostFilter")),
        new PostFilterCase(
            "an Error stops at once, attributed to its plugin",
            List.of(
                post("a", PostFilterResult.of(Status.unschedulable("a1"))),
                post("b", PostFilterResult.of(Status.error(INJECTED))),
                post("c", PostFilterResult.of(Status.success()))),
            PostFilterResult.of(Status.error(INJECTED).withPlugin("b")),
            List.of("a:PostFilter", "b:PostFilter")),
        new PostFilterCase(
            "a thrown exception is an Error attributed to its plugin",
            List.of(spec("a", p -> p.throwAt.put("PostFilter", new FrameworkException(INJECTED)))),
            PostFilterResult.of(Status.error(INJECTED).withPlugin("a")),
            List.of("a:PostFilter")),
        new PostFilterCase(
            "a single rejection keeps its reasons and plugin",
            List.of(post("a", PostFilterResult.of(Status.unschedulable("a1", "a2")))),
            PostFilterResult.of(Status.unschedulable("a1", "a2").withPlugin("a")),
            List.of("a:PostFilter")),
        new PostFilterCase(
            "several rejections join their reasons under the first rejecting plugin",
            List.of(
                post("a", PostFilterResult.of(Status.unschedulable("a1"))),
                post("b", PostFilterResult.of(Status.unschedulable("b1", "b2")))),
            PostFilterResult.of(Status.unschedulable("a1", "b1", "b2").withPlugin("a")),
            List.of("a:PostFilter", "b:PostFilter")),
        new PostFilterCase(
            "the last result that nominated a node is kept",
            List.of(
                post("a", nominating), post("b", PostFilterResult.of(Status.unschedulable("b1")))),
            new PostFilterResult(
                Status.unschedulable("partial", "b1").withPlugin("a"), "n1", List.of(POD)),
            List.of("a:PostFilter", "b:PostFilter")));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("postFilterCases")
  void runPostFilterPlugins(PostFilterCase c) {
    List<String> calls = new ArrayList<>();
    Framework fw = at(POST_FILTER, Fixtures.services(), c.plugins(), calls);

    PostFilterResult got = fw.runPostFilterPlugins(Fixtures.state(), POD, Map.of());

    assertThat(got).isEqualTo(c.want());
    assertThat(calls).isEqualTo(c.calls());
  }
}
