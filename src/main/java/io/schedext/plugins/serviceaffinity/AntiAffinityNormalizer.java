package io.schedext.plugins.serviceaffinity;

import io.schedext.framework.NodeScores;
import io.schedext.framework.ScorePlugin;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * ServiceAffinity's NormalizeScore, as v1.22's {@code updateNodeScoresForLabel}: spreads a
 * service's pods over the values of each anti-affinity label. For label L, with N the sum of all
 * raw scores and c(v) the sum over nodes whose L is v, a node with L=v earns {@code 100 × (N −
 * c(v)) / N} (100 when N is 0) divided by the number of labels; nodes without L earn nothing for
 * it. The per-label shares are added in floating point and truncated once at the end, so the raw
 * scores are replaced (no labels: every score becomes 0). Stateless.
 */
final class AntiAffinityNormalizer {

  private AntiAffinityNormalizer() {}

  /** Replaces the raw counts in {@code scores} by the spreading scores over {@code labels}. */
  static void normalize(List<String> labels, NodeScores scores) {
    int n = scores.size();
    double[] result = new double[n];
    for (String label : labels) {
      addLabelShare(label, labels.size(), scores, result);
    }
    for (int i = 0; i < n; i++) {
      scores.set(i, (long) result[i]);
    }
  }

  private static void addLabelShare(
      String label, int labelCount, NodeScores scores, double[] result) {
    long total = 0;
    Map<String, Long> countByValue = new HashMap<>();
    for (int i = 0; i < scores.size(); i++) {
      total += scores.get(i);
      Map<String, String> nodeLabels = scores.node(i).labels();
      if (nodeLabels.containsKey(label)) {
        countByValue.merge(valueOf(nodeLabels, label), scores.get(i), Long::sum);
      }
    }
    double max = ScorePlugin.MAX_NODE_SCORE;
    for (int i = 0; i < scores.size(); i++) {
      Map<String, String> nodeLabels = scores.node(i).labels();
      if (!nodeLabels.containsKey(label)) {
        continue;
      }
      double share = max;
      if (total > 0) {
        share =
            max
                * ((double) (total - countByValue.get(valueOf(nodeLabels, label)))
                    / (double) total);
      }
      result[i] += share / (double) labelCount;
    }
  }

  private static String valueOf(Map<String, String> labels, String key) {
    String v = labels.get(key);
    return v == null ? "" : v;
  }
}
