package io.schedext.extender;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Pod;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.schedext.cache.SchedulerCache;
import io.schedext.cluster.ObjectStore;
import io.schedext.extender.wire.ExtenderArgs;
import io.schedext.extender.wire.HostPriority;
import io.schedext.framework.Code;
import io.schedext.framework.ExtensionPoint;
import io.schedext.framework.FrameworkMetrics;
import io.schedext.framework.PodNominator;
import io.schedext.framework.VolumeWriter;
import io.schedext.framework.runtime.Framework;
import io.schedext.framework.runtime.FrameworkServices;
import io.schedext.framework.runtime.Frameworks;
import io.schedext.framework.runtime.WaitingPodsMap;
import io.schedext.profiles.InTreeRegistry;
import io.schedext.profiles.ProfileDefaults;
import io.schedext.testing.FixedSource;
import io.schedext.testing.MakeNode;
import io.schedext.testing.MakePod;
import io.schedext.testing.TestFrameworks;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * A prioritize call right after the filter call for the same pod, on the same snapshot, scores on
 * the filter's PreFilter state (one scheduling cycle, PreFilter once, as upstream); anything else
 * runs PreFilter again. The scores are the same either way.
 */
class PreFilterReuseTest {

  private final AtomicInteger preFilters = new AtomicInteger();
  private final SchedulerCache cache = new SchedulerCache(Clock.systemUTC(), Duration.ZERO);
  private final VerbHarness service = service();

  private VerbHarness service() {
    cache.addNode(
        MakeNode.node()
            .name("n1")
            .label("topology.kubernetes.io/zone", "a")
            .capacity(Map.of("cpu", "4", "memory", "8Gi", "pods", "10"))
            .obj());
    cache.addNode(
        MakeNode.node()
            .name("n2")
            .label("topology.kubernetes.io/zone", "b")
            .capacity(Map.of("cpu", "8", "memory", "8Gi", "pods", "10"))
            .obj());
    FrameworkMetrics counting =
        new FrameworkMetrics() {
          @Override
          public void extensionPoint(
              String profile, ExtensionPoint point, Code status, long nanos) {
            if (point == ExtensionPoint.PRE_FILTER) {
              preFilters.incrementAndGet();
            }
          }
        };
    FrameworkServices base = TestFrameworks.services(new ObjectStore());
    FrameworkServices services =
        new FrameworkServices(
            base.clusterObjects(),
            base.binder(),
            base.parallelizer(),
            PodNominator.NONE,
            Clock.systemUTC(),
            base.timers(),
            new WaitingPodsMap(),
            counting,
            VolumeWriter.NONE);
    var registry = InTreeRegistry.create();
    Framework fw =
        Framework.create(
            ProfileDefaults.profile(ProfileDefaults.NAME, registry.names()), registry, services);
    return new VerbHarness(
        cache,
        FixedSource.ready(),
        new Frameworks(Map.of(fw.profileName(), fw), fw.profileName()),
        base.parallelizer(),
        new SeenPods(10, Duration.ofMinutes(1), System::nanoTime),
        new ExtenderMetrics(new SimpleMeterRegistry()));
  }

  private static Pod pod(String uid, String cpu) {
    Pod p = MakePod.pod().name("p-" + uid).uid(uid).req(Map.of("cpu", cpu)).obj();
    p.getMetadata().setResourceVersion("7");
    return p;
  }

  private static ExtenderArgs args(Pod pod) {
    return new ExtenderArgs(pod, null, List.of("n1", "n2"));
  }

  @Test
  void prioritizeAfterFilterOnTheSameSnapshotDoesNotRunPreFilterAgain() {
    Pod p = pod("u1", "1");
    service.filter(null, args(p));
    assertThat(preFilters.get()).isEqualTo(1);

    List<HostPriority> reused = service.prioritize(null, args(pod("u1", "1")));
    assertThat(preFilters.get())
        .as("same pod (uid and resourceVersion), same snapshot")
        .isEqualTo(1);

    service.prioritize(null, args(pod("u2", "1")));
    assertThat(preFilters.get()).as("another pod").isEqualTo(2);

    List<HostPriority> again = service.prioritize(null, args(pod("u1", "1")));
    assertThat(preFilters.get())
        .as("the filter state is kept for the pod it was made for")
        .isEqualTo(2);
    assertThat(again).isEqualTo(reused);
  }

  @Test
  void aCacheChangeOrAChangedPodRunsPreFilterAgainWithTheSameScoresAsAFreshCycle() {
    service.filter(null, args(pod("u1", "1")));
    cache.addPod(
        MakePod.pod().name("other").uid("other").node("n2").req(Map.of("cpu", "6")).info());

    List<HostPriority> afterChange = service.prioritize(null, args(pod("u1", "1")));
    assertThat(preFilters.get()).as("the snapshot changed").isEqualTo(2);

    Pod changed = pod("u1", "3");
    changed.getMetadata().setResourceVersion("8");
    service.filter(null, args(pod("u1", "1")));
    service.prioritize(null, args(changed));
    assertThat(preFilters.get()).as("same uid, newer pod").isEqualTo(4);

    service.filter(null, args(pod("u1", "1")));
    assertThat(service.prioritize(null, args(pod("u1", "1"))))
        .as("reused state, same scores as a fresh cycle")
        .isEqualTo(afterChange);
    assertThat(preFilters.get()).isEqualTo(5);
  }
}
