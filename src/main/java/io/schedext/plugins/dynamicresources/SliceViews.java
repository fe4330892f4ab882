package io.schedext.plugins.dynamicresources;

import io.fabric8.kubernetes.api.model.resource.v1.ResourceSlice;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The {@link SliceView} of each ResourceSlice, kept across cycles and made again when the store
 * holds a new object for the slice's name; and the pools each node's own slices form (the usual
 * case: no slice for all nodes or by node selector), kept while the node's slices are the same
 * objects, so a cycle's Filter on a node whose devices did not change gathers nothing. Entries of
 * deleted slices and nodes are dropped when a map grows past twice the slices seen. Thread-safe.
 */
final class SliceViews {

  private final ConcurrentHashMap<String, SliceView> byName = new ConcurrentHashMap<>();
  private final ConcurrentHashMap<String, NodePools> byNode = new ConcurrentHashMap<>();

  /** The pools gathered from a node's own slices, and those slices. */
  private record NodePools(List<ResourceSlice> slices, List<Pools.Pool> pools) {

    boolean of(List<ResourceSlice> now) {
      if (now == slices) {
        return true;
      }
      if (now.size() != slices.size()) {
        return false;
      }
      for (int i = 0; i < now.size(); i++) {
        if (now.get(i) != slices.get(i)) {
          return false;
        }
      }
      return true;
    }
  }

  private volatile int sliceCount;

  /** The view of {@code slice}. */
  SliceView of(ResourceSlice slice) {
    String name = slice.getMetadata() == null ? "" : slice.getMetadata().getName();
    SliceView v = byName.get(name);
    if (v != null && v.slice() == slice) {
      return v;
    }
    v = new SliceView(slice);
    byName.put(name, v);
    return v;
  }

  /**
   * The pools of node {@code nodeName} when its own slices {@code own} are all it can reach (slices
   * by node name match no other node, and need no labels).
   */
  List<Pools.Pool> ofNode(String nodeName, List<ResourceSlice> own) {
    if (own.isEmpty()) {
      // Not kept: a map entry for every node without devices would outgrow the slice count and
      // empty the map at each cycle.
      return List.of();
    }
    if (nodeName == null) {
      return Pools.gather(own, null, Map.of(), this::of);
    }
    NodePools known = byNode.get(nodeName);
    if (known != null && known.of(own)) {
      return known.pools();
    }
    List<Pools.Pool> pools = Pools.gather(own, nodeName, Map.of(), this::of);
    byNode.put(nodeName, new NodePools(List.copyOf(own), pools));
    return pools;
  }

  /** Notes that the cluster has {@code count} slices; forgets stale views when there are many. */
  void seen(int count) {
    sliceCount = count;
    if (byName.size() > 2 * Math.max(count, 16)) {
      byName.clear();
    }
    if (byNode.size() > 2 * Math.max(count, 16)) {
      byNode.clear();
    }
  }

  int size() {
    return byName.size();
  }

  int slices() {
    return sliceCount;
  }
}
