package io.schedext.cache;

import static org.assertj.core.api.Assertions.assertThat;

import io.schedext.framework.PodInfo;
import io.schedext.testing.MakeNode;
import io.schedext.testing.MakePod;
import java.time.Clock;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

class SchedulerCacheSelfCheckTest {

  @Test
  void aCacheBuiltThroughItsOwnOperationsIsConsistent() {
    SchedulerCache cache = new SchedulerCache(Clock.systemUTC(), Duration.ZERO);
    cache.addNode(MakeNode.node().name("n1").capacity(Map.of("cpu", "4")).obj());
    PodInfo a =
        MakePod.pod()
            .name("a")
            .node("n1")
            .req(Map.of("cpu", "1"))
            .hostPort("TCP", "", 80)
            .pvc("c")
            .info();
    PodInfo b = MakePod.pod().name("b").node("ghost").req(Map.of("cpu", "1")).info();
    PodInfo c = MakePod.pod().name("c").node("n1").req(Map.of("memory", "1Gi")).info();
    cache.addPod(a);
    cache.addPod(b);
    cache.assumePod(c);
    cache.removeNode(MakeNode.node().name("n1").obj());
    assertThat(new CacheDebugger(cache).checkConsistency()).isEmpty();
  }

  @Test
  void aNodeAggregateThatNoLongerMatchesItsPodsIsReported() {
    SchedulerCache cache = new SchedulerCache(Clock.systemUTC(), Duration.ZERO);
    cache.addNode(MakeNode.node().name("n1").capacity(Map.of("cpu", "4")).obj());
    cache.addPod(MakePod.pod().name("a").node("n1").req(Map.of("cpu", "1")).info());
    // Corrupt the live node info behind the cache's back, as a bug would.
    PodInfo stray = MakePod.pod().name("stray").node("n1").req(Map.of("cpu", "2")).info();
    new CacheDebugger(cache).liveNodeInfo("n1").requested().add(stray.request());
    assertThat(new CacheDebugger(cache).checkConsistency())
        .containsExactly(
            "node n1 requested {milliCPU=3000, memory=0, ephemeralStorage=0, pods=0} but its pods sum "
                + "to {milliCPU=1000, memory=0, ephemeralStorage=0, pods=0}");
  }
}
