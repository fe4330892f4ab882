package io.schedext.cache;

import static io.schedext.cache.CacheFixtures.T0;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.schedext.cache.CacheFixtures.Content;
import io.schedext.framework.NodeInfo;
import io.schedext.framework.NodeInfoList;
import io.schedext.framework.PodInfo;
import io.schedext.testing.MakeNode;
import io.schedext.testing.MakePod;
import io.schedext.testing.MutableClock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Incremental snapshots of {@link SchedulerCache}, as upstream's TestSchedulerCache_UpdateSnapshot
 * and friends.
 */
class SnapshotTest {

  private static final List<Node> NODES = new ArrayList<>();
  private static final List<Node> UPDATED_NODES = new ArrayList<>();
  private static final List<PodInfo> PODS = new ArrayList<>();
  private static final List<PodInfo> UPDATED_PODS = new ArrayList<>();
  private static final List<PodInfo> AFFINITY_PODS = new ArrayList<>();
  private static final List<PodInfo> PVC_PODS = new ArrayList<>();

  static {
    for (int i = 0; i < 10; i++) {
      NODES.add(
          MakeNode.node()
              .name("test-node" + i)
              .capacity(Map.of("cpu", "1000m", "memory", "100m"))
              .obj());
      UPDATED_NODES.add(
          MakeNode.node()
              .name("test-node" + i)
              .capacity(Map.of("cpu", "2000m", "memory", "500m"))
              .obj());
    }
    for (int i = 0; i < 20; i++) {
      PodInfo p =
          MakePod.pod()
              .name("test-pod" + i)
              .namespace("test-ns")
              .uid("test-puid" + i)
              .node("test-node" + (i % 10))
              .info();
      PODS.add(p);
      UPDATED_PODS.add(
          PodInfo.of(new PodBuilder(p.pod()).editSpec().withPriority(1000).endSpec().build()));
    }
    for (int i = 0; i < 2; i++) {
      AFFINITY_PODS.add(
          MakePod.pod()
              .name("p-affinity-" + i)
              .namespace("test-ns")
              .uid("puid-affinity-" + i)
              .podAffinityExists("", "foo")
              .node("test-node" + i)
              .info());
    }
    for (int i = 0; i < 8; i++) {
      PVC_PODS.add(
          MakePod.pod()
              .name("p-pvc-" + i)
              .namespace("test-ns")
              .uid("puid-pvc-" + i)
              .pvc("test-pvc" + (i % 4))
              .node("test-node" + (i % 2))
              .info());
    }
  }

  /** The state a case operates on. */
  static final class Ctx {
    final SchedulerCache cache = new SchedulerCache(new MutableClock(T0), Duration.ZERO);
    Snapshot snapshot = Snapshot.empty();
  }

  /** One named operation, so case names read as the sequence of events. */
  record Op(String name, Consumer<Ctx> run) {
    @Override
    public String toString() {
      return name;
    }
  }

  static Op addNode(int i) {
    return new Op("addNode(" + i + ")", c -> c.cache.addNode(NODES.get(i)));
  }

  static Op removeNode(int i) {
    return new Op("removeNode(" + i + ")", c -> c.cache.removeNode(NODES.get(i)));
  }

  static Op updateNode(int i) {
    return new Op(
        "updateNode(" + i + ")", c -> c.cache.updateNode(NODES.get(i), UPDATED_NODES.get(i)));
  }

  static Op addPod(int i) {
    return new Op("addPod(" + i + ")", c -> c.cache.addPod(PODS.get(i)));
  }

  static Op assumePod(int i) {
    return new Op("assumePod(" + i + ")", c -> c.cache.assumePod(PODS.get(i)));
  }

  static Op forgetPod(int i) {
    return new Op("forgetPod(" + i + ")", c -> c.cache.forgetPod(PODS.get(i)));
  }

  static Op updatePod(int i) {
    return new Op("updatePod(" + i + ")", c -> c.cache.updatePod(PODS.get(i), UPDATED_PODS.get(i)));
  }

  static Op removePod(int i) {
    return new Op("removePod(" + i + ")", c -> c.cache.removePod(PODS.get(i)));
  }

  static Op addAffinityPod(int i) {
    return new Op("addAffinityPod(" + i + ")", c -> c.cache.addPod(AFFINITY_PODS.get(i)));
  }

  static Op removeAffinityPod(int i) {
    return new Op("removeAffinityPod(" + i + ")", c -> c.cache.removePod(AFFINITY_PODS.get(i)));
  }

  static Op addPvcPod(int i) {
    return new Op("addPvcPod(" + i + ")", c -> c.cache.addPod(PVC_PODS.get(i)));
  }

  static Op removePvcPod(int i) {
    return new Op("removePvcPod(" + i + ")", c -> c.cache.removePod(PVC_PODS.get(i)));
  }

  static Op snap() {
    return new Op(
        "snapshot",
        c -> {
          Snapshot previous = c.snapshot;
          c.snapshot = c.cache.snapshot();
          assertMatchesCache(c.cache, c.snapshot);
          // A snapshot that says it keeps its predecessor's node order has the same names at the
          // same positions (the request decoder's name index relies on it).
          if (c.snapshot.sameNodeOrder(previous)) {
            assertThat(c.snapshot.list().stream().map(NodeInfo::name).toList())
                .isEqualTo(previous.list().stream().map(NodeInfo::name).toList());
          }
          assertThat(c.snapshot.sameNodeOrder(c.snapshot)).isTrue();
          assertThat(c.snapshot.sameNodeOrder(null)).isFalse();
          // The node order's generations (carried from the previous snapshot when it had them) are
          // the node infos' own.
          long[] generations = ((NodeInfoList) c.snapshot.list()).generations();
          for (int i = 0; i < generations.length; i++) {
            assertThat(generations[i]).isEqualTo(c.snapshot.list().get(i).generation());
          }
          assertThat(c.snapshot.get("no-such-node")).isNull();
          assertThat(c.snapshot.get(null)).isNull();
        });
  }

  record Case(
      String name, List<Op> ops, List<String> recency, int withAffinity, Set<String> usedPvcs) {
    @Override
    public String toString() {
      return name + ": " + ops;
    }
  }

  private static List<String> names(int... idx) {
    List<String> out = new ArrayList<>();
    for (int i : idx) {
      out.add("test-node" + i);
    }
    return out;
  }

  static Stream<Case> cases() {
    return Stream.of(
        new Case("an empty cache", List.of(), names(), 0, Set.of()),
        new Case("a single node", List.of(addNode(1)), names(1), 0, Set.of()),
        new Case(
            "a node added, removed and added again",
            List.of(addNode(1), snap(), removeNode(1), addNode(1)),
            names(1),
            0,
            Set.of()),
        new Case(
            "a node removed in the cycle another is added",
            List.of(addNode(1), snap(), addNode(2), removeNode(1)),
            names(2),
            0,
            Set.of()),
        new Case(
            "nodes added with snapshots in between",
            List.of(addNode(0), snap(), addNode(1), snap(), addNode(2), snap(), addNode(3)),
            names(3, 2, 1, 0),
            0,
            Set.of()),
        new Case(
            "nodes added with a snapshot at the end",
            List.of(addNode(0), addNode(2), addNode(5), addNode(6)),
            names(6, 5, 2, 0),
            0,
            Set.of()),
        new Case(
            "an updated node moves to the head",
            List.of(addNode(0), addNode(1), addNode(5), snap(), updateNode(1)),
            names(1, 5, 0),
            0,
            Set.of()),
        new Case(
            "every node removed",
            List.of(
                addNode(0),
                addNode(2),
                addNode(5),
                addNode(6),
                snap(),
                removeNode(0),
                removeNode(2),
                removeNode(5),
                removeNode(6)),
            names(),
            0,
            Set.of()),
        new Case(
            "some nodes removed",
            List.of(
                addNode(0),
                addNode(2),
                addNode(5),
                addNode(6),
                snap(),
                removeNode(0),
                removeNode(6)),
            names(5, 2),
            0,
            Set.of()),
        new Case(
            "every node removed and new ones added",
            List.of(
                addNode(2),
                addNode(5),
                addNode(6),
                snap(),
                removeNode(2),
                removeNode(5),
                removeNode(6),
                snap(),
                addNode(7),
                addNode(9)),
            names(9, 7),
            0,
            Set.of()),
        new Case(
            "updates of unknown nodes add them in order",
            List.of(addNode(8), updateNode(2), updateNode(8), snap(), addNode(1)),
            names(1, 8, 2),
            0,
            Set.of()),
        new Case(
            "pods added to some nodes move them to the head",
            List.of(addNode(0), addNode(2), addNode(8), snap(), addPod(8), addPod(2)),
            names(2, 8, 0),
            0,
            Set.of()),
        new Case(
            "updating a pod moves its node to the head",
            List.of(addNode(0), addPod(0), addNode(2), addNode(4), updatePod(0)),
            names(0, 4, 2),
            0,
            Set.of()),
        new Case(
            "a pod added before its node",
            List.of(addNode(0), addPod(1), updatePod(1), addNode(1)),
            names(1, 0),
            0,
            Set.of()),
        new Case(
            "a node removed before its pods",
            List.of(
                addNode(0),
                addNode(1),
                addPod(1),
                addPod(11),
                snap(),
                removeNode(1),
                snap(),
                updatePod(1),
                updatePod(11),
                removePod(1),
                removePod(11)),
            names(0),
            0,
            Set.of()),
        new Case(
            "a pod with affinity",
            List.of(addNode(0), addAffinityPod(0), snap(), addNode(1)),
            names(1, 0),
            1,
            Set.of()),
        new Case(
            "a pod with a pvc",
            List.of(addNode(0), addPvcPod(0), snap(), addNode(1)),
            names(1, 0),
            0,
            Set.of("test-ns/test-pvc0")),
        new Case(
            "pods with affinity on two nodes",
            List.of(addNode(0), addAffinityPod(0), snap(), addNode(1), addAffinityPod(1), snap()),
            names(1, 0),
            2,
            Set.of()),
        new Case(
            "pods with pvcs on two nodes",
            List.of(addNode(0), addPvcPod(0), snap(), addNode(1), addPvcPod(1), snap()),
            names(1, 0),
            0,
            Set.of("test-ns/test-pvc0", "test-ns/test-pvc1")),
        new Case(
            "a pod with affinity added then removed",
            List.of(
                addNode(0), addNode(1), addAffinityPod(0), snap(), removeAffinityPod(0), snap()),
            names(0, 1),
            0,
            Set.of()),
        new Case(
            "a pod with a pvc removed and another added",
            List.of(addNode(0), addPvcPod(0), snap(), removePvcPod(0), addPvcPod(2), snap()),
            names(0),
            0,
            Set.of("test-ns/test-pvc2")),
        new Case(
            "a pod with a pvc removed and added again",
            List.of(addNode(0), addPvcPod(0), snap(), removePvcPod(0), addPvcPod(0), snap()),
            names(0),
            0,
            Set.of("test-ns/test-pvc0")),
        new Case(
            "pvc pods replaced by as many other pvc pods",
            List.of(
                addNode(0),
                addNode(1),
                addPvcPod(0),
                addPvcPod(1),
                snap(),
                removePvcPod(0),
                removePvcPod(1),
                addPvcPod(2),
                addPvcPod(3),
                snap()),
            names(1, 0),
            0,
            Set.of("test-ns/test-pvc2", "test-ns/test-pvc3")),
        new Case(
            "pvc pods added and removed over several snapshots",
            List.of(
                addNode(0),
                addNode(1),
                addPvcPod(0),
                addPvcPod(1),
                addPvcPod(2),
                snap(),
                removePvcPod(0),
                removePvcPod(1),
                snap(),
                addPvcPod(0),
                snap(),
                addPvcPod(3),
                addPvcPod(4),
                addPvcPod(5),
                snap(),
                removePvcPod(0),
                removePvcPod(3),
                removePvcPod(4),
                snap()),
            names(0, 1),
            0,
            Set.of("test-ns/test-pvc1", "test-ns/test-pvc2")),
        new Case(
            "assumed and forgotten pods",
            List.of(
                addNode(0),
                addNode(2),
                addNode(4),
                addNode(8),
                snap(),
                assumePod(8),
                assumePod(0),
                forgetPod(0),
                snap()),
            names(0, 8, 4, 2),
            0,
            Set.of()));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void snapshotFollowsTheCache(Case c) {
    Ctx ctx = new Ctx();
    c.ops().forEach(op -> op.run().accept(ctx));

    assertThat(new CacheDebugger(ctx.cache).recencyOrder()).isEqualTo(c.recency());
    Snapshot s = ctx.cache.snapshot();
    assertMatchesCache(ctx.cache, s);
    assertThat(s.havePodsWithAffinityList()).hasSize(c.withAffinity());
    assertThat(s.usedPvcs()).isEqualTo(c.usedPvcs());
  }

  /**
   * The snapshot holds every node with a Node object, in NodeTree order, each equal to the cache's
   * entry at the same generation; its affinity lists and used PVCs are derived from exactly those
   * entries.
   */
  static void assertMatchesCache(SchedulerCache cache, Snapshot s) {
    assertThat(s.size()).isEqualTo(cache.nodeCount());
    List<String> order = new ArrayList<>();
    s.list().forEach(n -> order.add(n.name()));
    assertThat(order).isEqualTo(new CacheDebugger(cache).nodeTreeOrder());
    Set<String> pvcs = new HashSet<>();
    List<NodeInfo> withAffinity = new ArrayList<>();
    List<NodeInfo> withAnti = new ArrayList<>();
    for (NodeInfo n : s.list()) {
      NodeInfo live = new CacheDebugger(cache).nodeInfo(n.name());
      assertThat(Content.of(n)).isEqualTo(Content.of(live));
      assertThat(n.generation()).isEqualTo(live.generation());
      assertThat(s.get(n.name())).isSameAs(n);
      pvcs.addAll(n.pvcRefCounts().keySet());
      if (!n.podsWithAffinity().isEmpty()) {
        withAffinity.add(n);
      }
      if (!n.podsWithRequiredAntiAffinity().isEmpty()) {
        withAnti.add(n);
      }
    }
    assertThat(s.havePodsWithAffinityList()).containsExactlyElementsOf(withAffinity);
    assertThat(s.havePodsWithRequiredAntiAffinityList()).containsExactlyElementsOf(withAnti);
    assertThat(s.usedPvcs()).isEqualTo(pvcs);
    for (String ghost : new CacheDebugger(cache).ghostNodes()) {
      assertThat(s.get(ghost)).isNull();
    }
  }

  // ------------------------------------------------------------------------------------------------ node order

  private static final List<Node> ZONED = new ArrayList<>();

  static {
    int i = 0;
    int[] perZone = {2, 6};
    for (int zone = 0; zone < perZone.length; zone++) {
      for (int j = 0; j < perZone[zone]; j++) {
        ZONED.add(
            MakeNode.node()
                .name("node-" + i)
                .label(NodeTree.REGION, "region-" + zone)
                .label(NodeTree.ZONE, "zone-" + zone)
                .obj());
        i++;
      }
    }
  }

  /**
   * A node-order case: a sequence of node indexes to add, -1 meaning "take a snapshot here".
   *
   * @param name the behaviour
   * @param steps node indexes to add, or -1 for a snapshot
   * @param want the node order of the final snapshot
   */
  record OrderCase(String name, List<Integer> steps, List<String> want) {
    @Override
    public String toString() {
      return name;
    }
  }

  static Stream<OrderCase> orderCases() {
    return Stream.of(
        new OrderCase("an empty cache lists no node", List.of(), List.of()),
        new OrderCase("a single node", List.of(0), List.of("node-0")),
        new OrderCase(
            "two nodes of one zone keep insertion order",
            List.of(0, -1, 1),
            List.of("node-0", "node-1")),
        new OrderCase(
            "nodes added after a snapshot in another zone are interleaved (upstream bug 91601)",
            List.of(2, 3, -1, 4, 0),
            List.of("node-2", "node-0", "node-3", "node-4")),
        new OrderCase(
            "six nodes, one in another zone added after a snapshot",
            List.of(2, 3, 4, 5, -1, 6, 0),
            List.of("node-2", "node-0", "node-3", "node-4", "node-5", "node-6")),
        new OrderCase(
            "seven nodes, two in another zone, several snapshots",
            List.of(2, -1, 3, 4, -1, 5, 6, 0, 1),
            List.of("node-2", "node-0", "node-3", "node-1", "node-4", "node-5", "node-6")),
        new OrderCase(
            "seven nodes, two in another zone, another zone order",
            List.of(2, 1, -1, 3, 4, -1, 5, 6, 0),
            List.of("node-2", "node-1", "node-3", "node-0", "node-4", "node-5", "node-6")));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("orderCases")
  void snapshotListsNodesInNodeTreeOrder(OrderCase c) {
    SchedulerCache cache = new SchedulerCache(new MutableClock(T0), Duration.ZERO);
    for (int step : c.steps()) {
      if (step < 0) {
        assertMatchesCache(cache, cache.snapshot());
      } else {
        cache.addNode(ZONED.get(step));
      }
    }
    Snapshot s = cache.snapshot();
    assertMatchesCache(cache, s);
    assertThat(s.list().stream().map(NodeInfo::name).toList()).isEqualTo(c.want());
  }

  @Test
  void aZoneChangeMovesTheNodeToTheEndOfItsNewZone() {
    SchedulerCache cache = new SchedulerCache(new MutableClock(T0), Duration.ZERO);
    ZONED.subList(0, 4).forEach(cache::addNode);
    assertThat(names(cache.snapshot())).containsExactly("node-0", "node-2", "node-1", "node-3");

    cache.updateNode(
        ZONED.get(0),
        MakeNode.node()
            .name("node-0")
            .label(NodeTree.REGION, "region-1")
            .label(NodeTree.ZONE, "zone-1")
            .obj());

    Snapshot s = cache.snapshot();
    assertMatchesCache(cache, s);
    assertThat(names(s)).containsExactly("node-1", "node-2", "node-3", "node-0");
  }

  private static List<String> names(Snapshot s) {
    return s.list().stream().map(NodeInfo::name).toList();
  }

  // ----------------------------------------------------------------------------------------
  // identity, immutability

  @Test
  void unchangedNodesKeepTheirIdentityAndChangedOnesAreNewCopies() {
    SchedulerCache cache = new SchedulerCache(new MutableClock(T0), Duration.ZERO);
    List.of(0, 1, 2).forEach(i -> cache.addNode(NODES.get(i)));
    Snapshot s1 = cache.snapshot();
    assertThat(cache.snapshot()).as("nothing changed: the same snapshot").isSameAs(s1);

    cache.addPod(PODS.get(1));
    Snapshot s2 = cache.snapshot();

    assertThat(s2).isNotSameAs(s1);
    assertThat(s2.get("test-node0")).isSameAs(s1.get("test-node0"));
    assertThat(s2.get("test-node2")).isSameAs(s1.get("test-node2"));
    assertThat(s2.get("test-node1")).isNotSameAs(s1.get("test-node1"));
    assertThat(s2.get("test-node1").pods()).containsExactly(PODS.get(1));
    assertThat(s1.get("test-node1").pods()).isEmpty();
    assertThat(s2.generation()).isGreaterThan(s1.generation());

    cache.updateNode(NODES.get(2), UPDATED_NODES.get(2));
    Snapshot s3 = cache.snapshot();
    assertThat(s3.get("test-node0")).isSameAs(s1.get("test-node0"));
    assertThat(s3.get("test-node1")).isSameAs(s2.get("test-node1"));
    assertThat(s3.get("test-node2")).isNotSameAs(s2.get("test-node2"));
    assertThat(s3.get("test-node2").allocatable().milliCpu()).isEqualTo(2000);
  }

  @Test
  void aSnapshotNeverChangesAfterLaterCacheMutations() {
    SchedulerCache cache = new SchedulerCache(new MutableClock(T0), Duration.ZERO);
    List.of(0, 1, 2, 3).forEach(i -> cache.addNode(NODES.get(i)));
    cache.addPod(PODS.get(0));
    cache.addPod(AFFINITY_PODS.get(1));
    cache.addPod(PVC_PODS.get(0));
    Snapshot s = cache.snapshot();
    Map<String, Content> before = contents(s);
    List<NodeInfo> listBefore = List.copyOf(s.list());
    List<NodeInfo> affinityBefore = List.copyOf(s.havePodsWithAffinityList());
    Set<String> pvcsBefore = Set.copyOf(s.usedPvcs());

    cache.addPod(PODS.get(10));
    cache.assumePod(PODS.get(2));
    cache.removePod(AFFINITY_PODS.get(1));
    cache.removePod(PVC_PODS.get(0));
    cache.updateNode(NODES.get(0), UPDATED_NODES.get(0));
    cache.removeNode(NODES.get(3));
    cache.addNode(NODES.get(5));
    cache.snapshot();

    assertThat(contents(s)).isEqualTo(before);
    assertThat(s.list()).containsExactlyElementsOf(listBefore);
    assertThat(s.havePodsWithAffinityList()).containsExactlyElementsOf(affinityBefore);
    assertThat(s.usedPvcs()).isEqualTo(pvcsBefore);
    assertThatThrownBy(() -> s.list().clear()).isInstanceOf(UnsupportedOperationException.class);
  }

  private static Map<String, Content> contents(Snapshot s) {
    Map<String, Content> out = new LinkedHashMap<>();
    s.list().forEach(n -> out.put(n.name(), Content.of(n)));
    return out;
  }

  @Test
  void affinityListsFollowPodsWithAffinityAndRequiredAntiAffinity() {
    SchedulerCache cache = new SchedulerCache(new MutableClock(T0), Duration.ZERO);
    List.of(0, 1, 2).forEach(i -> cache.addNode(NODES.get(i)));
    PodInfo anti =
        MakePod.pod()
            .name("anti")
            .uid("anti")
            .node("test-node2")
            .podAntiAffinityExists("zone", "app")
            .info();
    PodInfo preferredAnti =
        MakePod.pod()
            .name("pref")
            .uid("pref")
            .node("test-node1")
            .preferredPodAntiAffinityIn(10, "zone", "app", "web")
            .info();
    cache.addPod(anti);
    cache.addPod(preferredAnti);
    cache.addPod(AFFINITY_PODS.get(0));

    Snapshot s = cache.snapshot();
    assertThat(names(s.havePodsWithAffinityList()))
        .containsExactly("test-node0", "test-node1", "test-node2");
    assertThat(names(s.havePodsWithRequiredAntiAffinityList())).containsExactly("test-node2");

    cache.removePod(anti);
    cache.removePod(AFFINITY_PODS.get(0));
    s = cache.snapshot();
    assertThat(names(s.havePodsWithAffinityList())).containsExactly("test-node1");
    assertThat(s.havePodsWithRequiredAntiAffinityList()).isEmpty();
  }

  private static List<String> names(List<NodeInfo> l) {
    return l.stream().map(NodeInfo::name).toList();
  }

  // -------------------------------------------------------------------------------------------
  // static factories

  @Test
  void ofKeepsTheGivenOrderAndTheHighestGeneration() {
    NodeInfo b = MakeNode.node().name("b").info();
    NodeInfo a = MakeNode.node().name("a").info(PODS.get(0));
    Snapshot s = Snapshot.of(List.of(b, a));
    assertThat(s.list()).containsExactly(b, a);
    assertThat(s.get("a")).isSameAs(a);
    assertThat(s.get("zzz")).isNull();
    assertThat(s.generation()).isEqualTo(Math.max(a.generation(), b.generation()));
    assertThat(Snapshot.empty().size()).isZero();
  }

  @Test
  void withOverridesReplacesNodesInPlaceAndAppendsUnknownOnes() {
    NodeInfo a = MakeNode.node().name("a").info();
    NodeInfo b = MakeNode.node().name("b").info();
    Snapshot s = Snapshot.of(List.of(a, b));
    NodeInfo b2 = MakeNode.node().name("b").info(AFFINITY_PODS.get(0));
    NodeInfo c = MakeNode.node().name("c").info();

    Snapshot o = s.withOverrides(List.of(c, b2));

    assertThat(o.list()).containsExactly(a, b2, c);
    assertThat(o.get("b")).isSameAs(b2);
    assertThat(o.get("c")).isSameAs(c);
    assertThat(o.havePodsWithAffinityList()).containsExactly(b2);
    assertThat(o.generation()).isEqualTo(s.generation());
    assertThat(s.list()).containsExactly(a, b);
    assertThat(s.withOverrides(List.of())).isSameAs(s);
  }
}
