package io.schedext.cache;

import static io.schedext.cache.CacheFixtures.T0;
import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Node;
import io.schedext.cache.CacheFixtures.Content;
import io.schedext.framework.NodeInfo;
import io.schedext.framework.PodInfo;
import io.schedext.testing.MakeNode;
import io.schedext.testing.MakePod;
import io.schedext.testing.MutableClock;
import io.schedext.testing.NodeWrapper;
import io.schedext.testing.PodWrapper;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.function.Consumer;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Applies random event sequences to a cache, snapshotting at random points, and checks that the
 * incrementally maintained snapshot always equals the cache and, at the end, one built from scratch
 * by a fresh cache fed the same node events and the surviving pods.
 */
class SnapshotRandomizedTest {

  private static final int OPS = 400;
  private static final String[] NODE_NAMES = {"n0", "n1", "n2", "n3", "n4", "n5"};
  private static final String[][] ZONES = {{"", ""}, {"r1", "z1"}, {"r1", "z2"}, {"r2", "z1"}};

  /** A seed and its behaviour sentence. */
  record Seed(long value) {
    @Override
    public String toString() {
      return "random events (seed "
          + value
          + ") keep the incremental snapshot equal to one built from scratch";
    }
  }

  static Stream<Seed> seeds() {
    return IntStream.range(0, 25).mapToObj(i -> new Seed(7919L * i + 17));
  }

  /** What the test believes the cache holds. */
  private static final class Model {
    final Map<String, Node> nodes = new LinkedHashMap<>();
    final Map<String, PodInfo> added = new LinkedHashMap<>();
    final Map<String, PodInfo> assumed = new LinkedHashMap<>();
    final List<Consumer<SchedulerCache>> nodeEvents = new ArrayList<>();
    int nextPod;
    int nextVersion;
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("seeds")
  void incrementalSnapshotEqualsOneBuiltFromScratch(Seed seed) {
    Random rnd = new Random(seed.value());
    SchedulerCache cache = new SchedulerCache(new MutableClock(T0), Duration.ZERO);
    Model m = new Model();
    Snapshot previous = cache.snapshot();
    Map<String, Content> previousContents = contents(previous);

    for (int step = 0; step < OPS; step++) {
      step(rnd, cache, m);
      if (rnd.nextInt(5) == 0) {
        Snapshot s = cache.snapshot();
        SnapshotTest.assertMatchesCache(cache, s);
        assertThat(contents(previous))
            .as("an older snapshot stays as it was")
            .isEqualTo(previousContents);
        previous = s;
        previousContents = contents(s);
      }
    }

    Snapshot incremental = cache.snapshot();
    SnapshotTest.assertMatchesCache(cache, incremental);

    SchedulerCache fresh = new SchedulerCache(new MutableClock(T0), Duration.ZERO);
    m.nodeEvents.forEach(e -> e.accept(fresh));
    m.added.values().forEach(fresh::addPod);
    m.assumed.values().forEach(fresh::assumePod);
    Snapshot scratch = fresh.snapshot();

    assertThat(names(incremental.list())).isEqualTo(names(scratch.list()));
    assertThat(contents(incremental)).isEqualTo(contents(scratch));
    assertThat(names(incremental.havePodsWithAffinityList()))
        .isEqualTo(names(scratch.havePodsWithAffinityList()));
    assertThat(names(incremental.havePodsWithRequiredAntiAffinityList()))
        .isEqualTo(names(scratch.havePodsWithRequiredAntiAffinityList()));
    assertThat(incremental.usedPvcs()).isEqualTo(scratch.usedPvcs());
    assertThat(cache.podCount()).isEqualTo(m.added.size() + m.assumed.size());
    assertThat(cache.assumedPodCount()).isEqualTo(m.assumed.size());
  }

  private static void step(Random rnd, SchedulerCache cache, Model m) {
    switch (rnd.nextInt(10)) {
      case 0, 1 -> {
        Node n = randomNode(rnd, m);
        boolean known = m.nodes.containsKey(n.getMetadata().getName());
        Node old = m.nodes.get(n.getMetadata().getName());
        Consumer<SchedulerCache> e =
            known && rnd.nextBoolean() ? c -> c.updateNode(old, n) : c -> c.addNode(n);
        e.accept(cache);
        m.nodeEvents.add(e);
        m.nodes.put(n.getMetadata().getName(), n);
      }
      case 2 -> {
        if (!m.nodes.isEmpty()) {
          Node n = pick(rnd, new ArrayList<>(m.nodes.values()));
          Consumer<SchedulerCache> e = c -> c.removeNode(n);
          e.accept(cache);
          m.nodeEvents.add(e);
          m.nodes.remove(n.getMetadata().getName());
        }
      }
      case 3, 4 -> {
        PodInfo p = randomPod(rnd, m, "p" + m.nextPod++);
        cache.addPod(p);
        m.added.put(p.uid(), p);
      }
      case 5 -> {
        PodInfo p = randomPod(rnd, m, "p" + m.nextPod++);
        cache.assumePod(p);
        if (rnd.nextBoolean()) {
          cache.finishBinding(p);
        }
        m.assumed.put(p.uid(), p);
      }
      case 6 -> {
        if (!m.assumed.isEmpty()) {
          PodInfo p = pick(rnd, new ArrayList<>(m.assumed.values()));
          m.assumed.remove(p.uid());
          if (rnd.nextBoolean()) {
            cache.forgetPod(p);
          } else {
            // the watch confirms it, sometimes on another node than assumed
            PodInfo confirmed = rnd.nextInt(4) == 0 ? randomPod(rnd, m, p.uid()) : p;
            cache.addPod(confirmed);
            m.added.put(confirmed.uid(), confirmed);
          }
        }
      }
      case 7, 8 -> {
        if (!m.added.isEmpty()) {
          PodInfo old = pick(rnd, new ArrayList<>(m.added.values()));
          PodInfo updated = randomPodOn(rnd, m, old.uid(), old.nodeName());
          cache.updatePod(old, updated);
          m.added.put(updated.uid(), updated);
        }
      }
      default -> {
        if (!m.added.isEmpty()) {
          PodInfo p = pick(rnd, new ArrayList<>(m.added.values()));
          cache.removePod(p);
          m.added.remove(p.uid());
        }
      }
    }
  }

  private static Node randomNode(Random rnd, Model m) {
    String[] zone = ZONES[rnd.nextInt(ZONES.length)];
    NodeWrapper w =
        MakeNode.node()
            .name(pick(rnd, List.of(NODE_NAMES)))
            .capacity(
                Map.of(
                    "cpu",
                    (1 + rnd.nextInt(8)) + "",
                    "memory",
                    (1 + rnd.nextInt(16)) + "Gi",
                    "pods",
                    "110"))
            .resourceVersion("v" + m.nextVersion++);
    if (!zone[0].isEmpty()) {
      w.label(NodeTree.REGION, zone[0]).label(NodeTree.ZONE, zone[1]);
    }
    if (rnd.nextBoolean()) {
      w.image(100 + rnd.nextInt(3), "img-" + rnd.nextInt(3));
    }
    return w.obj();
  }

  private static PodInfo randomPod(Random rnd, Model m, String uid) {
    // mostly nodes that exist, sometimes one that does not (yet), which makes a ghost entry
    String node =
        !m.nodes.isEmpty() && rnd.nextInt(5) != 0
            ? pick(rnd, new ArrayList<>(m.nodes.keySet()))
            : pick(rnd, List.of(NODE_NAMES));
    return randomPodOn(rnd, m, uid, node);
  }

  private static PodInfo randomPodOn(Random rnd, Model m, String uid, String node) {
    PodWrapper w =
        MakePod.pod()
            .name(uid)
            .uid(uid)
            .node(node)
            .label("app", pick(rnd, List.of("web", "db")))
            .annotation("version", "" + m.nextVersion++);
    switch (rnd.nextInt(3)) {
      case 0 ->
          w.req(
              Map.of(
                  "cpu",
                  (100 * (1 + rnd.nextInt(5))) + "m",
                  "memory",
                  (1 + rnd.nextInt(4)) + "Gi"));
      case 1 -> w.req(Map.of("cpu", "0"));
      default -> w.req(Map.of());
    }
    if (rnd.nextInt(3) == 0) {
      // Unique per pod: used ports are a set (as upstream's HostPortInfo), so two pods sharing one
      // port on a node would release it for both when either leaves; the scheduler's NodePorts
      // filter never lets that happen.
      w.hostPort(
          pick(rnd, List.of("TCP", "UDP", "")),
          pick(rnd, List.of("", "127.0.0.1")),
          10000 + m.nextVersion++);
    }
    if (rnd.nextInt(3) == 0) {
      w.pvc("claim-" + rnd.nextInt(3));
    }
    switch (rnd.nextInt(6)) {
      case 0 -> w.podAffinityIn("zone", "app", "web");
      case 1 -> w.podAntiAffinityIn("zone", "app", "db");
      case 2 -> w.preferredPodAffinityIn(5, "zone", "app", "web");
      default -> {
        // no affinity
      }
    }
    return w.info();
  }

  private static <T> T pick(Random rnd, List<T> from) {
    return from.get(rnd.nextInt(from.size()));
  }

  private static Map<String, Content> contents(Snapshot s) {
    Map<String, Content> out = new LinkedHashMap<>();
    s.list().forEach(n -> out.put(n.name(), Content.of(n)));
    return out;
  }

  private static List<String> names(List<NodeInfo> l) {
    return l.stream().map(NodeInfo::name).toList();
  }
}
