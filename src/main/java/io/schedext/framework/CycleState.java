package io.schedext.framework;

import java.util.Arrays;
import java.util.Collections;
import java.util.HashSet;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Per-attempt storage shared by the plugins of one scheduling cycle: written in PreFilter/PreScore,
 * read in Filter/Score. Thread-safe for concurrent reads and writes; values themselves must be
 * read-only once Filter or Score runs in parallel. Also carries the cycle's snapshot and the
 * plugins PreFilter/PreScore told to skip.
 */
public final class CycleState {

  /**
   * The values, as copy-on-write parallel arrays: written a handful of times per cycle (PreFilter,
   * PreScore), read once per plugin per node from the parallel Filter and Score loops, where a
   * probe into a small open-addressing index that usually ends on an identical key instance beats a
   * concurrent hash map lookup. Values sit in a {@code StateData[]} so reading one needs no cast to
   * the interface (a shared type-check cache that two threads thrash on JDK 17).
   */
  private volatile Entries data;

  private record Entries(
      String[] keys, StateData[] values, String[] slotKeys, StateData[] slotValues) {
    static final Entries EMPTY = of(new String[0], new StateData[0]);

    /**
     * The entries with an open-addressing index by the keys' (cached) hash codes: a Score plugin's
     * state, written last in PreScore, would otherwise be found at the end of a scan over every
     * PreFilter entry, on every node.
     */
    static Entries of(String[] keys, StateData[] values) {
      int size = Integer.highestOneBit(Math.max(4, keys.length * 2 - 1)) << 1;
      String[] slotKeys = new String[size];
      StateData[] slotValues = new StateData[size];
      for (int i = 0; i < keys.length; i++) {
        int slot = keys[i].hashCode() & (size - 1);
        while (slotKeys[slot] != null) {
          slot = (slot + 1) & (size - 1);
        }
        slotKeys[slot] = keys[i];
        slotValues[slot] = values[i];
      }
      return new Entries(keys, values, slotKeys, slotValues);
    }
  }

  private final NodeInfoLister snapshot;
  private final Set<String> skipFilterPlugins;
  private final Set<String> skipScorePlugins;
  private volatile boolean recordPluginMetrics;

  /** A new empty state over {@code snapshot}. */
  public CycleState(NodeInfoLister snapshot) {
    this(snapshot, Entries.EMPTY, ConcurrentHashMap.newKeySet(), ConcurrentHashMap.newKeySet());
  }

  private CycleState(
      NodeInfoLister snapshot, Entries data, Set<String> skipFilter, Set<String> skipScore) {
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
   * Reads the value under {@code key}; throws {@link FrameworkException} when it is missing or of
   * another type, which the framework reports as an Error status.
   */
  public <T extends StateData> T read(String key, Class<T> type) {
    StateData d = find(key);
    if (d == null) {
      throw new FrameworkException("reading \"" + key + "\" from cycleState: not found");
    }
    if (!type.isInstance(d)) {
      throw new FrameworkException(
          "reading \""
              + key
              + "\" from cycleState: "
              + d.getClass().getSimpleName()
              + " is not a "
              + type.getSimpleName());
    }
    return type.cast(d);
  }

  /** Returns the value under {@code key}, or null. */
  public StateData readOrNull(String key) {
    return find(key);
  }

  private StateData find(String key) {
    Entries d = data;
    String[] slots = d.slotKeys;
    int mask = slots.length - 1;
    for (int slot = key.hashCode() & mask; ; slot = (slot + 1) & mask) {
      String k = slots[slot];
      if (k == key) {
        return d.slotValues[slot];
      }
      if (k == null) {
        break;
      }
      if (key.equals(k)) {
        return d.slotValues[slot];
      }
    }
    return null;
  }

  private static int indexOf(String[] keys, String key) {
    for (int i = 0; i < keys.length; i++) {
      if (key.equals(keys[i])) {
        return i;
      }
    }
    return -1;
  }

  /** Stores {@code value} (not null) under {@code key}, replacing any previous value. */
  public synchronized void write(String key, StateData value) {
    Objects.requireNonNull(key, "key");
    Objects.requireNonNull(value, "value");
    Entries d = data;
    int i = indexOf(d.keys, key);
    if (i >= 0) {
      StateData[] values = d.values.clone();
      values[i] = value;
      data = Entries.of(d.keys, values);
    } else {
      String[] keys = Arrays.copyOf(d.keys, d.keys.length + 1);
      StateData[] values = Arrays.copyOf(d.values, d.values.length + 1);
      keys[d.keys.length] = key;
      values[d.values.length] = value;
      data = Entries.of(keys, values);
    }
  }

  /** Removes the value under {@code key}. */
  public synchronized void delete(String key) {
    Entries d = data;
    int i = indexOf(d.keys, key);
    if (i < 0) {
      return;
    }
    int n = d.keys.length;
    String[] keys = new String[n - 1];
    StateData[] values = new StateData[n - 1];
    System.arraycopy(d.keys, 0, keys, 0, i);
    System.arraycopy(d.keys, i + 1, keys, i, n - i - 1);
    System.arraycopy(d.values, 0, values, 0, i);
    System.arraycopy(d.values, i + 1, values, i, n - i - 1);
    data = Entries.of(keys, values);
  }

  /** A copy whose values are the {@link StateData#copy()} of these. */
  public CycleState copy() {
    Entries e = data;
    StateData[] values = new StateData[e.values.length];
    for (int i = 0; i < values.length; i++) {
      values[i] = e.values[i].copy();
    }
    Entries d = Entries.of(e.keys, values);
    Set<String> sf = ConcurrentHashMap.newKeySet();
    sf.addAll(skipFilterPlugins);
    Set<String> ss = ConcurrentHashMap.newKeySet();
    ss.addAll(skipScorePlugins);
    CycleState c = new CycleState(snapshot, d, sf, ss);
    c.recordPluginMetrics = recordPluginMetrics;
    return c;
  }

  /**
   * A new state over the same snapshot holding the same values — shared, not copied, as values are
   * read-only once PreFilter is over — with the same skipped filter plugins, no skipped score
   * plugins and the same metrics sampling. Writes to either state do not show in the other. For the
   * Score phase of a cycle whose PreFilter ran already.
   */
  public CycleState sharedCopy() {
    Set<String> sf = ConcurrentHashMap.newKeySet();
    sf.addAll(skipFilterPlugins);
    CycleState c = new CycleState(snapshot, data, sf, ConcurrentHashMap.newKeySet());
    c.recordPluginMetrics = recordPluginMetrics;
    return c;
  }

  /**
   * Plugins whose Filter and PreFilter extensions are skipped in this cycle (their PreFilter
   * returned Skip).
   */
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
    return Collections.unmodifiableSet(new HashSet<>(Arrays.asList(data.keys)));
  }
}
