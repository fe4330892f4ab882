package io.schedext.extender;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Pod;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.schedext.cache.CacheDebugger;
import io.schedext.cache.SchedulerCache;
import io.schedext.cluster.ObjectStore;
import io.schedext.extender.wire.ExtenderBindingArgs;
import io.schedext.framework.BindPlugin;
import io.schedext.framework.CycleState;
import io.schedext.framework.PermitPlugin;
import io.schedext.framework.PodInfo;
import io.schedext.framework.PostBindPlugin;
import io.schedext.framework.PreBindPlugin;
import io.schedext.framework.Registry;
import io.schedext.framework.ReservePlugin;
import io.schedext.framework.Status;
import io.schedext.framework.parallelize.Parallelizer;
import io.schedext.framework.runtime.Framework;
import io.schedext.framework.runtime.Frameworks;
import io.schedext.testing.FixedSource;
import io.schedext.testing.MakeNode;
import io.schedext.testing.MakePod;
import io.schedext.testing.MutableClock;
import io.schedext.testing.TestFrameworks;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A plugin that throws an unexpected exception (a NullPointerException, as a user's SPI plugin
 * might) at any point of the binding cycle never leaves the pod assumed: the bind answers the
 * error, Unreserve runs as upstream runs it, the cache forgets the pod, and a retry binds for real.
 */
class BindExceptionSafetyTest {

  private final MutableClock clock = new MutableClock(Instant.parse("2026-11-22T10:00:00Z"));
  private final SchedulerCache cache = new SchedulerCache(clock, Duration.ofSeconds(30));
  private final Parallelizer parallelizer = new Parallelizer(1);
  private final List<String> calls = new ArrayList<>();

  /** Reserve, Permit, PreBind, Bind and PostBind in one plugin that throws at {@link #throwAt}. */
  final class Thrower
      implements ReservePlugin, PermitPlugin, PreBindPlugin, BindPlugin, PostBindPlugin {
    volatile String throwAt = "";

    private void call(String point) {
      calls.add(point);
      if (point.equals(throwAt)) {
        throw new NullPointerException();
      }
    }

    @Override
    public String name() {
      return "Thrower";
    }

    @Override
    public Status reserve(CycleState state, PodInfo pod, String nodeName) {
      call("Reserve");
      return Status.success();
    }

    @Override
    public void unreserve(CycleState state, PodInfo pod, String nodeName) {
      call("Unreserve");
    }

    @Override
    public PermitPlugin.Result permit(CycleState state, PodInfo pod, String nodeName) {
      call("Permit");
      return PermitPlugin.Result.of(Status.success());
    }

    @Override
    public Status preBind(CycleState state, PodInfo pod, String nodeName) {
      call("PreBind");
      return Status.success();
    }

    @Override
    public Status bind(CycleState state, PodInfo pod, String nodeName) {
      call("Bind");
      return Status.success();
    }

    @Override
    public void postBind(CycleState state, PodInfo pod, String nodeName) {
      call("PostBind");
    }
  }

  @AfterEach
  void close() {
    parallelizer.close();
  }

  @ParameterizedTest(name = "a NullPointerException at {0}")
  @ValueSource(strings = {"Reserve", "Permit", "PreBind", "Bind"})
  void aThrowingPluginFailsTheBindUnreservesAndForgetsThePodAndARetryBinds(String point) {
    Thrower thrower = new Thrower();
    VerbHarness service = service(thrower);
    thrower.throwAt = point;

    String error = service.bind(null, args()).error();

    assertThat(error).isEqualTo("running " + point + " plugin \"Thrower\": NullPointerException");
    assertThat(calls).endsWith(point, "Unreserve");
    assertThat(cache.getPod("web-uid")).isNull();
    assertThat(cache.assumedPodCount()).isZero();
    assertThat(new CacheDebugger(cache).checkConsistency()).isEmpty();

    thrower.throwAt = "";
    calls.clear();
    assertThat(service.bind(null, args()).error()).isEmpty();
    assertThat(calls).containsExactly("Reserve", "Permit", "PreBind", "Bind", "PostBind");
    assertThat(cache.isAssumedPod("web-uid")).isTrue();
  }

  @ParameterizedTest(name = "a NullPointerException at {0}")
  @ValueSource(strings = {"PostBind"})
  void aThrowingPostBindChangesNothingAsUpstreamIgnoresIt(String point) {
    Thrower thrower = new Thrower();
    VerbHarness service = service(thrower);
    thrower.throwAt = point;

    assertThat(service.bind(null, args()).error()).isEmpty();

    assertThat(calls).containsExactly("Reserve", "Permit", "PreBind", "Bind", "PostBind");
    assertThat(cache.isAssumedPod("web-uid")).isTrue();
    assertThat(new CacheDebugger(cache).assumedPods().values())
        .containsExactly(clock.instant().plus(Duration.ofSeconds(30)));
  }

  private VerbHarness service(Thrower thrower) {
    cache.addNode(
        MakeNode.node()
            .name("n1")
            .capacity(Map.of("cpu", "4", "memory", "8Gi", "pods", "110"))
            .obj());
    Registry registry = new Registry().register("Thrower", (args, handle) -> thrower);
    Framework fw =
        TestFrameworks.framework(registry, new ObjectStore(), List.of("Thrower"), Map.of());
    SeenPods seen = new SeenPods(100, Duration.ofMinutes(10), System::nanoTime);
    Pod pod =
        MakePod.pod().name("web").namespace("default").uid("web-uid").req(Map.of("cpu", "1")).obj();
    seen.remember(pod);
    return new VerbHarness(
        cache,
        FixedSource.ready(),
        new Frameworks(Map.of("test", fw), "test"),
        parallelizer,
        seen,
        new ExtenderMetrics(new SimpleMeterRegistry()));
  }

  private static ExtenderBindingArgs args() {
    return new ExtenderBindingArgs("web", "default", "web-uid", "n1");
  }
}
