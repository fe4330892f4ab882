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

  private final ConcurrentHashMap<String, StateData> data;
  private final NodeInfoLister snapshot;
  private final Set<String> skipFilterPlugins;
  private final Set<String> skipScorePlugins;
  private volatile boolean recordPluginMetrics;

  /** A new empty state over {@code snapshot}. */
  public CycleState(NodeInfoLister snapshot) {
    this(snapshot, new ConcurrentHashMap<>(), ConcurrentHashMap.newKeySet(), ConcurrentHashMap.newKeySet());
  }

  private CycleState(
      NodeInfoLister snapshot,
      ConcurrentHashMap<String, StateData> data,
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
    StateData d = data.get(key);
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
    return data.get(key);
  }

  /** Stores {@code value} under {@code key}, replacing any previous value. */
  public void write(String key, StateData value) {
    data.put(key, value);
  }

  /** Removes the value under {@code key}. */
  public void delete(String key) {
    data.remove(key);
  }

  /** A copy whose values are the {@link StateData#copy()} of these. */
  public CycleState copy() {
    ConcurrentHashMap<String, StateData> d = new ConcurrentHashMap<>(Math.max(16, data.size() * 2));
    data.forEach((k, v) -> d.put(k, v.copy()));
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
    return Collections.unmodifiableSet(new HashSet<>(data.keySet()));
  }
}
