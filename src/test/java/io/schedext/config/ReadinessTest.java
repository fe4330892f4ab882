package io.schedext.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.schedext.cache.SchedulerCache;
import io.schedext.cluster.ClusterSource;
import io.schedext.cluster.ObjectStore;
import io.schedext.extender.ExtenderMetrics;
import io.schedext.extender.SeparateVerbsFixture;
import io.schedext.extender.WireCodec;
import io.schedext.framework.runtime.Framework;
import io.schedext.framework.runtime.Frameworks;
import io.schedext.profiles.InTreeRegistry;
import io.schedext.profiles.ProfileDefaults;
import io.schedext.testing.FixedSource;
import io.schedext.testing.MakeNode;
import io.schedext.testing.TestFrameworks;
import io.schedext.warmup.Compilers;
import io.schedext.warmup.WarmUp;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.Status;

/**
 * Readiness is UP once the cluster state is in and every other condition is met: the request path
 * warmed up on it ({@link WarmUp#progress}), as the warm-up's configuration makes it one.
 */
class ReadinessTest {

  private final SchedulerCache cache = new SchedulerCache(Clock.systemUTC(), Duration.ZERO);

  private WarmUp warmUp(ClusterSource source, int pairs) {
    var registry = InTreeRegistry.create();
    Framework fw =
        Framework.create(
            ProfileDefaults.profile(ProfileDefaults.NAME, registry.names()),
            registry,
            TestFrameworks.services(new ObjectStore()));
    return new WarmUp(
        pairs,
        0,
        source,
        cache,
        SeparateVerbsFixture.inProcess(new WireCodec(1 << 20)),
        () -> new Frameworks(Map.of(fw.profileName(), fw), fw.profileName()),
        new ExtenderMetrics(new SimpleMeterRegistry()),
        System::nanoTime,
        Compilers.NO_WAIT,
        () -> {});
  }

  private Health health(ClusterSource source, WarmUp warmUp) {
    return new ExtenderConfiguration()
        .clusterState(source, cache, List.of(warmUp::progress))
        .health();
  }

  @Test
  void aSourceNotReadyIsTheReasonWhateverTheWarmUp() {
    ClusterSource source = FixedSource.notReady("informers not synced yet: [Node]");
    Health h = health(source, warmUp(source, 3));
    assertThat(h.getStatus()).isEqualTo(Status.OUT_OF_SERVICE);
    assertThat(h.getDetails()).containsEntry("reason", "informers not synced yet: [Node]");
  }

  @Test
  void outOfServiceWhileWarmingUpThenUp() {
    cache.addNode(MakeNode.node().name("n1").capacity(Map.of("cpu", "4", "pods", "110")).obj());
    ClusterSource source = FixedSource.ready();
    WarmUp w = warmUp(source, 3);

    Health warming = health(source, w);
    assertThat(warming.getStatus()).isEqualTo(Status.OUT_OF_SERVICE);
    assertThat(warming.getDetails())
        .containsEntry("reason", "warming up the request path: 0 of 3 filter and prioritize pairs");

    w.start();
    await().atMost(Duration.ofSeconds(30)).until(w::finished);
    Health up = health(source, w);
    assertThat(up.getStatus()).isEqualTo(Status.UP);
    assertThat(up.getDetails()).containsEntry("nodes", 1).containsEntry("pods", 0);
    assertThat(w.done()).isEqualTo(3);
  }

  @Test
  void noWarmUpIsUpAsSoonAsTheSourceIs() {
    ClusterSource source = FixedSource.ready();
    assertThat(health(source, warmUp(source, 0)).getStatus()).isEqualTo(Status.UP);
  }
}
