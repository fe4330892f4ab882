package io.schedext.warmup;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;
import static org.mockito.ArgumentMatchers.any;
import static org.mockito.ArgumentMatchers.anyInt;
import static org.mockito.ArgumentMatchers.anyList;
import static org.mockito.ArgumentMatchers.eq;
import static org.mockito.Mockito.doReturn;
import static org.mockito.Mockito.mock;
import static org.mockito.Mockito.spy;
import static org.mockito.Mockito.times;
import static org.mockito.Mockito.verify;
import static org.mockito.Mockito.when;

import com.fasterxml.jackson.databind.JsonNode;
import com.sun.net.httpserver.HttpServer;
import io.fabric8.kubernetes.api.model.Pod;
import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.schedext.cache.SchedulerCache;
import io.schedext.cluster.ClusterSource;
import io.schedext.cluster.ObjectStore;
import io.schedext.extender.ExtenderMetrics;
import io.schedext.extender.SeenPods;
import io.schedext.extender.SeparateVerbs;
import io.schedext.extender.SeparateVerbsFixture;
import io.schedext.extender.WireCodec;
import io.schedext.extender.wire.ExtenderArgs;
import io.schedext.extender.wire.ReplyBuffer;
import io.schedext.framework.FrameworkException;
import io.schedext.framework.NodeInfo;
import io.schedext.framework.PodInfo;
import io.schedext.framework.runtime.Framework;
import io.schedext.framework.runtime.FrameworkServices;
import io.schedext.framework.runtime.Frameworks;
import io.schedext.profiles.InTreeRegistry;
import io.schedext.profiles.ProfileDefaults;
import io.schedext.testing.FixedSource;
import io.schedext.testing.MakeNode;
import io.schedext.testing.MakePod;
import io.schedext.testing.TestFrameworks;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.function.IntUnaryOperator;
import java.util.function.Supplier;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The warm-up before readiness runs the real filter and prioritize path over the live cache's nodes
 * and keeps what it changes to itself.
 */
class WarmUpTest {

  private final SchedulerCache cache = new SchedulerCache(Clock.systemUTC(), Duration.ZERO);
  private final ObjectStore store = new ObjectStore();
  private final WireCodec codec = new WireCodec(1 << 20);
  private final SimpleMeterRegistry privateRegistry = new SimpleMeterRegistry();
  private final ExtenderMetrics privateMetrics = new ExtenderMetrics(privateRegistry);

  /** The default profile over services whose metrics are {@link #privateMetrics}. */
  private Frameworks privateFrameworks() {
    return privateFrameworks(ProfileDefaults.NAME);
  }

  /**
   * A profile of the default plugins per name, the first the default one, over services whose
   * metrics are {@link #privateMetrics}.
   */
  private Frameworks privateFrameworks(String... names) {
    FrameworkServices base = TestFrameworks.services(store);
    FrameworkServices services =
        new FrameworkServices(
            base.clusterObjects(),
            WarmUp.NO_BINDS,
            base.parallelizer(),
            base.nominator(),
            base.clock(),
            base.timers(),
            base.waitingPods(),
            privateMetrics);
    var registry = InTreeRegistry.create();
    Map<String, Framework> byName = new LinkedHashMap<>();
    for (String name : names) {
      Framework fw =
          Framework.create(ProfileDefaults.profile(name, registry.names()), registry, services);
      // Every cycle times its plugins, so the private registry shows the plugins ran.
      fw.setPluginMetricsSamplePercent(100);
      byName.put(name, fw);
    }
    return new Frameworks(byName, names[0]);
  }

  private void nodes(int n) {
    for (int i = 0; i < n; i++) {
      cache.addNode(
          MakeNode.node()
              .name("node-" + i)
              .capacity(Map.of("cpu", "4", "memory", "8Gi", "pods", "110"))
              .obj());
    }
  }

  private WarmUp warmUp(int pairs, Supplier<Frameworks> frameworks) {
    return warmUp(pairs, 0, frameworks);
  }

  private WarmUp warmUp(int pairs, int smallPairs, Supplier<Frameworks> frameworks) {
    return warmUp(pairs, smallPairs, frameworks, FixedSource.ready());
  }

  private WarmUp warmUp(
      int pairs, int smallPairs, Supplier<Frameworks> frameworks, ClusterSource source) {
    return new WarmUp(
        pairs,
        smallPairs,
        source,
        cache,
        SeparateVerbsFixture.inProcess(codec),
        frameworks,
        privateMetrics,
        System::nanoTime,
        Compilers.NO_WAIT,
        () -> {});
  }

  private long timed(String name, String tag, String value) {
    return privateRegistry.find(name).tag(tag, value).timers().stream()
        .mapToLong(Timer::count)
        .sum();
  }

  @Test
  void runsEveryPairThroughTheFrameworkOverTheLiveNodesAndLeavesTheCacheAlone() {
    nodes(3);
    long generation = cache.snapshot().generation();
    WarmUp w = warmUp(5, this::privateFrameworks);
    assertThat(w.finished()).isFalse();

    w.run();

    assertThat(w.finished()).isTrue();
    assertThat(w.done()).isEqualTo(5);
    assertThat(timed("scheduler.framework.extension.point.duration", "extension_point", "Filter"))
        .as("one Filter run per filter call")
        .isEqualTo(5);
    assertThat(timed("scheduler.framework.extension.point.duration", "extension_point", "Score"))
        .as("one Score run per prioritize call")
        .isEqualTo(5);
    assertThat(timed("scheduler.plugin.execution.duration", "plugin", "NodeResourcesFit"))
        .as("the resource plugin filtered and scored the nodes")
        .isGreaterThanOrEqualTo(5 * 3 * 2);
    assertThat(
            privateRegistry.find("extender.request.nodes").summaries().stream()
                .mapToDouble(DistributionSummary::totalAmount)
                .sum())
        .as("every call was given every node, by name")
        .isEqualTo(5 * 3 * 2);
    assertThat(cache.podCount()).isZero();
    assertThat(cache.snapshot().generation()).isEqualTo(generation);
  }

  @Test
  void itsFilterCallsFindTheirPodsGoneAsANewPodsFirstCallDoes() {
    nodes(3);
    WarmUp w = warmUp(4 * WarmUp.PODS, this::privateFrameworks);

    w.run();

    // The pods taken in turn outnumber those kept, so each filter call meets its pod anew (the
    // branch the live filter path takes for every pod's first call) and its prioritize finds it.
    assertThat(WarmUp.KEPT_PODS).isLessThan(WarmUp.PODS);
    assertThat(w.verbs().seenPods().size()).isEqualTo(WarmUp.KEPT_PODS);
  }

  @Test
  void everyInstanceAnswersWithNewFrameworksServicesAndPods() {
    nodes(3);
    List<Frameworks> made = new ArrayList<>();
    WarmUp w =
        warmUp(
            WarmUp.PAIRS_PER_INSTANCE + 2 * WarmUp.PODS,
            () -> {
              Frameworks f = privateFrameworks();
              made.add(f);
              return f;
            });
    SeparateVerbs first = w.verbs();

    w.run();

    assertThat(made).hasSize(2);
    assertThat(w.frameworks()).isSameAs(made.get(1));
    assertThat(w.verbs()).isNotSameAs(first);
    // The second instance remembers pods of its own, none of the first's.
    SeenPods seen = w.verbs().seenPods();
    assertThat(IntStream.range(0, WarmUp.PODS).mapToObj(i -> seen.get(WarmUpPods.uid(i))))
        .containsOnlyNulls();
    assertThat(
            IntStream.range(WarmUp.PODS, 2 * WarmUp.PODS)
                .mapToObj(i -> seen.get(WarmUpPods.uid(i)))
                .filter(Objects::nonNull))
        .hasSize(WarmUp.KEPT_PODS);
  }

  @Test
  void eachInstanceTakesOtherPodsOfTheCluster() {
    nodes(40);
    for (int i = 0; i < 40; i++) {
      cache.addPod(
          PodInfo.of(
              MakePod.pod()
                  .name("p" + i)
                  .namespace("ns" + (i % 8))
                  .uid("uid-p" + i)
                  .label("app", "a" + i)
                  .node("node-" + i)
                  .obj()));
    }
    List<Pod> gen0 = WarmUpPods.pendingLike(cache.snapshot(), codec, WarmUp.PODS, 0);
    List<Pod> gen1 = WarmUpPods.pendingLike(cache.snapshot(), codec, WarmUp.PODS, 1);
    assertThat(gen0).hasSize(WarmUp.PODS);
    assertThat(gen1).hasSize(WarmUp.PODS);
    assertThat(gen1.stream().map(p -> p.getMetadata().getLabels().get("app")))
        .doesNotContainAnyElementsOf(
            gen0.stream().map(p -> p.getMetadata().getLabels().get("app")).toList());
    assertThat(gen1.stream().map(p -> p.getMetadata().getUid()))
        .containsExactlyElementsOf(
            IntStream.range(WarmUp.PODS, 2 * WarmUp.PODS).mapToObj(WarmUpPods::uid).toList());
  }

  @Test
  void everyOtherPairIsGivenAsManyNodesAsKubeSchedulerSendsByDefault() {
    nodes(1000);
    WarmUp w = warmUp(4, this::privateFrameworks);

    w.run();

    List<DistributionSummary> nodesPerCall =
        List.copyOf(privateRegistry.find("extender.request.nodes").summaries());
    assertThat(nodesPerCall.stream().mapToLong(DistributionSummary::count).sum())
        .as("a filter and a prioritize call per pair")
        .isEqualTo(8);
    assertThat(nodesPerCall.stream().mapToDouble(DistributionSummary::totalAmount).sum())
        .as("two pairs over all 1,000 nodes, two over the 420 kube-scheduler looks for")
        .isEqualTo(2 * 2 * 1000 + 2 * 2 * 420);
    assertThat(nodesPerCall.stream().mapToDouble(DistributionSummary::max).max().orElseThrow())
        .isEqualTo(1000);
  }

  record Large(int configured, int nodes, int run) {}

  @Test
  void aboveFiveThousandNodesFewerLargePairsNameAsManyNodesInAll() {
    for (Large c :
        List.of(
            new Large(400, 1, 400),
            new Large(400, 5000, 400),
            new Large(400, 5001, 399),
            new Large(400, 10_000, 200),
            new Large(400, 50_000, 40),
            new Large(400, 500_000, 2 * WarmUp.PODS),
            new Large(3, 5000, 3),
            new Large(0, 5000, 0))) {
      assertThat(WarmUp.largePairs(c.configured(), c.nodes())).as(c.toString()).isEqualTo(c.run());
    }
  }

  @Test
  void onlyTheLargePairsRunWatchEvents() {
    nodes(10_000);
    ClusterSource source = spy(FixedSource.ready());
    doReturn(true).when(source).watches();
    WarmUp w = warmUp(20, 3, this::privateFrameworks, source);
    w.run();
    assertThat(w.done()).isEqualTo(13);
    // 10 of the 20 large pairs run at 10,000 nodes, each with its pod's events and once those of
    // other kinds; the small ones with none.
    verify(source, times(10)).readWatchEvents(anyList(), eq(WarmUp.EVENTS_PER_PAIR));
    verify(source, times(10)).readWatchEvents(anyList(), eq(1));
    verify(source, times(20)).readWatchEvents(anyList(), anyInt());
  }

  @Test
  void theWarmUpsCallsAreNoDecisionsToLog() {
    nodes(3);
    ch.qos.logback.classic.Logger decisions =
        (ch.qos.logback.classic.Logger)
            org.slf4j.LoggerFactory.getLogger("io.schedext.extender.decisions");
    ch.qos.logback.core.read.ListAppender<ch.qos.logback.classic.spi.ILoggingEvent> lines =
        new ch.qos.logback.core.read.ListAppender<>();
    ch.qos.logback.classic.Level previous = decisions.getLevel();
    decisions.setLevel(ch.qos.logback.classic.Level.DEBUG);
    lines.start();
    decisions.addAppender(lines);
    try {
      WarmUp w = warmUp(4, 2, this::privateFrameworks, FixedSource.ready());
      w.run();
      assertThat(w.done()).isEqualTo(6);
    } finally {
      decisions.detachAppender(lines);
      decisions.setLevel(previous);
    }
    assertThat(lines.list).isEmpty();
  }

  @Test
  void theWarmUpRunsAndReportsTheLargePairsItsClusterGets() {
    nodes(10_000);
    WarmUp w = warmUp(20, 2, this::privateFrameworks);
    assertThat(w.pairs()).isEqualTo(22);
    w.run();
    assertThat(w.done()).isEqualTo(12);
    assertThat(w.pairs()).isEqualTo(12);
  }

  record Feasible(int nodes, int toFind) {}

  @Test
  void kubeSchedulersDefaultShareOfNodesToFind() {
    for (Feasible c :
        List.of(
            new Feasible(0, 0),
            new Feasible(50, 50),
            new Feasible(99, 99),
            // 50% of 100, 49% of 200: raised to the minimum of 100.
            new Feasible(100, 100),
            new Feasible(200, 100),
            new Feasible(1000, 420),
            new Feasible(2500, 750),
            new Feasible(5000, 500),
            // Below 5%: 5%.
            new Feasible(6000, 300),
            new Feasible(20000, 1000))) {
      assertThat(KubeSchedulerCalls.feasibleToFind(c.nodes())).as("%s", c).isEqualTo(c.toFind());
    }
  }

  record Chunk(int nodes, int size) {}

  @Test
  void kubeSchedulersChunkOfNodesPerGoroutine() {
    for (Chunk c :
        List.of(
            new Chunk(0, 1),
            new Chunk(1, 1),
            // The square root (2) is more than a sixteenth plus one (1).
            new Chunk(4, 1),
            new Chunk(16, 2),
            new Chunk(1000, 31),
            new Chunk(5000, 70))) {
      assertThat(KubeSchedulerCalls.chunkSize(c.nodes())).as("%s", c).isEqualTo(c.size());
    }
  }

  @Test
  void theSampledNamesAreAMovingWindowOfTheNodeOrderWovenFromTwoChunksAtATime() {
    List<String> all = IntStream.range(0, 1000).mapToObj(i -> "n" + i).toList();

    List<String> first = KubeSchedulerCalls.sampled(all, 0);
    List<String> second = KubeSchedulerCalls.sampled(all, 1);
    List<String> third = KubeSchedulerCalls.sampled(all, 2);

    assertThat(first).hasSize(420).doesNotHaveDuplicates();
    assertThat(first).containsExactlyInAnyOrderElementsOf(all.subList(0, 420));
    // Chunks of 31: the first from n0, the second from n31, one name of each in turn.
    assertThat(first.subList(0, 4)).containsExactly("n0", "n31", "n1", "n32");
    assertThat(first.get(61)).isEqualTo("n61");
    assertThat(first.get(62)).isEqualTo("n62");
    assertThat(second).containsExactlyInAnyOrderElementsOf(all.subList(420, 840));
    assertThat(third)
        .as("the window wraps around the node order")
        .containsExactlyInAnyOrderElementsOf(
            Stream.concat(all.subList(840, 1000).stream(), all.subList(0, 260).stream()).toList());
    assertThat(KubeSchedulerCalls.sampled(all.subList(0, 3), 5))
        .as("a small cluster: every node, as kube-scheduler sends")
        .containsExactlyInAnyOrder("n0", "n1", "n2");
  }

  @Test
  void theSyntheticPodsTakeEveryShapeOfRequests() {
    assertThat(
            IntStream.range(0, WarmUp.PODS)
                .mapToObj(i -> WarmUpPods.pod(i).getSpec().getContainers().get(0))
                .map(c -> c.getResources().getRequests().keySet()))
        .containsExactly(Set.of("cpu", "memory"), Set.of("cpu"), Set.of("cpu", "memory"), Set.of());
    assertThat(WarmUpPods.pod(3).getStatus().getQosClass()).isEqualTo("BestEffort");
    assertThat(WarmUpPods.pod(1).getStatus().getQosClass()).isEqualTo("Burstable");
  }

  @Test
  void theSyntheticPodsCarryWhatTheApiServerGivesPods() {
    for (int i = 0; i < WarmUp.PODS; i++) {
      Pod pod = WarmUpPods.pod(i);
      assertThat(pod.getMetadata().getManagedFields())
          .singleElement()
          .satisfies(
              m -> {
                assertThat(m.getOperation()).isEqualTo("Update");
                assertThat(m.getFieldsV1().getAdditionalProperties()).containsKey("f:spec");
              });
      assertThat(pod.getSpec().getServiceAccount()).isEqualTo("default");
      assertThat(pod.getSpec().getSecurityContext()).isNotNull();
      assertThat(pod.getSpec().getVolumes())
          .as("the token volume on every other pod")
          .hasSize(i % 2 == 0 ? 1 : 0);
      assertThat(pod.getMetadata().getLabels() == null)
          .as("labels on all but one in four")
          .isEqualTo(i % 4 == 3);
    }
    assertThat(WarmUpPods.pod(0).getSpec().getVolumes().get(0).getProjected().getSources())
        .hasSize(3);
  }

  @Test
  void theSyntheticPodsFitAnOrdinaryNodeAndTakeTurns() {
    nodes(1);
    PodInfo first = PodInfo.of(WarmUpPods.pod(0));
    assertThat(first.uid()).isNotEqualTo(PodInfo.of(WarmUpPods.pod(1)).uid());
    SeparateVerbs verbs =
        SeparateVerbsFixture.inProcess(codec)
            .create(privateFrameworks(), privateMetrics, 10, System::nanoTime);
    ReplyBuffer reply = codec.borrowBuffer();
    verbs
        .pair(verbs.frameworks().defaultFramework(), cache::snapshot)
        .filter(codec.encode(new ExtenderArgs(WarmUpPods.pod(0), null, List.of("node-0"))), reply);
    JsonNode r = codec.readTree(reply.toByteArray(), false);
    codec.release(reply);
    assertThat(r.get("NodeNames")).extracting(JsonNode::asText).containsExactly("node-0");
    assertThat(r.get("Error").asText()).isEmpty();
  }

  @Test
  void itsPodsAreCopiesOfTheClustersOwnMadePendingOnePerShape() {
    nodes(3);
    Pod web =
        MakePod.pod()
            .name("web-1")
            .namespace("shop")
            .uid("uid-web-1")
            .label("app", "web")
            .owner("ReplicaSet", "web-5d9")
            .req(Map.of("cpu", "250m"))
            .node("node-0")
            .obj();
    web.getStatus().setPhase("Running");
    cache.addPod(PodInfo.of(web));
    // The same shape again (namespace and labels): not a second warm-up pod.
    cache.addPod(
        PodInfo.of(
            MakePod.pod()
                .name("web-2")
                .namespace("shop")
                .uid("uid-web-2")
                .label("app", "web")
                .node("node-1")
                .obj()));
    cache.addPod(
        PodInfo.of(
            MakePod.pod()
                .name("db-0")
                .namespace("shop")
                .uid("uid-db-0")
                .label("app", "db")
                .node("node-2")
                .obj()));
    WarmUp w = warmUp(2, this::privateFrameworks);

    List<Pod> pods = WarmUpPods.pendingLike(cache.snapshot(), codec, WarmUp.PODS, 0);

    assertThat(pods)
        .extracting(p -> p.getMetadata().getLabels().get("app"))
        .containsExactlyInAnyOrder("web", "db");
    Pod copy =
        pods.stream()
            .filter(p -> "web".equals(p.getMetadata().getLabels().get("app")))
            .findFirst()
            .orElseThrow();
    assertThat(copy.getMetadata().getName()).startsWith("extender-warm-up-");
    assertThat(copy.getMetadata().getUid()).isNotEqualTo("uid-web-1");
    assertThat(copy.getMetadata().getNamespace()).isEqualTo("shop");
    assertThat(copy.getMetadata().getOwnerReferences())
        .isEqualTo(web.getMetadata().getOwnerReferences());
    assertThat(copy.getSpec().getNodeName()).isNull();
    assertThat(copy.getSpec().getContainers()).isEqualTo(web.getSpec().getContainers());
    assertThat(copy.getStatus().getPhase()).isEqualTo("Pending");
    assertThat(web.getSpec().getNodeName())
        .as("the cluster's pod is untouched")
        .isEqualTo("node-0");
    assertThat(web.getMetadata().getName()).isEqualTo("web-1");

    w.run();
    assertThat(w.done()).isEqualTo(2);
    assertThat(cache.podCount()).isEqualTo(3);
  }

  @Test
  void daemonSetAndStaticPodsAreNotTakenAsModels() {
    nodes(2);
    cache.addPod(
        PodInfo.of(
            MakePod.pod()
                .name("kube-proxy-abc")
                .namespace("kube-system")
                .uid("uid-proxy")
                .label("k8s-app", "kube-proxy")
                .owner("DaemonSet", "kube-proxy")
                .node("node-0")
                .obj()));
    Pod mirror =
        MakePod.pod()
            .name("etcd-node-1")
            .namespace("kube-system")
            .uid("uid-etcd")
            .label("component", "etcd")
            .node("node-1")
            .obj();
    mirror.getMetadata().setAnnotations(Map.of(WarmUpPods.MIRROR_ANNOTATION, "hash"));
    cache.addPod(PodInfo.of(mirror));

    assertThat(WarmUpPods.pendingLike(cache.snapshot(), codec, WarmUp.PODS, 0))
        .as("none is typical: the synthetic pods")
        .hasSize(WarmUp.PODS)
        .allSatisfy(p -> assertThat(p.getMetadata().getNamespace()).isEqualTo("default"));
  }

  @Test
  void aClusterWithoutPodsGetsSyntheticOnes() {
    nodes(2);
    assertThat(WarmUpPods.pendingLike(cache.snapshot(), codec, WarmUp.PODS, 0))
        .hasSize(WarmUp.PODS)
        .allSatisfy(p -> assertThat(p.getMetadata().getName()).startsWith("extender-warm-up-"));
  }

  /**
   * Compilers whose CPU time grows by {@code perWindow} ms per quiet window for {@code busyWindows}
   * windows and then stops. The clock moves a second at every reading until the warm-up first asks
   * the compilers (so the calls take some seconds), then only by waiting; the readiness reason seen
   * while waiting is recorded.
   */
  private static final class FakeCompilers {
    long now;
    boolean asked;
    long askedAt;
    long compiled;
    int windows;
    final List<String> seen = new ArrayList<>();
    WarmUp warmUp;

    long firstRead = -1;

    long nanoTime() {
      if (!asked) {
        now += TimeUnit.SECONDS.toNanos(1);
      }
      if (firstRead < 0) {
        firstRead = now;
      }
      return now;
    }

    Compilers compilers(int busyWindows, long perWindow, long maxWaitMillis) {
      return new Compilers(
          () -> {
            if (!asked) {
              asked = true;
              askedAt = now;
            }
            return compiled;
          },
          TimeUnit.MILLISECONDS.toNanos(maxWaitMillis),
          nanos -> {
            seen.add(warmUp.progress());
            now += nanos;
            if (windows++ < busyWindows) {
              compiled += perWindow;
            }
          });
    }

    /** How long the warm-up waited for the compilers, in ms. */
    long waitedMillis() {
      return TimeUnit.NANOSECONDS.toMillis(now - askedAt);
    }
  }

  private WarmUp warmUp(int pairs, FakeCompilers fake, Compilers compilers) {
    fake.warmUp =
        new WarmUp(
            pairs,
            0,
            FixedSource.ready(),
            cache,
            SeparateVerbsFixture.inProcess(codec),
            this::privateFrameworks,
            privateMetrics,
            fake::nanoTime,
            compilers,
            () -> {});
    return fake.warmUp;
  }

  @Test
  void theStartsGarbageIsCollectedOnceAfterTheCallsAndNotWithoutThem() {
    List<String> steps = Collections.synchronizedList(new ArrayList<>());
    WarmUp empty = collecting(steps);
    empty.run();
    assertThat(steps).as("no node, no calls: nothing to collect either").isEmpty();

    nodes(3);
    WarmUp w = collecting(steps);
    w.run();

    assertThat(steps).containsExactly("collected after 2 pairs, finished=false");
    assertThat(w.finished()).isTrue();
  }

  /** A warm-up of two pairs whose collection notes how many pairs ran before it. */
  private WarmUp collecting(List<String> steps) {
    WarmUp[] self = new WarmUp[1];
    self[0] =
        new WarmUp(
            2,
            0,
            FixedSource.ready(),
            cache,
            SeparateVerbsFixture.inProcess(codec),
            this::privateFrameworks,
            privateMetrics,
            System::nanoTime,
            Compilers.NO_WAIT,
            () ->
                steps.add(
                    "collected after "
                        + self[0].done()
                        + " pairs, finished="
                        + self[0].finished()));
    return self[0];
  }

  @Test
  void afterTheCallsReadinessWaitsUntilTheCompilersGoQuiet() {
    nodes(2);
    FakeCompilers fake = new FakeCompilers();
    WarmUp w = warmUp(2, fake, fake.compilers(3, 200, 5_000));

    w.run();

    assertThat(w.finished()).isTrue();
    assertThat(fake.windows).as("three busy windows, then one quiet one").isEqualTo(4);
    assertThat(fake.seen)
        .hasSize(4)
        .allSatisfy(
            reason ->
                assertThat(reason)
                    .isEqualTo(
                        "warming up the request path: the compilers are still compiling what 2"
                            + " filter and prioritize pairs ran"));
    assertThat(w.progress()).isNull();
  }

  @Test
  void aLittleCompilingCountsAsQuiet() {
    nodes(2);
    FakeCompilers fake = new FakeCompilers();
    WarmUp w = warmUp(1, fake, fake.compilers(100, WarmUp.QUIET_MILLIS - 1, 5_000));
    w.run();
    assertThat(fake.windows).isEqualTo(1);
  }

  @Test
  void compilersThatStayBusyAreWaitedForAtMostTheLimit() {
    nodes(2);
    FakeCompilers fake = new FakeCompilers();
    WarmUp w = warmUp(1, fake, fake.compilers(1_000, 200, 1_000));
    w.run();
    assertThat(w.finished()).isTrue();
    assertThat(fake.waitedMillis()).isEqualTo(1_000);
    assertThat(fake.windows).isEqualTo(4);
  }

  @Test
  void compilersAreWaitedForNoLongerThanTheCallsTook() {
    nodes(2);
    FakeCompilers fake = new FakeCompilers();
    // Calls of a few seconds on the fake clock; a limit far above them.
    WarmUp w = warmUp(1, fake, fake.compilers(1_000_000, 200, 3_600_000));
    w.run();
    long callsMillis = TimeUnit.NANOSECONDS.toMillis(fake.askedAt - fake.firstRead);
    assertThat(callsMillis).isPositive();
    assertThat(fake.waitedMillis())
        .isGreaterThanOrEqualTo(callsMillis)
        .isLessThan(callsMillis + TimeUnit.NANOSECONDS.toMillis(WarmUp.QUIET_WINDOW_NANOS));
  }

  @Test
  void noWaitWhenTheLimitIsZeroOrTheJvmKeepsNoCompilationTime() {
    nodes(2);
    FakeCompilers zero = new FakeCompilers();
    warmUp(1, zero, zero.compilers(10, 200, 0)).run();
    assertThat(zero.windows).isZero();
    FakeCompilers untimed = new FakeCompilers();
    warmUp(
            1,
            untimed,
            new Compilers(() -> -1, TimeUnit.SECONDS.toNanos(5), nanos -> untimed.windows++))
        .run();
    assertThat(untimed.windows).isZero();
  }

  @Test
  void aPlacedPodChangesACopyOfItsNodeAndNeverTheLiveOne() {
    nodes(3);
    var snapshot = cache.snapshot();
    NodeInfo live = snapshot.get("node-1");
    PodInfo pod = PodInfo.of(WarmUpPods.pod(0));
    List<NodeInfo> placed = new ArrayList<>();

    WarmUp.place(pod, live, placed);
    WarmUp.place(pod, snapshot.get("node-2"), placed);
    WarmUp.place(pod, snapshot.get("node-0"), placed);

    assertThat(placed)
        .as("the last two, oldest first")
        .extracting(NodeInfo::name)
        .containsExactly("node-2", "node-0");
    assertThat(placed.get(1).pods())
        .extracting(p -> p.pod().getSpec().getNodeName())
        .containsExactly("node-0");
    assertThat(placed.get(1).generation()).isNotEqualTo(snapshot.get("node-0").generation());
    assertThat(live.pods()).isEmpty();
    assertThat(snapshot.get("node-0").pods()).isEmpty();

    WarmUp.place(pod, placed.get(0), placed);
    assertThat(placed)
        .as("the same node again: its newer copy, once")
        .extracting(NodeInfo::name)
        .containsExactly("node-0", "node-2");
    assertThat(placed.get(1).pods()).hasSize(2);
  }

  @Test
  void aSampledCallSeesThePlacedCopiesOfTheNodesStillThere() {
    nodes(3);
    var snapshot = cache.snapshot();
    List<NodeInfo> placed = new ArrayList<>();
    WarmUp.place(PodInfo.of(WarmUpPods.pod(0)), snapshot.get("node-1"), placed);

    var seen = WarmUp.withPlaced(snapshot, placed);

    assertThat(seen.get("node-1")).isSameAs(placed.get(0));
    assertThat(seen.get("node-0")).isSameAs(snapshot.get("node-0"));
    assertThat(seen.sameNodeOrder(snapshot)).isTrue();
    cache.removeNode(MakeNode.node().name("node-1").obj());
    assertThat(WarmUp.withPlaced(cache.snapshot(), placed).get("node-1"))
        .as("a node the cache no longer has is not brought back")
        .isNull();
  }

  @Test
  void noPairsIsFinishedFromTheStart() {
    WarmUp w = warmUp(0, this::privateFrameworks);
    assertThat(w.finished()).isTrue();
    w.start();
    assertThat(w.done()).isZero();
  }

  @Test
  void aClusterWithoutNodesHasNothingToWarmUpOn() {
    WarmUp w = warmUp(3, this::privateFrameworks);
    w.run();
    assertThat(w.finished()).isTrue();
    assertThat(w.done()).isZero();
    assertThat(privateRegistry.getMeters()).isEmpty();
  }

  @Test
  void aFailingCallEndsTheWarmUpSoReadinessNoLongerWaitsForIt() {
    nodes(2);
    Framework broken = mock(Framework.class);
    when(broken.profileName()).thenReturn("broken");
    when(broken.newCycleState(any())).thenThrow(new IllegalStateException("plugin state lost"));
    WarmUp w = warmUp(4, () -> new Frameworks(Map.of("broken", broken), "broken"));
    w.run();
    assertThat(w.finished()).isTrue();
    assertThat(w.done()).isZero();
  }

  @Test
  void closedBeforeItRunsItMakesNoCall() {
    nodes(2);
    WarmUp w = warmUp(4, this::privateFrameworks);
    w.close();
    w.run();
    assertThat(w.finished()).isTrue();
    assertThat(w.done()).isZero();
  }

  @Test
  void theFrameworksOfTheWarmUpCannotBind() {
    assertThatThrownBy(() -> WarmUp.NO_BINDS.bind(PodInfo.of(WarmUpPods.pod(0)), "node-0"))
        .isInstanceOf(FrameworkException.class)
        .hasMessageContaining("bind no pod");
  }

  @Test
  void theSmallPairsComeLastAndNameEightNodesEach() {
    nodes(1000);
    WarmUp w = warmUp(2, 3, this::privateFrameworks);
    assertThat(w.pairs()).isEqualTo(5);
    assertThat(w.progress()).endsWith("0 of 5 filter and prioritize pairs");

    w.run();

    assertThat(w.done()).isEqualTo(5);
    List<DistributionSummary> nodesPerCall =
        List.copyOf(privateRegistry.find("extender.request.nodes").summaries());
    assertThat(nodesPerCall.stream().mapToLong(DistributionSummary::count).sum()).isEqualTo(10);
    assertThat(nodesPerCall.stream().mapToDouble(DistributionSummary::totalAmount).sum())
        .as("a pair over all 1,000 nodes, one over 420, three over 8")
        .isEqualTo(2 * 1000 + 2 * 420 + 3 * 2 * WarmUp.SMALL_PAIR_NODES);
  }

  @Test
  void aSmallPairNamesTheFirstNodesOfKubeSchedulersCall() {
    List<String> all = IntStream.range(0, 1000).mapToObj(i -> "node-" + i).toList();
    assertThat(WarmUp.small(KubeSchedulerCalls.sampled(all, 3)))
        .containsExactlyElementsOf(KubeSchedulerCalls.sampled(all, 3).subList(0, 8));
    assertThat(WarmUp.small(List.of("a", "b"))).containsExactly("a", "b");
  }

  /** A loopback HTTP server answering every request with {@code status}, recording them. */
  private record FakeServer(HttpServer server, List<String> paths, List<byte[]> bodies)
      implements AutoCloseable {

    static FakeServer answering(IntUnaryOperator statusOfRequest) throws IOException {
      HttpServer server =
          HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 8);
      List<String> paths = new CopyOnWriteArrayList<>();
      List<byte[]> bodies = new CopyOnWriteArrayList<>();
      server.createContext(
          "/",
          ex -> {
            bodies.add(ex.getRequestBody().readAllBytes());
            paths.add(ex.getRequestURI().getRawPath());
            byte[] reply = "{}".getBytes(StandardCharsets.UTF_8);
            ex.sendResponseHeaders(statusOfRequest.applyAsInt(paths.size()), reply.length);
            try (OutputStream out = ex.getResponseBody()) {
              out.write(reply);
            }
          });
      server.start();
      return new FakeServer(server, paths, bodies);
    }

    InetSocketAddress address() {
      return server.getAddress();
    }

    @Override
    public void close() {
      server.stop(0);
    }
  }

  @Test
  void startedWithTheServersAddressEveryPairIsPostedUnderItsOwnPrefix() throws IOException {
    nodes(3);
    WarmUp w = warmUp(2, 1, this::privateFrameworks);
    try (FakeServer fake = FakeServer.answering(n -> 200)) {
      w.start(fake.address(), "/ctx");
      await().atMost(Duration.ofSeconds(30)).until(w::finished);

      String base = "/ctx" + w.pathPrefix() + "/scheduler/";
      assertThat(fake.paths())
          .containsExactly(
              base + "filter",
              base + "prioritize",
              base + "filter",
              base + "prioritize",
              base + "filter",
              base + "prioritize");
      for (byte[] body : fake.bodies()) {
        ExtenderArgs args = codec.decode(new ByteArrayInputStream(body), ExtenderArgs.class);
        assertThat(args.nodeNames()).hasSize(3);
        assertThat(args.pod().getSpec().getNodeName()).isNull();
      }
    }
    assertThat(w.done()).isEqualTo(3);
    assertThat(w.pairsOverHttp()).isEqualTo(3);
    assertThat(timed("scheduler.framework.extension.point.duration", "extension_point", "Filter"))
        .as("no call ran in process")
        .isZero();
    assertThat(w.pathPrefix()).matches("/warm-up/[0-9a-f]{32}");
    assertThat(warmUp(1, this::privateFrameworks).pathPrefix()).isNotEqualTo(w.pathPrefix());
  }

  @Test
  void aNamedProfilesPairsArePostedToItsPath() throws IOException {
    nodes(2);
    // The profile changes every 2 * PODS pairs.
    WarmUp w =
        warmUp(2 * WarmUp.PODS + 1, () -> privateFrameworks(ProfileDefaults.NAME, "batch jobs"));
    try (FakeServer fake = FakeServer.answering(n -> 200)) {
      w.start(fake.address(), "");
      await().atMost(Duration.ofSeconds(30)).until(w::finished);
      assertThat(fake.paths().get(0)).isEqualTo(w.pathPrefix() + "/scheduler/filter");
      assertThat(fake.paths().get(fake.paths().size() - 1))
          .isEqualTo(w.pathPrefix() + "/profiles/batch%20jobs/prioritize");
    }
  }

  @Test
  void aCallOverHttpThatFailsLeavesTheRestToBeMadeInProcess() throws IOException {
    nodes(3);
    WarmUp w = warmUp(3, this::privateFrameworks);
    // The first filter is answered, its prioritize is not.
    try (FakeServer fake = FakeServer.answering(n -> n == 1 ? 200 : 500)) {
      w.start(fake.address(), "");
      await().atMost(Duration.ofSeconds(30)).until(w::finished);
      assertThat(fake.paths()).hasSize(2);
    }
    assertThat(w.done()).isEqualTo(3);
    assertThat(w.pairsOverHttp()).isZero();
    assertThat(timed("scheduler.framework.extension.point.duration", "extension_point", "Score"))
        .as("every pair's prioritize ran in process, the failed one's too")
        .isEqualTo(3);
  }

  @Test
  void nobodyListeningLeavesEveryPairToBeMadeInProcess() throws IOException {
    nodes(2);
    InetSocketAddress closed;
    try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      closed = new InetSocketAddress(s.getInetAddress(), s.getLocalPort());
    }
    WarmUp w = warmUp(2, this::privateFrameworks);
    w.start(closed, "");
    await().atMost(Duration.ofSeconds(30)).until(w::finished);
    assertThat(w.done()).isEqualTo(2);
    assertThat(w.pairsOverHttp()).isZero();
    assertThat(timed("scheduler.framework.extension.point.duration", "extension_point", "Filter"))
        .isEqualTo(2);
  }

  @Test
  void startedTwiceItRunsOnce() {
    nodes(2);
    WarmUp w = warmUp(2, this::privateFrameworks);
    w.start();
    w.start();
    await().atMost(Duration.ofSeconds(30)).until(w::finished);
    assertThat(timed("scheduler.framework.extension.point.duration", "extension_point", "Filter"))
        .isEqualTo(2);
  }

  @Test
  void negativePairsAreRefused() {
    assertThatThrownBy(() -> warmUp(-1, this::privateFrameworks))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("-1");
    assertThatThrownBy(() -> warmUp(1, -2, this::privateFrameworks))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("-2");
  }
}
