package io.schedext.framework;

/**
 * The outcome of the Score phase: per plugin the raw and normalised scores and the weight, per node
 * the weighted total. Arrays are index-aligned with {@link #nodes()}. Treat as read-only.
 *
 * @param status Success, or the Error that stopped scoring
 * @param nodes the scored nodes
 * @param plugins the score plugins that ran, in order
 * @param weights their weights
 * @param raw raw scores per plugin per node, or null when not asked for
 * @param normalized normalised scores per plugin per node, or null when the raw scores were not
 *     asked for either (the runtime then reuses their arrays in the next cycle)
 * @param totals Σ normalised × weight per node
 */
public record ScoreResult(
    Status status,
    NodeInfo[] nodes,
    String[] plugins,
    int[] weights,
    long[][] raw,
    long[][] normalized,
    long[] totals) {

  /** The result of scoring that failed with {@code status}: no nodes, plugins or scores. */
  public static ScoreResult failed(Status status) {
    return new ScoreResult(
        status,
        new NodeInfo[0],
        new String[0],
        new int[0],
        new long[0][],
        new long[0][],
        new long[0]);
  }
}
