package io.schedext.framework;

/** Rewrites one plugin's raw scores over all scored nodes into the 0–100 range. */
public interface ScoreExtensions {

  /** Normalises {@code scores} in place. */
  Status normalizeScore(CycleState state, PodInfo pod, NodeScores scores);
}
