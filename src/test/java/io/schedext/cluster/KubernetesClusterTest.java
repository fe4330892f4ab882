package io.schedext.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.ServiceBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.server.mock.KubernetesCrudDispatcher;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.fabric8.mockwebserver.Context;
import io.fabric8.mockwebserver.MockWebServer;
import io.schedext.cache.CacheDebugger;
import io.schedext.cache.EventGate;
import io.schedext.cache.SchedulerCache;
import io.schedext.framework.NodeInfo;
import io.schedext.framework.PodInfo;
import io.schedext.testing.MakeNode;
import io.schedext.testing.MakePod;
import io.schedext.testing.StallingProxy;
import java.time.Clock;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The Kubernetes source against fabric8's mock API server in CRUD mode: real lists and watches feed
 * the cache.
 */
class KubernetesClusterTest {

  private KubernetesMockServer server;
  private KubernetesClient client;
  private SchedulerCache cache;
  private ObjectStore store;
  private KubernetesCluster source;

  private CompactingApi api;

  /**
   * The CRUD API, plus what a real API server does after etcd compaction: a watch resuming from a
   * resourceVersion older than the compaction gets 410 Gone, and the informer must list again. The
   * mock keeps no event history, so without this a resumed watch would silently skip what happened
   * while it was down.
   */
  static final class CompactingApi extends KubernetesCrudDispatcher {
    private static final Pattern RV = Pattern.compile("resourceVersion=(\\d+)");
    private volatile long compactedBelow;

    CompactingApi() {
      super(List.of());
    }

    /** Forgets the event history: watches from any earlier resourceVersion now get 410 Gone. */
    void compact() {
      compactedBelow = requestResourceVersion();
    }

    @Override
    public io.fabric8.mockwebserver.http.MockResponse handleWatch(String path) {
      Matcher m = RV.matcher(path);
      if (m.find() && Long.parseLong(m.group(1)) < compactedBelow) {
        // As the API server does: accept the watch, then send one ERROR event with a 410 Status.
        return new io.fabric8.mockwebserver.http.MockResponse()
            .withWebSocketUpgrade(
                new io.fabric8.mockwebserver.http.WebSocketListener() {
                  @Override
                  public void onOpen(
                      io.fabric8.mockwebserver.http.WebSocket ws,
                      io.fabric8.mockwebserver.http.Response response) {
                    ws.send(
                        "{\"type\":\"ERROR\",\"object\":{\"kind\":\"Status\",\"apiVersion\":\"v1\","
                            + "\"status\":\"Failure\",\"message\":\"too old resource version\","
                            + "\"reason\":\"Expired\",\"code\":410}}");
                  }
                });
      }
      return super.handleWatch(path);
    }
  }

  @BeforeEach
  void start() {
    api = new CompactingApi();
    server =
        new KubernetesMockServer(new Context(), new MockWebServer(), new HashMap<>(), api, false);
    server.init(java.net.InetAddress.getLoopbackAddress(), 0);
    // Reconnect backoff starts at 100 ms (fabric8's default 1 s doubles to 32 s): a test that takes
    // the API server away and brings it back must not wait out a half-minute backoff that grew
    // while the server was down. Watch events are decoded as the service's own client decodes them
    // (KubernetesClients).
    client =
        server.createClient(
            b ->
                b.withKubernetesSerialization(new WatchEventSerialization())
                    .editOrNewConfig()
                    .withWatchReconnectInterval(100)
                    .endConfig());
    cache = new SchedulerCache(Clock.systemUTC(), Duration.ZERO);
    store = new ObjectStore();
  }

  @AfterEach
  void stop() {
    if (source != null) {
      source.close();
    }
    client.close();
    try {
      server.destroy();
    } catch (IllegalStateException e) {
      // The mock server waits 10 s for its connections to drain and then gives up ("Unable to close
      // MockWebServer"), seen once after a test that restarts it on the same port: the test had
      // passed, and the next one starts its own server on a new port, so this teardown must not
      // turn it into an error.
      System.err.println("mock API server did not stop cleanly: " + e.getMessage());
    }
  }

  private final io.schedext.testing.MutableClock clock =
      new io.schedext.testing.MutableClock(java.time.Instant.parse("2026-11-22T10:00:00Z"));

  /**
   * Starts the source and waits until it is ready and every informer's watch is open, not only
   * listed. The mock API server replays no history, so an object changed between an informer's list
   * and its watch would never reach the cache; and a test that takes the API server away must not
   * catch a watch in its opening request (the mock server, restarted on the same port, then answers
   * that informer's later watch requests with 400, and it never comes back).
   */
  private void startSource() {
    source =
        new KubernetesCluster(
            client, cache, store, clock, Duration.ofSeconds(30), Duration.ofSeconds(5));
    source.start();
    await().atMost(Duration.ofSeconds(20)).until(source::isReady);
    await().atMost(Duration.ofSeconds(20)).until(() -> source.watchesDown().isEmpty());
  }

  private static Node node(String name, String cpu) {
    return MakeNode.node()
        .name(name)
        .label("topology.kubernetes.io/zone", "z1")
        .capacity(Map.of("cpu", cpu, "memory", "8Gi", "pods", "110"))
        .obj();
  }

  private static Pod pod(String name, String node, String cpu) {
    Pod p = MakePod.pod().name(name).namespace("default").node(node).req(Map.of("cpu", cpu)).obj();
    p.getMetadata().setUid(null);
    p.getStatus().setPhase("Running");
    return p;
  }

  private Pod create(Pod p) {
    return client.pods().inNamespace("default").resource(p).create();
  }

  private long requestedMilliCpu(String node) {
    NodeInfo n = cache.snapshot().get(node);
    return n == null ? -1 : n.requested().milliCpu();
  }

  @Test
  void theSyncedActionRunsOnceEveryInformerHasListedWithTheCacheComplete() throws Exception {
    client.nodes().resource(node("n1", "4")).create();
    create(pod("p1", "n1", "1"));
    CompletableFuture<Integer> podsWhenSynced = new CompletableFuture<>();
    AtomicInteger runs = new AtomicInteger();
    source =
        new KubernetesCluster(
            client, cache, store, clock, Duration.ofSeconds(30), Duration.ofSeconds(5));
    source.whenSynced(
        () -> {
          runs.incrementAndGet();
          podsWhenSynced.complete(cache.podCount());
        });

    source.start();

    assertThat(podsWhenSynced.get(20, TimeUnit.SECONDS)).isEqualTo(1);
    assertThat(source.isReady()).isTrue();
    create(pod("p2", "n1", "1"));
    await().atMost(Duration.ofSeconds(20)).until(() -> cache.podCount() == 2);
    assertThat(runs.get()).isEqualTo(1);
  }

  @Test
  void watchEventsReadWithoutKeepingAreDecodedAndReadAsTheWatchWouldAndLeaveNothing() {
    client.nodes().resource(node("n1", "4")).create();
    create(pod("p1", "n1", "1"));
    startSource();
    long generation = cache.snapshot().generation();
    long events = source.events();
    Pod bound = pod("warm", "n1", "500m");
    bound.getMetadata().setUid("warm-uid");
    String json = client.getKubernetesSerialization().asJson(bound);

    assertThat(source.watches()).isTrue();
    source.readWatchEvents(
        List.of(
            "{\"type\":\"ADDED\",\"object\":" + json + "}",
            "{\"type\":\"DELETED\",\"object\":" + json + "}"),
        3);

    assertThat(cache.podCount()).isEqualTo(1);
    assertThat(cache.snapshot().generation()).isEqualTo(generation);
    assertThat(source.events()).isEqualTo(events);
    assertThat(source.pendingPods()).isEmpty();
    assertThat(source.findPod("default", "warm", "")).isNull();
    assertThat(requestedMilliCpu("n1")).isEqualTo(1000);

    // A bound pod is read as the cache reads one: one it would refuse fails here too.
    Pod unreadable = pod("bad", "n1", "lots");
    unreadable.getMetadata().setUid("bad-uid");
    String bad =
        "{\"type\":\"ADDED\",\"object\":"
            + client.getKubernetesSerialization().asJson(unreadable)
            + "}";
    assertThatThrownBy(() -> source.readWatchEvents(List.of(bad), 1))
        .isInstanceOf(IllegalArgumentException.class);
    assertThat(cache.podCount()).isEqualTo(1);
  }

  @Test
  void objectsPresentBeforeStartAreInTheCacheOnceReady() {
    client.nodes().resource(node("n1", "4")).create();
    create(pod("p1", "n1", "1"));
    create(pod("pending", null, "1"));
    client
        .services()
        .inNamespace("default")
        .resource(
            new ServiceBuilder()
                .withNewMetadata()
                .withName("svc")
                .endMetadata()
                .withNewSpec()
                .addToSelector("app", "x")
                .endSpec()
                .build())
        .create();
    startSource();
    assertThat(cache.snapshot().get("n1")).isNotNull();
    assertThat(requestedMilliCpu("n1")).isEqualTo(1000);
    assertThat(cache.podCount()).as("only assigned pods go to the cache").isEqualTo(1);
    assertThat(source.findPod("default", "pending", null)).isNotNull();
    assertThat(store.services("default"))
        .extracting(s -> s.getMetadata().getName())
        .containsExactly("svc");
    assertThat(source.compare()).isEmpty();
  }

  @Test
  void podEventsWaitForTheSchedulingCallsInFlight() {
    EventGate gate = new EventGate(Duration.ofMinutes(5));
    source =
        new KubernetesCluster(
            client,
            cache,
            store,
            clock,
            Duration.ofSeconds(30),
            Duration.ofSeconds(5),
            KubernetesCluster.DEFAULT_REQUEST_TIMEOUT,
            gate);
    source.start();
    await().atMost(Duration.ofSeconds(20)).until(source::isReady);
    client.nodes().resource(node("n1", "4")).create();
    await().until(() -> cache.snapshot().get("n1") != null);

    gate.requestStarted();
    create(pod("p1", "n1", "1"));
    await().until(() -> gate.waiting() == 1);
    assertThat(requestedMilliCpu("n1")).as("held back while a call is answered").isZero();

    gate.requestFinished();
    await().until(() -> requestedMilliCpu("n1") == 1000);
    assertThat(gate.delayedEvents()).isEqualTo(1);
  }

  @Test
  void createUpdateAndDeleteOfNodesAndPodsShowInTheSnapshot() {
    startSource();
    client.nodes().resource(node("n1", "4")).create();
    await().until(() -> cache.snapshot().get("n1") != null);
    Pod p1 = create(pod("p1", "n1", "1"));
    await().until(() -> requestedMilliCpu("n1") == 1000);
    Pod pending = create(pod("p2", null, "500m"));
    await().until(() -> source.findPod("default", "p2", pending.getMetadata().getUid()) != null);
    client
        .pods()
        .inNamespace("default")
        .resource(new PodBuilder(pending).editSpec().withNodeName("n1").endSpec().build())
        .update();
    await().until(() -> requestedMilliCpu("n1") == 1500);
    Node bigger = client.nodes().withName("n1").get();
    bigger
        .getStatus()
        .getAllocatable()
        .put("cpu", new io.fabric8.kubernetes.api.model.Quantity("8"));
    client.nodes().resource(bigger).updateStatus();
    await().until(() -> cache.snapshot().get("n1").allocatable().milliCpu() == 8000);
    client.pods().inNamespace("default").withName("p1").delete();
    await().until(() -> requestedMilliCpu("n1") == 500);
    assertThat(cache.getPod(p1.getMetadata().getUid())).isNull();
    client.nodes().withName("n1").delete();
    await().until(() -> cache.snapshot().get("n1") == null);
    assertThat(new CacheDebugger(cache).ghostNodes())
        .as("the node's remaining pod keeps a ghost entry")
        .containsExactly("n1");
  }

  @Test
  void aPendingPodNominatedToANodeIsKnownUntilItGoes() {
    client.nodes().resource(node("n1", "4")).create();
    startSource();
    assertThat(source.nominator().isEmpty()).isTrue();
    Pod nominated = pod("waiting", null, "1");
    nominated.getStatus().setPhase("Pending");
    nominated.getStatus().setNominatedNodeName("n1");
    Pod created = create(nominated);
    await().until(() -> !source.nominator().nominatedPodsForNode("n1").isEmpty());
    assertThat(source.nominator().isEmpty()).isFalse();
    assertThat(source.nominator().nominatedPodsForNode("n1"))
        .extracting(PodInfo::uid)
        .containsExactly(created.getMetadata().getUid());
    assertThat(source.nominator().nominatedPodsForNode("n2")).isEmpty();

    client.pods().inNamespace("default").withName("waiting").delete();
    await().until(() -> source.nominator().nominatedPodsForNode("n1").isEmpty());
    assertThat(source.nominator().isEmpty())
        .as("the node's entry goes with its last nominated pod")
        .isTrue();
  }

  @Test
  void aPodTurningTerminalFreesItsResources() {
    client.nodes().resource(node("n1", "4")).create();
    Pod p = create(pod("job", "n1", "2"));
    startSource();
    assertThat(requestedMilliCpu("n1")).isEqualTo(2000);
    client
        .pods()
        .inNamespace("default")
        .resource(new PodBuilder(p).editStatus().withPhase("Succeeded").endStatus().build())
        .updateStatus();
    await().until(() -> requestedMilliCpu("n1") == 0);
    assertThat(cache.podCount()).isZero();
  }

  @Test
  void aWatchThatIsClosedAndReopenedLeavesTheCacheEqualToTheApi() {
    client.nodes().resource(node("n1", "4")).create();
    client.nodes().resource(node("n2", "4")).create();
    create(pod("stays", "n1", "1"));
    create(pod("goes", "n1", "1"));
    startSource();
    // Take the API server away (every watch breaks). While it is away the objects change, through a
    // second server on another port over the same store that the informers do not know of. Then the
    // history is compacted and the server comes back on the same port: the changes can only reach
    // the cache through the informers' relist after 410 Gone. (Making them after the server is back
    // would race the relist: the mock replays no history to a watch opened after them.)
    int port = server.getPort();
    server.destroy();
    KubernetesMockServer elsewhere =
        new KubernetesMockServer(new Context(), new MockWebServer(), new HashMap<>(), api, false);
    elsewhere.init(java.net.InetAddress.getLoopbackAddress(), 0);
    try (KubernetesClient other = elsewhere.createClient()) {
      other.pods().inNamespace("default").withName("goes").delete();
      other.pods().inNamespace("default").resource(pod("new", "n2", "2")).create();
      other.nodes().resource(node("n3", "2")).create();
    } finally {
      elsewhere.destroy();
    }
    api.compact();
    server =
        new KubernetesMockServer(new Context(), new MockWebServer(), new HashMap<>(), api, false);
    server.init(java.net.InetAddress.getLoopbackAddress(), port);
    await()
        .atMost(Duration.ofSeconds(30))
        .until(() -> source.isReady() && source.compare().isEmpty());
    Map<String, Long> perNode =
        cache.pods().stream()
            .collect(Collectors.groupingBy(PodInfo::nodeName, Collectors.counting()));
    assertThat(perNode).containsExactlyInAnyOrderEntriesOf(Map.of("n1", 1L, "n2", 1L));
    assertThat(requestedMilliCpu("n1")).isEqualTo(1000);
    assertThat(requestedMilliCpu("n2")).isEqualTo(2000);
    assertThat(cache.snapshot().get("n3")).isNotNull();
  }

  @Test
  void aSourceThatLostItsWatchesForLongerThanTheGraceIsNotReadyUntilTheyAreBack() {
    client.nodes().resource(node("n1", "4")).create();
    startSource();
    int port = server.getPort();
    server.destroy();
    // The watches notice the loss; within the grace period the source still counts as ready.
    await().atMost(Duration.ofSeconds(20)).until(() -> source.watchesDown().contains("Node"));
    assertThat(source.isReady()).isTrue();
    clock.advance(Duration.ofSeconds(31));
    assertThat(source.isReady()).isFalse();
    assertThat(source.notReadyReason())
        .startsWith("watches down for longer than PT30S: [Node (since ");
    server =
        new KubernetesMockServer(new Context(), new MockWebServer(), new HashMap<>(), api, false);
    server.init(java.net.InetAddress.getLoopbackAddress(), port);
    await().atMost(Duration.ofSeconds(30)).until(source::isReady);
  }

  @Test
  void aStalledConnectionLeavesEveryWatchLookingUpButTurnsReadinessDownUntilItFlows() {
    client.nodes().resource(node("n1", "4")).create();
    try (StallingProxy proxy =
            new StallingProxy(
                new java.net.InetSocketAddress(
                    java.net.InetAddress.getLoopbackAddress(), server.getPort()));
        KubernetesClient stallable =
            server.createClient(
                b ->
                    b.withKubernetesSerialization(new WatchEventSerialization())
                        .editOrNewConfig()
                        .withMasterUrl(proxy.url())
                        .endConfig())) {
      source =
          new KubernetesCluster(
              stallable, cache, store, clock, Duration.ofSeconds(30), Duration.ofSeconds(5));
      source.start();
      await().atMost(Duration.ofSeconds(20)).until(source::isReady);
      await().atMost(Duration.ofSeconds(20)).until(() -> source.watchesDown().isEmpty());

      proxy.stall();
      try {
        // The probe's next request is held; the sampling every second finds it unanswered.
        await()
            .atMost(Duration.ofSeconds(20))
            .until(
                () -> {
                  clock.advance(Duration.ofSeconds(1));
                  return !source.isReady();
                });
        assertThat(source.watchesDown()).as("fabric8 still calls every watch up").isEmpty();
        assertThat(source.notReadyReason())
            .startsWith("API server not answering for longer than PT30S (since ");
        assertThat(source.informerErrors()).isEqualTo(1);
      } finally {
        proxy.resume();
      }
      await().atMost(Duration.ofSeconds(20)).until(source::isReady);
      source.close();
      source = null;
    }
  }

  @Test
  void aFailedLookupIsLoggedWithWhatWentWrongEvenWithoutAMessage() {
    assertThat(KubernetesCluster.why(new KubernetesClientException("Forbidden")))
        .isEqualTo("Forbidden");
    assertThat(
            KubernetesCluster.why(
                new KubernetesClientException(
                    null, new java.io.IOException("Connection was closed"))))
        .isEqualTo("IOException: Connection was closed");
    assertThat(
            KubernetesCluster.why(
                new KubernetesClientException(
                    null, new java.util.concurrent.CancellationException())))
        .isEqualTo("CancellationException");
    assertThat(
            KubernetesCluster.why(
                new KubernetesClientException(
                    "Operation: [get]  for kind: [Pod]  with name: [p]  in namespace: [ns] "
                        + " failed.",
                    new KubernetesClientException(
                        "request failed", new java.net.ConnectException("Connection refused")))))
        .isEqualTo(
            "Operation: [get]  for kind: [Pod]  with name: [p]  in namespace: [ns]  failed."
                + " (ConnectException: Connection refused)");
  }
}
