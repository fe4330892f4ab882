package io.schedext.framework;

import java.util.AbstractList;
import java.util.Arrays;
import java.util.RandomAccess;

/**
 * An immutable list of node infos (a snapshot's node order) that also keeps their {@link
 * NodeInfo#generation() generations} in one array, so code that checks which nodes changed since a
 * previous call ({@link RunningTotals}) reads consecutive longs instead of visiting every node
 * info, a cache miss each at thousands of nodes. The generations are read from the node infos on
 * first use, or handed over by the list this one was derived from.
 */
public final class NodeInfoList extends AbstractList<NodeInfo> implements RandomAccess {

  private final NodeInfo[] nodes;
  private volatile long[] generations;

  /** A list over {@code nodes} (kept, not copied; must not change afterwards). */
  public NodeInfoList(NodeInfo[] nodes) {
    this(nodes, null);
  }

  /**
   * A list over {@code nodes} whose generations, when {@code generations} is not null, are given
   * (index-aligned and exact: {@code generations[i] == nodes[i].generation()}).
   */
  public NodeInfoList(NodeInfo[] nodes, long[] generations) {
    if (generations != null && generations.length != nodes.length) {
      throw new IllegalArgumentException(
          nodes.length + " nodes but " + generations.length + " generations");
    }
    this.nodes = nodes;
    this.generations = generations;
  }

  @Override
  public NodeInfo get(int index) {
    return nodes[index];
  }

  @Override
  public int size() {
    return nodes.length;
  }

  /** One array copy (the inherited version walks an iterator). */
  @Override
  public Object[] toArray() {
    return nodes.clone();
  }

  /** One array copy (the inherited version walks an iterator). */
  @Override
  @SuppressWarnings("unchecked")
  public <T> T[] toArray(T[] a) {
    if (a.length < nodes.length) {
      return (T[]) Arrays.copyOf(nodes, nodes.length, a.getClass());
    }
    System.arraycopy(nodes, 0, a, 0, nodes.length);
    if (a.length > nodes.length) {
      a[nodes.length] = null;
    }
    return a;
  }

  /** The generation of every node info, index-aligned. Shared: do not modify. */
  public long[] generations() {
    long[] g = generations;
    if (g == null) {
      g = new long[nodes.length];
      for (int i = 0; i < g.length; i++) {
        g[i] = nodes[i].generation();
      }
      generations = g;
    }
    return g;
  }

  /** The generations if already known, else null (never computes them). */
  public long[] knownGenerations() {
    return generations;
  }
}
