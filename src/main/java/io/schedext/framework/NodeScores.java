package io.schedext.framework;

/**
 * One plugin's scores for the nodes of a cycle, index-aligned with the node list. Mutable; owned by
 * one thread at a time (Score writes distinct indexes concurrently, NormalizeScore runs alone).
 */
public final class NodeScores {

  private final NodeInfo[] nodes;
  private final long[] scores;

  /** Scores of 0 for each node. */
  public NodeScores(NodeInfo[] nodes) {
    this.nodes = nodes;
    this.scores = new long[nodes.length];
  }

  /** Scores for {@code nodes} with the given values (copied). */
  public NodeScores(NodeInfo[] nodes, long[] values) {
    this.nodes = nodes;
    this.scores = values.clone();
  }

  /** The number of nodes. */
  public int size() {
    return nodes.length;
  }

  /** The node at {@code i}. */
  public NodeInfo node(int i) {
    return nodes[i];
  }

  /** The node name at {@code i}. */
  public String name(int i) {
    return nodes[i].name();
  }

  /** The score at {@code i}. */
  public long get(int i) {
    return scores[i];
  }

  /** Sets the score at {@code i}. */
  public void set(int i, long score) {
    scores[i] = score;
  }

  /**
   * The scores themselves (not a copy), for the runtime once scoring is over: callers must not
   * change them.
   */
  public long[] values() {
    return scores;
  }

  /** A copy of the scores. */
  public long[] toArray() {
    return scores.clone();
  }
}
