package io.schedext.framework;

import io.schedext.framework.parallelize.Parallelizer;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;

/**
 * Whole-cluster sums of per-node contributions, carried from one call to the next and adjusted for
 * the nodes that changed.
 *
 * <p>Some PreScore and PreFilter steps sum something over every node of the cluster for each pod,
 * such as the pods matching a spread selector per zone: O(nodes) per pod even when each node's
 * share is remembered. Snapshots share their node infos until a node changes, and a node info's
 * {@link NodeInfo#generation() generation} identifies its content (every change advances it; copies
 * keep it). So this keeps, per key, the generation and the contribution of every position of the
 * last list summed, with the running total, and on the next call recomputes only the positions
 * whose generation differs: subtract what was there, add what is there now. A comparison per node
 * plus O(changes) instead of O(nodes) work; a list of different nodes (another snapshot's order, a
 * request's own full nodes) costs what summing from scratch would.
 *
 * <p>The key must determine the contribution function: two calls with equal keys must compute the
 * same contribution for the same node info, so a key missing one input of the contribution carries
 * another input's totals without notice. Keys are records declared by the plugin next to the
 * contribution they key, with every input as a component; each is hashed once per call. Keeps the
 * {@code maxKeys} most recently used keys. Thread-safe: calls for one key run one at a time, calls
 * for different keys concurrently.
 *
 * @param <K> the key (value {@code equals} and {@code hashCode} over every input of the
 *     contribution)
 * @param <C> a node's contribution (immutable)
 * @param <T> the running total (mutated only under this class's control)
 */
public final class RunningTotals<K, C, T> {

  /** Bulk recomputations larger than this run on the parallelizer. */
  static final int PARALLEL_FROM = 512;

  /**
   * How contributions add up to a total. Implementations are made per call and may hold the call's
   * inputs.
   */
  public interface Sum<C, T> {

    /** A new empty total. */
    T empty();

    /**
     * What {@code node} contributes, or null for nothing. A pure function of the node info (given
     * the key).
     */
    C contribution(NodeInfo node);

    /** Adds {@code c} to {@code total}. */
    void add(T total, C c);

    /** Takes {@code c}, added before, back out of {@code total}. */
    void subtract(T total, C c);
  }

  private final int maxKeys;
  private final Map<K, Entry<C, T>> entries = new ConcurrentHashMap<>();
  private final AtomicLong clock = new AtomicLong();
  private final AtomicLong recomputed = new AtomicLong();

  /** Totals for at most {@code maxKeys} keys. */
  public RunningTotals(int maxKeys) {
    if (maxKeys < 1) {
      throw new IllegalArgumentException("maxKeys must be positive: " + maxKeys);
    }
    this.maxKeys = maxKeys;
  }

  private static final class Entry<C, T> {
    long[] generations = new long[0];
    Object[] contributions = new Object[0];
    T total;
    volatile long lastUse;
  }

  /**
   * The sum of {@code sum}'s contributions over {@code nodes}, handed to {@code read} (under the
   * key's lock, so {@code read} must copy what it keeps). {@code parallelizer}, when not null,
   * computes large batches of contributions.
   */
  public <R> R total(
      K key, List<NodeInfo> nodes, Sum<C, T> sum, Parallelizer parallelizer, Function<T, R> read) {
    Entry<C, T> e = entries.get(key);
    if (e == null) {
      e = entries.computeIfAbsent(key, k -> new Entry<>());
      if (entries.size() > maxKeys) {
        evictLeastRecentlyUsed(e);
      }
    }
    e.lastUse = clock.incrementAndGet();
    synchronized (e) {
      if (e.total == null) {
        e.total = sum.empty();
      }
      update(e, nodes, sum, parallelizer);
      return read.apply(e.total);
    }
  }

  @SuppressWarnings("unchecked")
  private void update(
      Entry<C, T> e, List<NodeInfo> nodes, Sum<C, T> sum, Parallelizer parallelizer) {
    int n = nodes.size();
    if (e.generations.length > n) {
      // The list shrank: what the dropped positions contributed goes.
      for (int i = n; i < e.generations.length; i++) {
        if (e.contributions[i] != null) {
          sum.subtract(e.total, (C) e.contributions[i]);
        }
      }
      e.generations = Arrays.copyOf(e.generations, n);
      e.contributions = Arrays.copyOf(e.contributions, n);
    } else if (e.generations.length < n) {
      int old = e.generations.length;
      e.generations = Arrays.copyOf(e.generations, n);
      e.contributions = Arrays.copyOf(e.contributions, n);
      // No node info has a negative generation, so the new positions count as changed.
      Arrays.fill(e.generations, old, n, -1);
    }
    long[] generations = e.generations;
    // A snapshot's list keeps its node infos' generations in one array: no visit to each node info.
    long[] current = nodes instanceof NodeInfoList l ? l.generations() : null;
    int changed = 0;
    for (int i = 0; i < n; i++) {
      if ((current != null ? current[i] : nodes.get(i).generation()) != generations[i]) {
        changed++;
      }
    }
    if (changed == 0) {
      return;
    }
    recomputed.addAndGet(changed);
    if (parallelizer != null && changed >= PARALLEL_FROM) {
      int[] at = new int[changed];
      for (int i = 0, k = 0; i < n; i++) {
        if ((current != null ? current[i] : nodes.get(i).generation()) != generations[i]) {
          at[k++] = i;
        }
      }
      Object[] fresh = new Object[changed];
      parallelizer.until(changed, k -> fresh[k] = sum.contribution(nodes.get(at[k])));
      for (int k = 0; k < changed; k++) {
        replace(e, at[k], nodes.get(at[k]), fresh[k], sum);
      }
      return;
    }
    for (int i = 0; i < n; i++) {
      if ((current != null ? current[i] : nodes.get(i).generation()) != generations[i]) {
        NodeInfo node = nodes.get(i);
        replace(e, i, node, sum.contribution(node), sum);
      }
    }
  }

  @SuppressWarnings("unchecked")
  private void replace(Entry<C, T> e, int i, NodeInfo node, Object contribution, Sum<C, T> sum) {
    if (e.contributions[i] != null) {
      sum.subtract(e.total, (C) e.contributions[i]);
    }
    if (contribution != null) {
      sum.add(e.total, (C) contribution);
    }
    e.contributions[i] = contribution;
    e.generations[i] = node.generation();
  }

  private void evictLeastRecentlyUsed(Entry<C, T> keep) {
    K oldest = null;
    long oldestUse = Long.MAX_VALUE;
    for (Map.Entry<K, Entry<C, T>> x : entries.entrySet()) {
      if (x.getValue() != keep && x.getValue().lastUse < oldestUse) {
        oldestUse = x.getValue().lastUse;
        oldest = x.getKey();
      }
    }
    if (oldest != null) {
      entries.remove(oldest);
    }
  }

  /** The keys held now. */
  public int size() {
    return entries.size();
  }

  /**
   * How many node contributions were computed since start (the rest were carried); for tests and
   * diagnostics.
   */
  public long recomputed() {
    return recomputed.get();
  }
}
