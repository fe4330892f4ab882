package io.schedext.plugins.interpodaffinity;

import io.schedext.framework.CycleState;
import io.schedext.framework.FrameworkException;
import io.schedext.framework.NodeInfo;
import io.schedext.framework.StateData;
import java.util.HashMap;
import java.util.Map;

/**
 * What InterPodAffinity's PreScore computes for Score, as upstream's {@code preScoreState}: the
 * summed weights per topology key and value. Immutable, so {@link #copy()} returns this; Score
 * reads it without allocating.
 */
final class PreScoreState implements StateData {

  private final String[] keys;
  private final Map<String, Long>[] values;

  PreScoreState(String[] keys, Map<String, Long>[] values) {
    this.keys = keys;
    this.values = values;
  }

  /**
   * Reads the state PreScore wrote; throws {@link FrameworkException} with upstream's message when
   * it is missing.
   */
  static PreScoreState read(CycleState state, String key) {
    if (!(state.readOrNull(key) instanceof PreScoreState s)) {
      throw new FrameworkException("failed to read \"" + key + "\" from cycleState: not found");
    }
    return s;
  }

  /** The sum, over the topology keys the node carries, of the score at the node's value. */
  long score(NodeInfo node) {
    long score = 0;
    for (int i = 0; i < keys.length; i++) {
      String value = TopologyPairCounts.topologyValue(node, keys[i]);
      if (value != null) {
        Long s = values[i].get(value);
        if (s != null) {
          score += s;
        }
      }
    }
    return score;
  }

  /** True when no topology key was scored. */
  boolean isEmpty() {
    return keys.length == 0;
  }

  /** The scores as nested maps (key → value → score), for diagnostics. */
  Map<String, Map<String, Long>> asMap() {
    Map<String, Map<String, Long>> out = new HashMap<>();
    for (int i = 0; i < keys.length; i++) {
      out.put(keys[i], values[i]);
    }
    return out;
  }

  @Override
  public PreScoreState copy() {
    return this;
  }

  @Override
  public String toString() {
    return "PreScoreState" + asMap();
  }
}
