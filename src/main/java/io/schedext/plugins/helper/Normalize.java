package io.schedext.plugins.helper;

import io.schedext.framework.NodeScores;
import io.schedext.framework.Status;

/** Score normalisation shared by plugins, as upstream's {@code helper.DefaultNormalizeScore}. */
public final class Normalize {

  private Normalize() {}

  /**
   * Scales scores so the highest becomes {@code maxPriority} (integer arithmetic); with {@code reverse} each score s
   * becomes {@code maxPriority - s}. When every score is 0, reverse sets all to {@code maxPriority} and otherwise
   * leaves them.
   */
  public static Status defaultNormalizeScore(long maxPriority, boolean reverse, NodeScores scores) {
    long max = 0;
    for (int i = 0; i < scores.size(); i++) {
      max = Math.max(max, scores.get(i));
    }
    if (max == 0) {
      if (reverse) {
        for (int i = 0; i < scores.size(); i++) {
          scores.set(i, maxPriority);
        }
      }
      return Status.success();
    }
    for (int i = 0; i < scores.size(); i++) {
      long s = maxPriority * scores.get(i) / max;
      scores.set(i, reverse ? maxPriority - s : s);
    }
    return Status.success();
  }
}
