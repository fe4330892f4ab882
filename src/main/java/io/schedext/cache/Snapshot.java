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

/**
 * An immutable view of every node with a Node object at one cache generation, in NodeTree order. Safe to share across
 * threads and requests; a newer generation is a new instance that shares unchanged node infos with this one.
 */
public final class Snapshot implements NodeInfoLister {

  private static final Snapshot EMPTY = new Snapshot(new NodeInfo[0], Map.of(), 0);

  private final NodeInfo[] nodes;
  private final Map<String, Integer> indexByName;
  private final long generation;
  private final NodeInfoList list;
  // Built on first use: the watch side publishes a snapshot every few dozen node changes, and walking every node info
  // for these lists made each publish O(nodes) in cache misses; the plugins sum over list() instead.
  private volatile List<NodeInfo> withAffinity;
  private volatile List<NodeInfo> withRequiredAntiAffinity;
  private volatile Set<String> usedPvcs;
  private volatile NameInterner names;

  Snapshot(NodeInfo[] nodes, Map<String, Integer> indexByName, long generation) {
    this(nodes, indexByName, generation, null);
  }

  /** {@code names}, when not null, must intern exactly the names of {@code nodes} (a predecessor's, same node set). */
  Snapshot(NodeInfo[] nodes, Map<String, Integer> indexByName, long generation, NameInterner names) {
    this(nodes, indexByName, generation, names, null);
  }

  /**
   * As {@link #Snapshot(NodeInfo[], Map, long, NameInterner)}; {@code nodeGenerations}, when not null, are the
   * generations of {@code nodes}, index-aligned.
   */
  Snapshot(NodeInfo[] nodes, Map<String, Integer> indexByName, long generation, NameInterner names,
      long[] nodeGenerations) {
    this.names = names;
    this.nodes = nodes;
    this.indexByName = indexByName;
    this.generation = generation;
    this.list = new NodeInfoList(nodes, nodeGenerations);
  }

  /** The snapshot of an empty cache. */
  public static Snapshot empty() {
    return EMPTY;
  }

  /** A snapshot of exactly these node infos (in this order), for tests and for full-node requests. */
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
   * This snapshot with {@code replacements} put in place of the nodes of the same name, and appended when this
   * snapshot has no such node. Returns {@code this} when there is nothing to replace.
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

  private List<NodeInfo> nodesWhere(java.util.function.Predicate<NodeInfo> p) {
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
    NameInterner n = names;
    if (n != null && name != null) {
      // Built from exactly these nodes in this order: positions are indexes, a miss is definitive.
      int i = n.position(name);
      return i < 0 ? null : nodes[i];
    }
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

  /** {@code namespace/claim} of every PVC used by some pod in this snapshot. Computed once on first use. */
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
   * The canonical instances of this snapshot's node names. Built on first use and handed on to the next snapshot
   * while the node set stays the same.
   */
  public NameInterner nameInterner() {
    NameInterner n = names;
    if (n == null) {
      String[] all = new String[nodes.length];
      for (int i = 0; i < nodes.length; i++) {
        all[i] = nodes[i].name();
      }
      n = NameInterner.of(all);
      names = n;
    }
    return n;
  }

  /**
   * The node info at {@code position} of {@code interner}, when {@code interner} is this snapshot's own (so its
   * positions are this snapshot's node order); null when it is another's or the position is -1.
   */
  public NodeInfo atPosition(NameInterner interner, int position) {
    if (position < 0 || interner == null || interner != names) {
      return null;
    }
    return nodes[position];
  }

  /** The interner if one was built, else null (never builds one). */
  NameInterner builtNameInterner() {
    return names;
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
