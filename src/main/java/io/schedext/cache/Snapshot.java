package io.schedext.cache;

import io.schedext.framework.NodeInfo;
import io.schedext.framework.NodeInfoList;
import io.schedext.framework.NodeInfoLister;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Predicate;

/**
 * An immutable view of every node with a Node object at one cache generation, in NodeTree order.
 * Safe to share across threads and requests; a newer generation is a new instance that shares
 * unchanged node infos with this one.
 */
public final class Snapshot implements NodeInfoLister {

  private static final Snapshot EMPTY = new Snapshot(new NodeInfo[0], Map.of(), 0);

  private final NodeInfo[] nodes;
  private final Map<String, Integer> indexByName;
  private final long generation;
  private final NodeInfoList list;
  // Built on first use: the watch side publishes a snapshot every few dozen node changes, and
  // walking every node info for these lists made each publish O(nodes) in cache misses; the plugins
  // sum over list() instead.
  private volatile List<NodeInfo> withAffinity;
  private volatile List<NodeInfo> withRequiredAntiAffinity;
  private volatile Set<String> usedPvcs;

  Snapshot(NodeInfo[] nodes, Map<String, Integer> indexByName, long generation) {
    this(nodes, indexByName, generation, null);
  }

  /**
   * A snapshot of {@code nodes}, whose positions {@code indexByName} maps their names to (a
   * predecessor's map when the node order is unchanged, which {@link #sameNodeOrder} then tells);
   * {@code nodeGenerations}, when not null, are the generations of {@code nodes}, index-aligned.
   */
  Snapshot(
      NodeInfo[] nodes, Map<String, Integer> indexByName, long generation, long[] nodeGenerations) {
    this.nodes = nodes;
    this.indexByName = indexByName;
    this.generation = generation;
    this.list = new NodeInfoList(nodes, nodeGenerations);
  }

  /** The snapshot of an empty cache. */
  public static Snapshot empty() {
    return EMPTY;
  }

  /**
   * A snapshot of exactly these node infos (in this order), for tests and for full-node requests.
   */
  public static Snapshot of(List<NodeInfo> infos) {
    NodeInfo[] arr = infos.toArray(new NodeInfo[0]);
    Map<String, Integer> idx = new HashMap<>(arr.length * 2);
    for (int i = 0; i < arr.length; i++) {
      idx.put(arr[i].name(), i);
    }
    long gen = 0;
    for (NodeInfo n : arr) {
      gen = Math.max(gen, n.generation());
    }
    return new Snapshot(arr, idx, gen);
  }

  /**
   * This snapshot with {@code replacements} put in place of the nodes of the same name, and
   * appended when this snapshot has no such node. Returns {@code this} when there is nothing to
   * replace.
   */
  public Snapshot withOverrides(List<NodeInfo> replacements) {
    if (replacements.isEmpty()) {
      return this;
    }
    NodeInfo[] arr = nodes.clone();
    Map<String, Integer> idx = indexByName;
    List<NodeInfo> appended = new ArrayList<>();
    for (NodeInfo n : replacements) {
      Integer i = indexByName.get(n.name());
      if (i != null) {
        arr[i] = n;
      } else {
        appended.add(n);
      }
    }
    if (!appended.isEmpty()) {
      idx = new HashMap<>(indexByName);
      int base = arr.length;
      arr = Arrays.copyOf(arr, base + appended.size());
      for (int k = 0; k < appended.size(); k++) {
        arr[base + k] = appended.get(k);
        idx.put(appended.get(k).name(), base + k);
      }
    }
    return new Snapshot(arr, idx, generation);
  }

  @Override
  public List<NodeInfo> list() {
    return list;
  }

  @Override
  public List<NodeInfo> havePodsWithAffinityList() {
    List<NodeInfo> l = withAffinity;
    if (l == null) {
      l = nodesWhere(n -> !n.podsWithAffinity().isEmpty());
      withAffinity = l;
    }
    return l;
  }

  @Override
  public List<NodeInfo> havePodsWithRequiredAntiAffinityList() {
    List<NodeInfo> l = withRequiredAntiAffinity;
    if (l == null) {
      l = nodesWhere(n -> !n.podsWithRequiredAntiAffinity().isEmpty());
      withRequiredAntiAffinity = l;
    }
    return l;
  }

  private List<NodeInfo> nodesWhere(Predicate<NodeInfo> p) {
    List<NodeInfo> out = new ArrayList<>();
    for (NodeInfo n : nodes) {
      if (p.test(n)) {
        out.add(n);
      }
    }
    return Collections.unmodifiableList(out);
  }

  @Override
  public NodeInfo get(String name) {
    Integer i = indexByName.get(name);
    return i == null ? null : nodes[i];
  }

  @Override
  public int size() {
    return nodes.length;
  }

  @Override
  public long generation() {
    return generation;
  }

  /** Answered from {@link #usedPvcs()}, built once per snapshot. */
  @Override
  public boolean isPvcUsedByPods(String claimKey) {
    return usedPvcs().contains(claimKey);
  }

  /**
   * {@code namespace/claim} of every PVC used by some pod in this snapshot. Computed once on first
   * use.
   */
  public Set<String> usedPvcs() {
    Set<String> s = usedPvcs;
    if (s == null) {
      Set<String> out = new HashSet<>();
      for (NodeInfo n : nodes) {
        out.addAll(n.pvcRefCounts().keySet());
      }
      s = Collections.unmodifiableSet(out);
      usedPvcs = s;
    }
    return s;
  }

  /**
   * True when {@code other} has the same node names at the same positions of {@link #list()} as
   * this snapshot: the cache hands its node order on from snapshot to snapshot until a node is
   * added, removed or changes zone, and a snapshot with overrides in place keeps its base's order.
   * Lets an index built over one snapshot's node order (the request decoder's) serve its
   * successors. Constant time; false for null.
   */
  public boolean sameNodeOrder(Snapshot other) {
    return other != null && other.indexByName == indexByName;
  }

  /** The generations of the node infos if already known (see {@link NodeInfoList}), else null. */
  long[] knownNodeGenerations() {
    return list.knownGenerations();
  }

  NodeInfo[] nodesArray() {
    return nodes;
  }

  Map<String, Integer> indexByName() {
    return indexByName;
  }
}
