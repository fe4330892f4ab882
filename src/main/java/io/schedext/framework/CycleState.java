package io.schedext.framework;

import java.util.Collections;
import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Per-attempt storage shared by the plugins of one scheduling cycle: written in PreFilter/PreScore, read in
 * Filter/Score. Thread-safe for concurrent reads and writes; values themselves must be read-only once Filter or
 * Score runs in parallel. Also carries the cycle's snapshot and the plugins PreFilter/PreScore told to skip.
 */
public final class CycleState {

  /**
   * The values, as a copy-on-write array of alternating keys and values: written a handful of times per cycle
   * (PreFilter, PreScore), read once per plugin per node from the parallel Filter and Score loops, where a linear
   * scan of a few entries that usually ends on an identical key instance beats a concurrent hash map lookup.
   */
  private volatile Object[] data;
  private final NodeInfoLister snapshot;
  private final Set<String> skipFilterPlugins;
  private final Set<String> skipScorePlugins;
  private volatile boolean recordPluginMetrics;

  /** A new empty state over {@code snapshot}. */
  public CycleState(NodeInfoLister snapshot) {
    this(snapshot, new Object[0], ConcurrentHashMap.newKeySet(), ConcurrentHashMap.newKeySet());
  }

  private CycleState(
      NodeInfoLister snapshot,
      Object[] data,
      Set<String> skipFilter,
      Set<String> skipScore) {
    this.snapshot = snapshot;
    this.data = data;
    this.skipFilterPlugins = skipFilter;
    this.skipScorePlugins = skipScore;
  }

  /** The snapshot this cycle sees; never changes during the cycle. */
  public NodeInfoLister snapshot() {
    return snapshot;
  }

  /**
   * Reads the value under {@code key}; throws {@link FrameworkException} when it is missing or of another type, which
   * the framework reports as an Error status.
   */
  public <T extends StateData> T read(String key, Class<T> type) {
    StateData d = find(key);
    if (d == null) {
      throw new FrameworkException("reading \"" + key + "\" from cycleState: not found");
    }
    if (!type.isInstance(d)) {
      throw new FrameworkException(
          "reading \"" + key + "\" from cycleState: " + d.getClass().getSimpleName() + " is not a "
              + type.getSimpleName());
    }
    return type.cast(d);
  }

  /** Returns the value under {@code key}, or null. */
  public StateData readOrNull(String key) {
    return find(key);
  }

  private StateData find(String key) {
    Object[] d = data;
    for (int i = 0; i < d.length; i += 2) {
      if (d[i] == key) {
        return (StateData) d[i + 1];
      }
    }
    for (int i = 0; i < d.length; i += 2) {
      if (key.equals(d[i])) {
        return (StateData) d[i + 1];
      }
    }
    return null;
  }

  private int indexOf(Object[] d, String key) {
    for (int i = 0; i < d.length; i += 2) {
      if (key.equals(d[i])) {
        return i;
      }
    }
    return -1;
  }

  /** Stores {@code value} (not null) under {@code key}, replacing any previous value. */
  public synchronized void write(String key, StateData value) {
    java.util.Objects.requireNonNull(key, "key");
    java.util.Objects.requireNonNull(value, "value");
    Object[] d = data;
    int i = indexOf(d, key);
    Object[] next;
    if (i >= 0) {
      next = d.clone();
      next[i + 1] = value;
    } else {
      next = java.util.Arrays.copyOf(d, d.length + 2);
      next[d.length] = key;
      next[d.length + 1] = value;
    }
    data = next;
  }

  /** Removes the value under {@code key}. */
  public synchronized void delete(String key) {
    Object[] d = data;
    int i = indexOf(d, key);
    if (i < 0) {
      return;
    }
    Object[] next = new Object[d.length - 2];
    System.arraycopy(d, 0, next, 0, i);
    System.arraycopy(d, i + 2, next, i, d.length - i - 2);
    data = next;
  }

  /** A copy whose values are the {@link StateData#copy()} of these. */
  public CycleState copy() {
    Object[] d = data.clone();
    for (int i = 1; i < d.length; i += 2) {
      d[i] = ((StateData) d[i]).copy();
    }
    Set<String> sf = ConcurrentHashMap.newKeySet();
    sf.addAll(skipFilterPlugins);
    Set<String> ss = ConcurrentHashMap.newKeySet();
    ss.addAll(skipScorePlugins);
    CycleState c = new CycleState(snapshot, d, sf, ss);
    c.recordPluginMetrics = recordPluginMetrics;
    return c;
  }

  /** Plugins whose Filter and PreFilter extensions are skipped in this cycle (their PreFilter returned Skip). */
  public Set<String> skipFilterPlugins() {
    return skipFilterPlugins;
  }

  /** Plugins whose Score is skipped in this cycle (their PreScore returned Skip). */
  public Set<String> skipScorePlugins() {
    return skipScorePlugins;
  }

  /** Whether per-plugin durations are recorded for this cycle. */
  public boolean recordPluginMetrics() {
    return recordPluginMetrics;
  }

  /** Sets whether per-plugin durations are recorded for this cycle. */
  public void setRecordPluginMetrics(boolean record) {
    this.recordPluginMetrics = record;
  }

  /** The keys currently stored, for diagnostics. */
  public Set<String> keys() {
    Object[] d = data;
    Set<String> keys = new HashSet<>();
    for (int i = 0; i < d.length; i += 2) {
      keys.add((String) d[i]);
    }
    return Collections.unmodifiableSet(keys);
  }
}
