package io.schedext.framework;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.schedext.framework.parallelize.Parallelizer;
import io.schedext.testing.MakeNode;
import io.schedext.testing.MakePod;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Running totals carried from call to call must always equal the sum from scratch over the list
 * given, whatever changed in between (node infos replaced, labels changed, positions shifted, the
 * list grown or shrunk), and must recompute only the positions whose node info changed.
 */
class RunningTotalsTest {

  private final Parallelizer parallelizer = new Parallelizer(2);

  @AfterEach
  void close() {
    parallelizer.close();
  }

  /** Pods per zone label value; a node contributes (its zone, its pod count). */
  private static final class PodsPerZone
      implements RunningTotals.Sum<Map.Entry<String, Integer>, Map<String, Long>> {
    int computed;

    @Override
    public Map<String, Long> empty() {
      return new HashMap<>();
    }

    @Override
    public Map.Entry<String, Integer> contribution(NodeInfo node) {
      synchronized (this) {
        computed++;
      }
      int pods = node.pods().size();
      return pods == 0 ? null : Map.entry(zone(node), pods);
    }

    @Override
    public void add(Map<String, Long> total, Map.Entry<String, Integer> c) {
      total.merge(c.getKey(), (long) c.getValue(), Long::sum);
    }

    @Override
    public void subtract(Map<String, Long> total, Map.Entry<String, Integer> c) {
      if (total.merge(c.getKey(), (long) -c.getValue(), Long::sum) == 0) {
        total.remove(c.getKey());
      }
    }
  }

  private static String zone(NodeInfo node) {
    String z = node.label(NodeInfo.LABEL_ZONE);
    return z == null ? "" : z;
  }

  private static Map<String, Long> fromScratch(List<NodeInfo> nodes) {
    Map<String, Long> out = new HashMap<>();
    for (NodeInfo n : nodes) {
      if (!n.pods().isEmpty()) {
        out.merge(zone(n), (long) n.pods().size(), Long::sum);
      }
    }
    return out;
  }

  private static NodeInfo node(String name, String zone, int pods) {
    NodeInfo info = NodeInfo.of(MakeNode.node().name(name).label(NodeInfo.LABEL_ZONE, zone).obj());
    for (int i = 0; i < pods; i++) {
      info.addPod(PodInfo.of(MakePod.pod().name(name + "-p" + i).node(name).obj()));
    }
    return info;
  }

  private static NodeInfo withPod(NodeInfo n, String pod) {
    NodeInfo copy = n.snapshotCopy();
    copy.addPod(PodInfo.of(MakePod.pod().name(pod).node(n.name()).obj()));
    return copy;
  }

  private static NodeInfo inZone(NodeInfo n, String zone) {
    NodeInfo copy = n.snapshotCopy();
    copy.setNode(MakeNode.node().name(n.name()).label(NodeInfo.LABEL_ZONE, zone).obj());
    return copy;
  }

  private Map<String, Long> total(
      RunningTotals<String, Map.Entry<String, Integer>, Map<String, Long>> totals,
      List<NodeInfo> nodes,
      PodsPerZone sum) {
    return totals.total("pods-per-zone", nodes, sum, parallelizer, Map::copyOf);
  }

  @Test
  void onlyChangedNodesAreRecomputed() {
    RunningTotals<String, Map.Entry<String, Integer>, Map<String, Long>> totals =
        new RunningTotals<>(4);
    List<NodeInfo> nodes =
        new ArrayList<>(List.of(node("a", "z1", 2), node("b", "z1", 1), node("c", "z2", 0)));
    PodsPerZone sum = new PodsPerZone();
    assertThat(total(totals, nodes, sum)).isEqualTo(Map.of("z1", 3L));
    assertThat(sum.computed).isEqualTo(3);

    PodsPerZone again = new PodsPerZone();
    assertThat(total(totals, nodes, again)).isEqualTo(Map.of("z1", 3L));
    assertThat(again.computed).as("nothing changed").isZero();

    nodes.set(2, withPod(nodes.get(2), "new"));
    nodes.set(0, inZone(nodes.get(0), "z3"));
    PodsPerZone third = new PodsPerZone();
    assertThat(total(totals, nodes, third)).isEqualTo(Map.of("z1", 1L, "z2", 1L, "z3", 2L));
    assertThat(third.computed).as("the two changed nodes").isEqualTo(2);
    assertThat(totals.recomputed()).isEqualTo(5);
  }

  @Test
  void aCopyOfAnUnchangedNodeInfoIsNotRecomputed() {
    RunningTotals<String, Map.Entry<String, Integer>, Map<String, Long>> totals =
        new RunningTotals<>(4);
    List<NodeInfo> nodes = List.of(node("a", "z1", 2), node("b", "z2", 1));
    total(totals, nodes, new PodsPerZone());
    PodsPerZone sum = new PodsPerZone();
    List<NodeInfo> copies = List.of(nodes.get(0).snapshotCopy(), nodes.get(1).snapshotCopy());
    assertThat(total(totals, copies, sum)).isEqualTo(Map.of("z1", 2L, "z2", 1L));
    assertThat(sum.computed).isZero();
  }

  @Test
  void randomChangesKeepTheTotalEqualToTheSumFromScratch() {
    for (long seed = 1; seed <= 5; seed++) {
      Random rnd = new Random(seed);
      RunningTotals<String, Map.Entry<String, Integer>, Map<String, Long>> totals =
          new RunningTotals<>(4);
      List<NodeInfo> nodes = new ArrayList<>();
      // Enough nodes that the first call and the reorderings take the parallel path.
      for (int i = 0; i < RunningTotals.PARALLEL_FROM + 100; i++) {
        nodes.add(node("n" + i, "z" + rnd.nextInt(4), rnd.nextInt(3)));
      }
      int next = nodes.size();
      for (int step = 0; step < 60; step++) {
        switch (rnd.nextInt(6)) {
          case 0 -> {
            int i = rnd.nextInt(nodes.size());
            nodes.set(i, withPod(nodes.get(i), "p" + step));
          }
          case 1 -> {
            int i = rnd.nextInt(nodes.size());
            nodes.set(i, inZone(nodes.get(i), "z" + rnd.nextInt(5)));
          }
          case 2 -> nodes.remove(rnd.nextInt(nodes.size()));
          case 3 ->
              nodes.add(rnd.nextInt(nodes.size() + 1), node("n" + next++, "z" + rnd.nextInt(4), 1));
          case 4 -> Collections.rotate(nodes, rnd.nextInt(nodes.size()));
          default -> {
            // nothing changes
          }
        }
        // Every other step as a snapshot's list, which keeps the generations in an array.
        List<NodeInfo> given =
            step % 2 == 0 ? nodes : new NodeInfoList(nodes.toArray(new NodeInfo[0]));
        assertThat(total(totals, given, new PodsPerZone()))
            .as("seed %d step %d", seed, step)
            .isEqualTo(fromScratch(nodes));
      }
    }
  }

  @Test
  void aListWithGenerationsIsComparedByThem() {
    RunningTotals<String, Map.Entry<String, Integer>, Map<String, Long>> totals =
        new RunningTotals<>(4);
    NodeInfo[] nodes = {node("a", "z1", 2), node("b", "z2", 1)};
    total(totals, new NodeInfoList(nodes), new PodsPerZone());
    nodes[1] = withPod(nodes[1], "new");
    PodsPerZone sum = new PodsPerZone();
    assertThat(total(totals, new NodeInfoList(nodes), sum)).isEqualTo(Map.of("z1", 2L, "z2", 2L));
    assertThat(sum.computed).isEqualTo(1);
    assertThatThrownBy(() -> new NodeInfoList(nodes, new long[1]))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void keepsTheMostRecentlyUsedKeys() {
    RunningTotals<String, Map.Entry<String, Integer>, Map<String, Long>> totals =
        new RunningTotals<>(2);
    List<NodeInfo> nodes = List.of(node("a", "z1", 1));
    totals.total("k1", nodes, new PodsPerZone(), null, Map::copyOf);
    totals.total("k2", nodes, new PodsPerZone(), null, Map::copyOf);
    totals.total("k1", nodes, new PodsPerZone(), null, Map::copyOf);
    totals.total("k3", nodes, new PodsPerZone(), null, Map::copyOf);
    assertThat(totals.size()).isEqualTo(2);
    PodsPerZone k1 = new PodsPerZone();
    totals.total("k1", nodes, k1, null, Map::copyOf);
    assertThat(k1.computed).as("k1 was used after k2, so k2 went").isZero();
    PodsPerZone k2 = new PodsPerZone();
    totals.total("k2", nodes, k2, null, Map::copyOf);
    assertThat(k2.computed).isEqualTo(1);
  }

  @Test
  void needsRoomForOneKey() {
    assertThatThrownBy(() -> new RunningTotals<>(0)).isInstanceOf(IllegalArgumentException.class);
  }
}
