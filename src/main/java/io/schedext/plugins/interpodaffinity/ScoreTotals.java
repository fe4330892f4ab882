package io.schedext.plugins.interpodaffinity;

import io.schedext.framework.NodeInfo;
import io.schedext.framework.RunningTotals;
import java.util.HashMap;
import java.util.Map;

/**
 * PreScore's per-node topology scores summed over the cluster, for {@link RunningTotals}: per
 * topology key and value the summed weight and how many nodes' scores hold that pair, so that a
 * pair leaves the total exactly when the last node contributing it changes (upstream's total has a
 * pair when some node contributed it, even with a zero sum).
 */
final class ScoreTotals
    implements RunningTotals.Sum<TopologyScores, Map<String, Map<String, long[]>>> {

  private final TopologyScores.Incoming incoming;

  /** Sums the scores of {@code incoming}, remembered on each node under its key. */
  ScoreTotals(TopologyScores.Incoming incoming) {
    this.incoming = incoming;
  }

  @Override
  public Map<String, Map<String, long[]>> empty() {
    return new HashMap<>();
  }

  @Override
  public TopologyScores contribution(NodeInfo node) {
    if (node.node() == null
        || (incoming.key().allPods() ? node.pods() : node.podsWithAffinity()).isEmpty()) {
      return null;
    }
    TopologyScores s = node.memoizeObject(incoming.key(), incoming, TopologyScores::on);
    return s.isEmpty() ? null : s;
  }

  @Override
  public void add(Map<String, Map<String, long[]>> total, TopologyScores c) {
    c.forEach(
        (key, value, score) -> {
          long[] cell =
              total
                  .computeIfAbsent(key, k -> new HashMap<>())
                  .computeIfAbsent(value, v -> new long[2]);
          cell[0] += score;
          cell[1]++;
        });
  }

  @Override
  public void subtract(Map<String, Map<String, long[]>> total, TopologyScores c) {
    c.forEach(
        (key, value, score) -> {
          Map<String, long[]> values = total.get(key);
          long[] cell = values.get(value);
          cell[0] -= score;
          if (--cell[1] == 0) {
            values.remove(value);
            if (values.isEmpty()) {
              total.remove(key);
            }
          }
        });
  }

  /** The total as Score reads it, or null when no node contributed anything. */
  static PreScoreState freeze(Map<String, Map<String, long[]>> total) {
    if (total.isEmpty()) {
      return null;
    }
    String[] keys = new String[total.size()];
    @SuppressWarnings("unchecked")
    Map<String, Long>[] values = new Map[total.size()];
    int i = 0;
    for (Map.Entry<String, Map<String, long[]>> e : total.entrySet()) {
      keys[i] = e.getKey();
      Map<String, Long> sums = new HashMap<>(e.getValue().size() * 2);
      e.getValue().forEach((v, cell) -> sums.put(v, cell[0]));
      values[i] = Map.copyOf(sums);
      i++;
    }
    return new PreScoreState(keys, values);
  }
}
