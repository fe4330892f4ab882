package io.schedext.cache;

import static io.schedext.cache.CacheFixtures.T0;
import static io.schedext.cache.CacheFixtures.basePod;
import static io.schedext.cache.CacheFixtures.ports;
import static io.schedext.cache.CacheFixtures.res;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.PodConditionBuilder;
import io.schedext.cache.CacheFixtures.Agg;
import io.schedext.framework.NodeInfo;
import io.schedext.framework.PodInfo;
import io.schedext.kube.PodRequests;
import io.schedext.testing.MakeNode;
import io.schedext.testing.MakePod;
import io.schedext.testing.MutableClock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** The pod life cycle of {@link SchedulerCache}, as upstream's cache_test.go. */
class SchedulerCacheTest {

  private static final Duration TTL = Duration.ofSeconds(10);

  private final MutableClock clock = new MutableClock(T0);

  private SchedulerCache cache(Duration ttl) {
    return new SchedulerCache(clock, ttl);
  }

  private static Agg agg(SchedulerCache cache, String node) {
    return Agg.of(new CacheDebugger(cache).nodeInfo(node));
  }

  // ------------------------------------------------------------------------------------------------------- assume

  record AssumeCase(String name, List<PodInfo> pods, Agg want) {
    @Override
    public String toString() {
      return name;
    }
  }

  static Stream<AssumeCase> assumeCases() {
    PodInfo p0 = basePod("node", "request-and-port-0", "100m", "500", 80);
    PodInfo p1 = basePod("node", "request-and-port-1", "100m", "500", 80);
    PodInfo p2 = basePod("node", "request-and-port-2", "200m", "1Ki", 8080);
    PodInfo noRequest = basePod("node", "nonzero-request", "", "", 80);
    PodInfo ext1 =
        basePod("node", "extended-1", "100m", "500", "example.com/foo:3", "127.0.0.1", 80);
    PodInfo ext2 =
        basePod("node", "extended-2", "200m", "1Ki", "example.com/foo:5", "127.0.0.1", 8080);
    PodInfo badKey =
        basePod("node", "extended-key", "100m", "500", "random-invalid-extended-key:100", "", 0);
    return Stream.of(
        new AssumeCase(
            "an assumed pod's requests and host port are accounted on its node",
            List.of(p0),
            new Agg(
                List.of(p0.uid()), res(100, 500), res(100, 500), ports("127.0.0.1", "TCP", 80))),
        new AssumeCase(
            "the node requests are the sum of the assumed pods and hold every host port",
            List.of(p1, p2),
            new Agg(
                List.of(p1.uid(), p2.uid()),
                res(300, 1524),
                res(300, 1524),
                ports("127.0.0.1", "TCP", 80, "127.0.0.1", "TCP", 8080))),
        new AssumeCase(
            "a pod without requests counts 100m and 200Mi in the non-zero requests only",
            List.of(noRequest),
            new Agg(
                List.of(noRequest.uid()),
                res(0, 0),
                res(PodRequests.DEFAULT_MILLI_CPU_REQUEST, PodRequests.DEFAULT_MEMORY_REQUEST),
                ports("127.0.0.1", "TCP", 80))),
        new AssumeCase(
            "an extended resource is accounted as a scalar",
            List.of(ext1),
            new Agg(
                List.of(ext1.uid()),
                res(100, 500, "example.com/foo", 3),
                res(100, 500),
                ports("127.0.0.1", "TCP", 80))),
        new AssumeCase(
            "extended resources of two pods add up",
            List.of(ext1, ext2),
            new Agg(
                List.of(ext1.uid(), ext2.uid()),
                res(300, 1524, "example.com/foo", 8),
                res(300, 1524),
                ports("127.0.0.1", "TCP", 80, "127.0.0.1", "TCP", 8080))),
        new AssumeCase(
            "a resource name that is not an extended resource is ignored",
            List.of(badKey),
            new Agg(List.of(badKey.uid()), res(100, 500), res(100, 500), Map.of())));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("assumeCases")
  void assumedPodsAreAggregatedOnTheirNodeAndForgetUndoesIt(AssumeCase c) {
    SchedulerCache cache = cache(Duration.ofSeconds(1));
    for (PodInfo p : c.pods()) {
      cache.assumePod(p);
      assertThatThrownBy(() -> cache.assumePod(p))
          .isInstanceOf(CacheException.class)
          .hasMessage("pod " + p.uid() + "(" + p.key() + ") is in the cache, so can't be assumed");
    }
    assertThat(agg(cache, "node")).isEqualTo(c.want());

    for (PodInfo p : c.pods()) {
      cache.forgetPod(p);
      assertThat(cache.isAssumedPod(p.uid())).isFalse();
      assertThat(cache.getPod(p.uid())).isNull();
    }
    assertThat(new CacheDebugger(cache).nodeInfo("node"))
        .as("a node-less entry without pods is dropped")
        .isNull();
    assertThat(cache.podCount()).isZero();
  }

  // ------------------------------------------------------------------------------------------------------- expiry

  /**
   * One assumed pod of an expiry case.
   *
   * @param pod the pod
   * @param finishBindingAt when its binding finished, or null when it never did
   */
  record Assumed(PodInfo pod, Instant finishBindingAt) {}

  record ExpireCase(String name, Duration ttl, List<Assumed> pods, Instant cleanupAt, Agg want) {
    @Override
    public String toString() {
      return name;
    }
  }

  static Stream<ExpireCase> expireCases() {
    PodInfo p1 = basePod("node", "test-1", "100m", "500", 80);
    PodInfo p2 = basePod("node", "test-2", "200m", "1Ki", 8080);
    PodInfo p3 = basePod("node", "test-3", "200m", "1Ki", 8080);
    return Stream.of(
        new ExpireCase(
            "an assumed pod expires once the ttl after its binding finished has passed",
            TTL,
            List.of(new Assumed(p1, T0)),
            T0.plus(TTL.multipliedBy(2)),
            null),
        new ExpireCase(
            "only the pod past its deadline expires; a later-bound and an unbound pod stay",
            TTL,
            List.of(
                new Assumed(p1, T0),
                new Assumed(p2, T0.plus(TTL.multipliedBy(3).dividedBy(2))),
                new Assumed(p3, null)),
            T0.plus(TTL.multipliedBy(2)),
            // removal swaps the last pod into the freed slot, as upstream does
            new Agg(
                List.of(p3.uid(), p2.uid()),
                res(400, 2048),
                res(400, 2048),
                ports("127.0.0.1", "TCP", 8080))),
        new ExpireCase(
            "with a zero ttl a bound assumed pod never expires",
            Duration.ZERO,
            List.of(new Assumed(p1, T0)),
            T0.plus(TTL.multipliedBy(3)),
            new Agg(
                List.of(p1.uid()), res(100, 500), res(100, 500), ports("127.0.0.1", "TCP", 80))),
        new ExpireCase(
            "a negative ttl counts as zero: nothing expires",
            Duration.ofSeconds(-5),
            List.of(new Assumed(p1, T0)),
            T0.plus(TTL.multipliedBy(3)),
            new Agg(
                List.of(p1.uid()), res(100, 500), res(100, 500), ports("127.0.0.1", "TCP", 80))),
        new ExpireCase(
            "an assumed pod whose binding never finished does not expire",
            TTL,
            List.of(new Assumed(p1, null)),
            T0.plus(Duration.ofDays(1)),
            new Agg(
                List.of(p1.uid()), res(100, 500), res(100, 500), ports("127.0.0.1", "TCP", 80))),
        new ExpireCase(
            "at exactly its deadline the pod has not expired yet",
            TTL,
            List.of(new Assumed(p1, T0)),
            T0.plus(TTL),
            new Agg(
                List.of(p1.uid()), res(100, 500), res(100, 500), ports("127.0.0.1", "TCP", 80))),
        new ExpireCase(
            "one nanosecond after its deadline the pod has expired",
            TTL,
            List.of(new Assumed(p1, T0)),
            T0.plus(TTL).plusNanos(1),
            null));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("expireCases")
  void assumedPodsExpireOnlyAfterFinishBindingAndOnlyWithATtl(ExpireCase c) {
    SchedulerCache cache = cache(c.ttl());
    for (Assumed a : c.pods()) {
      cache.assumePod(a.pod());
      if (a.finishBindingAt() != null) {
        clock.set(a.finishBindingAt());
        cache.finishBinding(a.pod());
      }
    }
    clock.set(c.cleanupAt());
    List<PodInfo> expired = cache.cleanupExpiredAssumedPods();

    assertThat(agg(cache, "node")).isEqualTo(c.want());
    int stay = c.want() == null ? 0 : c.want().pods().size();
    assertThat(expired).hasSize(c.pods().size() - stay);
    assertThat(cache.expiredCount()).isEqualTo(expired.size());
    for (PodInfo p : expired) {
      assertThat(cache.getPod(p.uid())).isNull();
      assertThat(cache.isAssumedPod(p.uid())).isFalse();
    }
  }

  @Test
  void finishBindingArmsTheDeadlineFromTheClockAndIgnoresPodsThatAreNotAssumed() {
    SchedulerCache cache = cache(TTL);
    PodInfo assumed = basePod("node", "assumed", "100m", "500", 0);
    PodInfo added = basePod("node", "added", "100m", "500", 0);
    cache.assumePod(assumed);
    cache.addPod(added);
    assertThat(new CacheDebugger(cache).assumedPods()).containsEntry(assumed, null);

    clock.advance(Duration.ofSeconds(3));
    cache.finishBinding(assumed);
    cache.finishBinding(added);
    cache.finishBinding(basePod("node", "unknown", "100m", "500", 0));

    assertThat(new CacheDebugger(cache).assumedPods())
        .isEqualTo(Map.of(assumed, T0.plusSeconds(3).plus(TTL)));
    clock.advance(Duration.ofDays(1));
    assertThat(cache.cleanupExpiredAssumedPods()).containsExactly(assumed);
    assertThat(cache.getPod(added.uid())).isSameAs(added);
  }

  @Test
  void anAddedPodIsConfirmedAndNoLongerExpires() {
    SchedulerCache cache = cache(TTL);
    PodInfo p1 = basePod("node", "test-1", "100m", "500", 80);
    PodInfo p2 = basePod("node", "test-2", "200m", "1Ki", 8080);
    for (PodInfo p : List.of(p1, p2)) {
      cache.assumePod(p);
      cache.finishBinding(p);
    }
    cache.addPod(p1);
    assertThatThrownBy(() -> cache.addPod(p1))
        .isInstanceOf(CacheException.class)
        .hasMessage("pod test-1(node_info_cache_test/test-1) was already in added state");

    clock.advance(TTL.multipliedBy(2));
    cache.cleanupExpiredAssumedPods();

    assertThat(cache.isAssumedPod(p1.uid())).isFalse();
    assertThat(agg(cache, "node"))
        .isEqualTo(
            new Agg(
                List.of(p1.uid()), res(100, 500), res(100, 500), ports("127.0.0.1", "TCP", 80)));
  }

  @Test
  void anExpiredPodIsAddedBackWhenTheWatchReportsIt() {
    SchedulerCache cache = cache(TTL);
    PodInfo p = basePod("node", "test", "100m", "500", 80);
    cache.assumePod(p);
    cache.finishBinding(p);
    clock.advance(TTL.multipliedBy(2));
    cache.cleanupExpiredAssumedPods();
    assertThat(cache.getPod(p.uid())).isNull();
    assertThat(cache.isAssumedPod(p.uid())).isFalse();

    cache.addPod(p);

    assertThat(agg(cache, "node"))
        .isEqualTo(
            new Agg(List.of(p.uid()), res(100, 500), res(100, 500), ports("127.0.0.1", "TCP", 80)));
  }

  @Test
  void anExpiredThenAddedPodCanBeUpdatedTwice() {
    SchedulerCache cache = cache(TTL);
    PodInfo v0 = basePod("node", "test", "100m", "500", 80);
    PodInfo v1 = basePod("node", "test", "200m", "1Ki", 8080);
    cache.assumePod(v0);
    cache.finishBinding(v0);
    clock.advance(TTL.multipliedBy(2));
    cache.cleanupExpiredAssumedPods();
    cache.addPod(v0);

    cache.updatePod(v0, v1);
    assertThat(agg(cache, "node"))
        .isEqualTo(
            new Agg(
                List.of("test"), res(200, 1024), res(200, 1024), ports("127.0.0.1", "TCP", 8080)));
    cache.updatePod(v1, v0);
    assertThat(agg(cache, "node"))
        .isEqualTo(
            new Agg(List.of("test"), res(100, 500), res(100, 500), ports("127.0.0.1", "TCP", 80)));
  }

  // -----------------------------------------------------------------------------------------------
  // add and update

  @Test
  void addingAnAssumedPodReplacesTheCachedCopyWithTheWatchedOne() {
    SchedulerCache cache = cache(TTL);
    PodInfo assumed = basePod("node1", "test-1", "100m", "500", "", "", 80);
    PodInfo watched =
        PodInfo.of(
            new PodBuilder(assumed.pod())
                .editStatus()
                .addToConditions(
                    new PodConditionBuilder().withType("PodScheduled").withStatus("True").build())
                .endStatus()
                .build());
    cache.assumePod(assumed);
    cache.finishBinding(assumed);

    cache.addPod(watched);

    assertThat(cache.getPod("test-1")).isSameAs(watched);
    assertThat(new CacheDebugger(cache).nodeInfo("node1").pods()).containsExactly(watched);
    assertThat(agg(cache, "node1"))
        .isEqualTo(
            new Agg(List.of("test-1"), res(100, 500), res(100, 500), ports("0.0.0.0", "TCP", 80)));
  }

  @Test
  void anAssumedPodAddedOnAnotherNodeMovesThere() {
    SchedulerCache cache = cache(TTL);
    PodInfo assumed = basePod("assumed-node-1", "test-1", "100m", "500", "", "", 80);
    PodInfo added = basePod("actual-node", "test-1", "100m", "500", "", "", 80);
    PodInfo updated = basePod("actual-node", "test-1", "200m", "500", "", "", 90);
    cache.assumePod(assumed);
    cache.finishBinding(assumed);

    cache.addPod(added);
    cache.updatePod(added, updated);

    assertThat(new CacheDebugger(cache).nodeInfo("assumed-node-1")).isNull();
    assertThat(cache.isAssumedPod("test-1")).isFalse();
    assertThat(agg(cache, "actual-node"))
        .isEqualTo(
            new Agg(List.of("test-1"), res(200, 500), res(200, 500), ports("0.0.0.0", "TCP", 90)));
  }

  @Test
  void updatingAnAddedPodReplacesItsAccounting() {
    SchedulerCache cache = cache(TTL);
    PodInfo v0 = basePod("node", "test", "100m", "500", 80);
    PodInfo v1 = basePod("node", "test", "200m", "1Ki", 8080);
    cache.addPod(v0);

    cache.updatePod(v0, v1);
    assertThat(agg(cache, "node"))
        .isEqualTo(
            new Agg(
                List.of("test"), res(200, 1024), res(200, 1024), ports("127.0.0.1", "TCP", 8080)));
    assertThat(cache.getPod("test")).isSameAs(v1);

    cache.updatePod(v1, v0);
    assertThat(agg(cache, "node"))
        .isEqualTo(
            new Agg(List.of("test"), res(100, 500), res(100, 500), ports("127.0.0.1", "TCP", 80)));
    assertThat(cache.getPod("test")).isSameAs(v0);
  }

  @Test
  void updatingAnUnknownPodFailsAndGetReturnsNothing() {
    SchedulerCache cache = cache(TTL);
    PodInfo v0 = basePod("node", "test", "100m", "500", 80);
    PodInfo v1 = basePod("node", "test", "200m", "1Ki", 8080);

    assertThat(cache.getPod("test")).isNull();
    assertThatThrownBy(() -> cache.updatePod(v0, v1))
        .isInstanceOf(CacheException.class)
        .hasMessage(
            "pod test(node_info_cache_test/test) is not added to scheduler cache, so cannot be updated");
  }

  @Test
  void anAssumedPodCannotBeUpdatedAndGetStillReturnsTheAssumedCopy() {
    SchedulerCache cache = cache(TTL);
    PodInfo v0 = basePod("node", "test", "100m", "500", 80);
    PodInfo v1 = basePod("node", "test", "200m", "1Ki", 8080);
    cache.assumePod(v0);

    assertThatThrownBy(() -> cache.updatePod(v0, v1))
        .isInstanceOf(CacheException.class)
        .hasMessage("assumed pod test(node_info_cache_test/test) should not be updated");
    assertThat(cache.getPod("test")).isSameAs(v0);
  }

  @Test
  void anUpdateThatMovesAnAddedPodToAnotherNodeIsRepairedAndCounted() {
    SchedulerCache cache = cache(TTL);
    PodInfo onA = basePod("a", "test", "100m", "500", 0);
    PodInfo onB = basePod("b", "test", "100m", "500", 0);
    cache.addPod(onA);

    cache.updatePod(onA, onB);

    assertThat(cache.corruptions()).isEqualTo(1);
    assertThat(new CacheDebugger(cache).nodeInfo("a")).isNull();
    assertThat(agg(cache, "b").pods()).containsExactly("test");
  }

  @Test
  void ephemeralStorageIsAccountedAndReleased() {
    SchedulerCache cache = cache(TTL);
    PodInfo p =
        MakePod.pod()
            .name("pod-with-ephemeral-storage")
            .namespace("default-namespace")
            .uid("pod-with-ephemeral-storage")
            .node("node")
            .req(Map.of("ephemeral-storage", "500"))
            .info();
    cache.addPod(p);

    NodeInfo n = new CacheDebugger(cache).nodeInfo("node");
    assertThat(n.requested()).isEqualTo(new io.schedext.framework.Resource(0, 0, 500, 0));
    assertThat(n.nonZeroRequested())
        .isEqualTo(res(PodRequests.DEFAULT_MILLI_CPU_REQUEST, PodRequests.DEFAULT_MEMORY_REQUEST));

    cache.removePod(p);
    assertThat(cache.getPod(p.uid())).isNull();
    assertThat(new CacheDebugger(cache).nodeInfo("node")).isNull();
  }

  // ------------------------------------------------------------------------------------------------------- remove

  @ParameterizedTest(
      name =
          "a pod that was {0} before its node existed can be removed once, moving its node to the head")
  @MethodSource("addedOrAssumed")
  void removePod(String how) {
    SchedulerCache cache = cache(TTL);
    PodInfo p = basePod("node-1", "test", "100m", "500", 80);
    if (how.equals("added")) {
      cache.addPod(p);
    } else {
      cache.assumePod(p);
    }
    assertThat(agg(cache, "node-1"))
        .isEqualTo(
            new Agg(List.of("test"), res(100, 500), res(100, 500), ports("127.0.0.1", "TCP", 80)));
    cache.addNode(MakeNode.node().name("node-1").obj());
    cache.addNode(MakeNode.node().name("node-2").obj());

    cache.removePod(p);

    assertThat(cache.getPod("test")).isNull();
    assertThat(cache.isAssumedPod("test")).isFalse();
    assertThatThrownBy(() -> cache.removePod(p))
        .isInstanceOf(CacheException.class)
        .hasMessage(
            "pod test(node_info_cache_test/test) is not found in scheduler cache, so cannot be removed from it");
    assertThat(new CacheDebugger(cache).recencyOrder()).containsExactly("node-1", "node-2");
    assertThat(agg(cache, "node-1")).isEqualTo(new Agg(List.of(), res(0, 0), res(0, 0), Map.of()));
  }

  @Test
  void watchUpdatesPublishASnapshotEverySoManyNodeChanges() {
    SchedulerCache cache = cache(TTL);
    int nodes = SchedulerCache.PUBLISH_EVERY * 2;
    for (int i = 0; i < nodes; i++) {
      cache.addNode(MakeNode.node().name("node-" + i).obj());
    }
    Snapshot first = cache.snapshot();
    assertThat(first.size()).isEqualTo(nodes);

    for (int i = 0; i < SchedulerCache.PUBLISH_EVERY - 1; i++) {
      cache.addPod(basePod("node-" + i, "p" + i, "100m", "500", 0));
    }
    assertThat(cache.lastPublished())
        .as("fewer changes than the threshold wait for a request")
        .isSameAs(first);

    cache.addPod(basePod("node-" + (nodes - 1), "last", "100m", "500", 0));
    Snapshot published = cache.lastPublished();
    assertThat(published).as("the update that reached the threshold published").isNotSameAs(first);
    assertThat(published.get("node-0").pods()).extracting(PodInfo::name).containsExactly("p0");
    assertThat(published.get("node-" + (nodes - 1)).pods())
        .extracting(PodInfo::name)
        .containsExactly("last");
    assertThat(cache.snapshot()).as("nothing left to copy").isSameAs(published);
  }

  static Stream<String> addedOrAssumed() {
    return Stream.of("added", "assumed");
  }

  @Test
  void removingAPodWithAnEmptyNodeNameUsesTheCachedNode() {
    SchedulerCache cache = cache(TTL);
    PodInfo p = basePod("node", "test", "100m", "500", 0);
    cache.addPod(p);

    cache.removePod(basePod("", "test", "100m", "500", 0));

    assertThat(cache.corruptions()).isZero();
    assertThat(new CacheDebugger(cache).nodeInfo("node")).isNull();
  }

  @Test
  void removingAPodReportedOnAnotherNodeIsRepairedAndCounted() {
    SchedulerCache cache = cache(TTL);
    cache.addPod(basePod("a", "test", "100m", "500", 0));

    cache.removePod(basePod("b", "test", "100m", "500", 0));

    assertThat(cache.corruptions()).isEqualTo(1);
    assertThat(cache.getPod("test")).isNull();
    assertThat(new CacheDebugger(cache).nodeInfo("a")).isNull();
  }

  // ------------------------------------------------------------------------------------------------------- forget

  @Test
  void forgettingAnAssumedPodRemovesItAndForgettingItAgainIsHarmless() {
    SchedulerCache cache = cache(TTL);
    PodInfo p = basePod("node", "test", "100m", "500", 80);
    cache.assumePod(p);
    assertThat(cache.isAssumedPod("test")).isTrue();
    assertThat(cache.getPod("test").key()).isEqualTo(p.key());

    cache.forgetPod(p);
    assertThat(cache.isAssumedPod("test")).isFalse();
    assertThat(cache.getPod("test")).isNull();

    cache.forgetPod(p);
    assertThat(cache.podCount()).isZero();
  }

  @Test
  void anAddedPodCannotBeForgotten() {
    SchedulerCache cache = cache(TTL);
    PodInfo p = basePod("node", "test", "100m", "500", 80);
    cache.addPod(p);

    assertThatThrownBy(() -> cache.forgetPod(p))
        .isInstanceOf(CacheException.class)
        .hasMessage(
            "pod test(node_info_cache_test/test) is not assumed, so it cannot be removed or forgotten");
    assertThat(cache.getPod("test")).isSameAs(p);
  }

  @Test
  void aPodCannotBeForgottenOnAnotherNodeThanItWasAssumedOn() {
    SchedulerCache cache = cache(TTL);
    cache.assumePod(basePod("a", "test", "100m", "500", 0));

    assertThatThrownBy(() -> cache.forgetPod(basePod("b", "test", "100m", "500", 0)))
        .isInstanceOf(CacheException.class)
        .hasMessage("pod test(node_info_cache_test/test) was assumed on b but assigned to a");
    assertThat(cache.isAssumedPod("test")).isTrue();
  }

  @Test
  void everyPodOperationRejectsAnEmptyUid() {
    SchedulerCache cache = cache(TTL);
    PodInfo p = MakePod.pod().name("no-uid").uid("").node("node").info();
    String msg = "cannot get cache key for pod default/no-uid with empty UID";

    for (Runnable op :
        List.<Runnable>of(
            () -> cache.assumePod(p),
            () -> cache.addPod(p),
            () -> cache.forgetPod(p),
            () -> cache.finishBinding(p),
            () -> cache.removePod(p),
            () -> cache.updatePod(p, p))) {
      assertThatThrownBy(op::run).isInstanceOf(CacheException.class).hasMessage(msg);
    }
    assertThat(cache.podCount()).isZero();
  }

  // -------------------------------------------------------------------------------------------------------- nodes

  @Test
  void nodeOperationsKeepAllocatableTreeAndGhostEntriesRight() {
    SchedulerCache cache = cache(TTL);
    Map<String, String> resources1 =
        Map.of("cpu", "1000m", "memory", "100m", "example.com/foo", "1");
    Map<String, String> resources2 = Map.of("cpu", "500m", "memory", "50m", "example.com/foo", "2");
    Node n1 =
        MakeNode.node()
            .name("test-node-1")
            .capacity(resources1)
            .taint("test-key", "test-value", "PreferNoSchedule")
            .obj();
    Node n2 = MakeNode.node().name("test-node-2").capacity(resources2).obj();
    Node n3 = MakeNode.node().name("test-node-3").capacity(resources1).obj();
    PodInfo pod1 =
        MakePod.pod()
            .name("pod1")
            .uid("pod1")
            .node("test-node-1")
            .req(Map.of("cpu", "500m", "memory", "50m"))
            .hostPort("", "", 80)
            .info();
    PodInfo pod2 =
        MakePod.pod()
            .name("pod2")
            .uid("pod2")
            .node("test-node-1")
            .req(Map.of("cpu", "500m", "memory", "50m"))
            .info();
    for (Node n : List.of(n1, n2, n3)) {
      cache.addNode(n);
    }
    cache.addPod(pod1);
    cache.addPod(pod2);

    // added: allocatable from the node, requests from the pods ("50m" memory rounds up to 1 byte
    // each)
    NodeInfo got = new CacheDebugger(cache).nodeInfo("test-node-1");
    assertThat(got.node()).isSameAs(n1);
    assertThat(got.allocatable()).isEqualTo(res(1000, 1, "example.com/foo", 1));
    assertThat(got.requested()).isEqualTo(res(1000, 2));
    assertThat(got.taints()).hasSize(1);
    assertThat(cache.nodeCount()).isEqualTo(3);
    assertThat(new CacheDebugger(cache).nodeTreeOrder()).hasSize(3);
    NodeInfo snap = cache.snapshot().get("test-node-1");
    assertThat(Agg.of(snap)).isEqualTo(Agg.of(got));
    assertThat(snap.allocatable()).isEqualTo(got.allocatable());

    // updated: a new generation and the new allocatable
    long generation = got.generation();
    Node n1b =
        MakeNode.node().name("test-node-1").capacity(Map.of("cpu", "1000m", "memory", "2Gi")).obj();
    cache.updateNode(n1, n1b);
    got = new CacheDebugger(cache).nodeInfo("test-node-1");
    assertThat(got.generation()).isGreaterThan(generation);
    assertThat(got.allocatable()).isEqualTo(res(1000, 2L << 30));
    assertThat(cache.snapshot().get("test-node-1").allocatable()).isEqualTo(res(1000, 2L << 30));
    assertThat(new CacheDebugger(cache).nodeTreeOrder()).hasSize(3);

    // removed while pods remain: a ghost entry outside the tree and the snapshot
    cache.removeNode(n1b);
    assertThat(new CacheDebugger(cache).nodeInfo("test-node-1")).isNotNull();
    assertThat(new CacheDebugger(cache).nodeInfo("test-node-1").node()).isNull();
    assertThat(new CacheDebugger(cache).ghostNodes()).containsExactly("test-node-1");
    assertThat(cache.nodeCount()).isEqualTo(2);
    assertThat(new CacheDebugger(cache).nodeTreeOrder())
        .containsExactly("test-node-2", "test-node-3");
    assertThat(cache.snapshot().get("test-node-1")).isNull();
    assertThat(cache.snapshot().size()).isEqualTo(2);
    assertThatThrownBy(() -> cache.removeNode(n1b))
        .isInstanceOf(CacheException.class)
        .hasMessageContaining("test-node-1");
    assertThat(cache.getPod("pod1")).isSameAs(pod1);
    assertThat(cache.getPod("pod2")).isSameAs(pod2);

    // the pod deletes arrive later and drop the ghost
    cache.removePod(pod1);
    cache.removePod(pod2);
    assertThat(cache.getPod("pod1")).isNull();
    assertThat(new CacheDebugger(cache).nodeInfo("test-node-1")).isNull();
    assertThat(new CacheDebugger(cache).ghostNodes()).isEmpty();
  }

  @Test
  void removingAnUnknownNodeFails() {
    SchedulerCache cache = cache(TTL);
    assertThatThrownBy(() -> cache.removeNode(MakeNode.node().name("nope").obj()))
        .isInstanceOf(CacheException.class)
        .hasMessage("node nope is not found");
  }

  @Test
  void aNodeWithoutPodsIsDroppedWhenRemoved() {
    SchedulerCache cache = cache(TTL);
    Node n = MakeNode.node().name("n").obj();
    cache.addNode(n);

    cache.removeNode(n);

    assertThat(new CacheDebugger(cache).nodeInfo("n")).isNull();
    assertThat(new CacheDebugger(cache).ghostNodes()).isEmpty();
    assertThat(cache.nodeCount()).isZero();
    assertThat(cache.snapshot().size()).isZero();
  }

  @Test
  void podsThatArriveBeforeTheirNodeAreAccountedOnceTheNodeArrives() {
    SchedulerCache cache = cache(TTL);
    cache.addNode(MakeNode.node().name("other").obj());
    PodInfo early = basePod("late-node", "early", "300m", "1Ki", 0);
    cache.addPod(early);
    assertThat(new CacheDebugger(cache).ghostNodes()).containsExactly("late-node");
    assertThat(cache.snapshot().get("late-node"))
        .as("a node-less entry is not in the snapshot")
        .isNull();

    cache.addNode(MakeNode.node().name("late-node").obj());

    NodeInfo n = cache.snapshot().get("late-node");
    assertThat(n).isNotNull();
    assertThat(n.requested()).isEqualTo(res(300, 1024));
    assertThat(n.pods()).containsExactly(early);
    assertThat(new CacheDebugger(cache).ghostNodes()).isEmpty();
  }

  @Test
  void aNodeUpdateIsVisibleInTheNextSnapshot() {
    SchedulerCache cache = cache(TTL);
    Node v1 = MakeNode.node().name("n").capacity(Map.of("cpu", "1")).obj();
    cache.addNode(v1);
    assertThat(cache.snapshot().get("n").allocatable().milliCpu()).isEqualTo(1000);

    cache.updateNode(
        v1, MakeNode.node().name("n").capacity(Map.of("cpu", "2")).label("k", "v").obj());

    NodeInfo n = cache.snapshot().get("n");
    assertThat(n.allocatable().milliCpu()).isEqualTo(2000);
    assertThat(n.labels()).containsEntry("k", "v");
  }

  @Test
  void updatingAnUnknownNodeAddsIt() {
    SchedulerCache cache = cache(TTL);
    cache.updateNode(null, MakeNode.node().name("n").obj());
    assertThat(cache.nodeCount()).isEqualTo(1);
    assertThat(cache.snapshot().get("n")).isNotNull();
  }

  @Test
  void addingAKnownNodeAgainReplacesItWithoutDuplicatingItInTheTree() {
    SchedulerCache cache = cache(TTL);
    cache.addNode(MakeNode.node().name("n").label(NodeTree.ZONE, "a").obj());
    cache.addNode(MakeNode.node().name("n").label(NodeTree.ZONE, "b").obj());

    assertThat(cache.nodeCount()).isEqualTo(1);
    assertThat(new CacheDebugger(cache).nodeTreeOrder()).containsExactly("n");
    assertThat(cache.snapshot().get("n").labels()).containsEntry(NodeTree.ZONE, "b");
  }

  // ------------------------------------------------------------------------------------------------------- images

  @Test
  void imageStatesCountTheNodesReportingEachImageName() {
    SchedulerCache cache = cache(TTL);
    long mb = 1024 * 1024;
    Node n1 =
        MakeNode.node()
            .name("n1")
            .image(80 * mb, "gcr.io/80:latest", "gcr.io/80:v1")
            .image(300 * mb, "gcr.io/300:latest", "gcr.io/300:v1")
            .obj();
    Node n2 =
        MakeNode.node()
            .name("n2")
            .image(600 * mb, "gcr.io/600:latest")
            .image(80 * mb, "gcr.io/80:latest")
            .image(900 * mb, "gcr.io/900:latest")
            .obj();
    cache.addNode(n1);
    cache.addNode(n2);

    Snapshot s = cache.snapshot();
    assertThat(s.get("n1").imageStates())
        .isEqualTo(
            Map.of(
                "gcr.io/80:latest", new io.schedext.framework.ImageStateSummary(80 * mb, 2),
                "gcr.io/80:v1", new io.schedext.framework.ImageStateSummary(80 * mb, 1),
                "gcr.io/300:latest", new io.schedext.framework.ImageStateSummary(300 * mb, 1),
                "gcr.io/300:v1", new io.schedext.framework.ImageStateSummary(300 * mb, 1)));
    assertThat(s.get("n2").imageStates())
        .containsEntry("gcr.io/80:latest", new io.schedext.framework.ImageStateSummary(80 * mb, 2));

    // removing n2 decrements the count, seen once n1's entry is refreshed
    cache.removeNode(n2);
    cache.updateNode(n1, n1);
    assertThat(cache.snapshot().get("n1").imageStates())
        .containsEntry("gcr.io/80:latest", new io.schedext.framework.ImageStateSummary(80 * mb, 1));

    // an update that drops an image releases it
    cache.updateNode(n1, MakeNode.node().name("n1").image(80 * mb, "gcr.io/80:latest").obj());
    assertThat(cache.snapshot().get("n1").imageStates())
        .isEqualTo(
            Map.of("gcr.io/80:latest", new io.schedext.framework.ImageStateSummary(80 * mb, 1)));
  }

  @Test
  void anImageWithoutANameIsLeftOutOfTheSummaries() {
    SchedulerCache cache = cache(TTL);
    Node n1 = MakeNode.node().name("n1").image(10, "img").obj();
    n1.getStatus().getImages().get(0).getNames().add(null);
    cache.addNode(n1);

    assertThat(cache.snapshot().get("n1").imageStates())
        .isEqualTo(Map.of("img", new io.schedext.framework.ImageStateSummary(10, 1)));
  }

  @Test
  void anUnchangedNodeKeepsItsImageCountUntilItIsRefreshedAsUpstreamDoes() {
    SchedulerCache cache = cache(TTL);
    Node n1 = MakeNode.node().name("n1").image(10, "img").obj();
    cache.addNode(n1);
    assertThat(cache.snapshot().get("n1").imageStates().get("img").numNodes()).isEqualTo(1);

    cache.addNode(MakeNode.node().name("n2").image(10, "img").obj());

    Snapshot s = cache.snapshot();
    assertThat(s.get("n2").imageStates().get("img").numNodes()).isEqualTo(2);
    assertThat(s.get("n1").imageStates().get("img").numNodes()).isEqualTo(1);
  }

  @Test
  void addOrUpdateAddsConfirmsOrReplacesAsTheEventMeans() {
    SchedulerCache cache = cache(TTL);
    cache.addNode(MakeNode.node().name("a").obj());
    cache.addNode(MakeNode.node().name("b").obj());
    PodInfo unknown = basePod("a", "unknown", "100m", "1", 0);
    PodInfo assumed = basePod("a", "assumed", "200m", "1", 0);
    PodInfo added = basePod("a", "added", "300m", "1", 0);
    cache.assumePod(assumed);
    cache.addPod(added);

    cache.addOrUpdatePod(unknown);
    cache.addOrUpdatePod(basePod("b", "assumed", "200m", "1", 0));
    cache.addOrUpdatePod(basePod("a", "added", "500m", "1", 0));

    assertThat(cache.isAssumedPod(assumed.uid())).as("confirmed").isFalse();
    assertThat(cache.getPod(assumed.uid()).nodeName())
        .as("landed elsewhere than assumed")
        .isEqualTo("b");
    assertThat(cache.getPod(unknown.uid())).isSameAs(unknown);
    assertThat(new CacheDebugger(cache).nodeInfo("a").requested().milliCpu()).isEqualTo(100 + 500);
    assertThat(new CacheDebugger(cache).nodeInfo("b").requested().milliCpu()).isEqualTo(200);
    // An added pod reported on another node is the inconsistency updatePod repairs, the same way.
    cache.addOrUpdatePod(basePod("b", "added", "500m", "1", 0));
    assertThat(new CacheDebugger(cache).nodeInfo("b").requested().milliCpu()).isEqualTo(200 + 500);
    assertThat(new CacheDebugger(cache).nodeInfo("a").requested().milliCpu()).isEqualTo(100);
    assertThat(new CacheDebugger(cache).checkConsistency()).isEmpty();
  }

  @Test
  void aNodeWhosePodsChangeKeepsItsImageSummariesUntilSomeNodesImagesChange() {
    SchedulerCache cache = cache(TTL);
    Node n1 = MakeNode.node().name("n1").image(10, "img").obj();
    Node n2 = MakeNode.node().name("n2").image(10, "img").label("v", "1").obj();
    cache.addNode(n1);
    cache.addNode(n2);
    Map<String, io.schedext.framework.ImageStateSummary> first =
        cache.snapshot().get("n1").imageStates();
    assertThat(first.get("img").numNodes()).isEqualTo(2);

    // A pod change copies n1 again: same summaries, not computed again.
    cache.addPod(MakePod.pod().name("p1").uid("p1").node("n1").info());
    assertThat(cache.snapshot().get("n1").imageStates()).isSameAs(first);
    // Nor after a heartbeat of n2 that reports the same images.
    Node n2Again = MakeNode.node().name("n2").image(10, "img").label("v", "2").obj();
    cache.updateNode(n2, n2Again);
    cache.addPod(MakePod.pod().name("p2").uid("p2").node("n1").info());
    assertThat(cache.snapshot().get("n1").imageStates()).isSameAs(first);

    // Once some node's images change, the next copy of n1 counts again.
    cache.addNode(MakeNode.node().name("n3").image(10, "img").obj());
    cache.addPod(MakePod.pod().name("p3").uid("p3").node("n1").info());
    assertThat(cache.snapshot().get("n1").imageStates().get("img").numNodes()).isEqualTo(3);
    cache.updateNode(n2Again, MakeNode.node().name("n2").image(10, "other").obj());
    cache.addPod(MakePod.pod().name("p4").uid("p4").node("n1").info());
    Snapshot s = cache.snapshot();
    assertThat(s.get("n1").imageStates().get("img").numNodes()).isEqualTo(2);
    assertThat(s.get("n2").imageStates()).containsOnlyKeys("other");
    assertThat(new CacheDebugger(cache).checkConsistency()).isEmpty();
  }

  // ----------------------------------------------------------------------------------------------
  // counts, dumps

  @Test
  void countsAndListsReflectTheCache() {
    SchedulerCache cache = cache(TTL);
    PodInfo a = basePod("n", "a", "100m", "1", 0);
    PodInfo b = basePod("n", "b", "100m", "1", 0);
    cache.addNode(MakeNode.node().name("n").obj());
    cache.assumePod(a);
    cache.addPod(b);

    assertThat(cache.podCount()).isEqualTo(2);
    assertThat(cache.assumedPodCount()).isEqualTo(1);
    assertThat(cache.pods()).containsExactlyInAnyOrder(a, b);
    assertThat(new CacheDebugger(cache).assumedPods().keySet()).containsExactly(a);
    assertThat(cache.ttl()).isEqualTo(TTL);
  }
}
