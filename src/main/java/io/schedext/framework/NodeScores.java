package io.schedext.framework;

/**
 * One plugin's scores for the nodes of a cycle, index-aligned with the node list. Mutable; owned by
 * one thread at a time (Score writes distinct indexes concurrently, NormalizeScore runs alone). A
 * plugin must not keep it beyond its NormalizeScore call: the runtime may reuse its array in the
 * next cycle.
 */
public final class NodeScores {

  private final NodeInfo[] nodes;
  private final long[] scores;

  /** Scores of 0 for each node. */
  public NodeScores(NodeInfo[] nodes) {
    this(nodes, new long[nodes.length], false);
  }

  /**
   * Scores for {@code nodes} held in {@code scores} itself, not a copy, whatever it holds: for the
   * runtime's arrays reused from one cycle to the next, every one of whose scores Score sets before
   * any is read.
   *
   * @throws IllegalArgumentException when {@code scores} is not as long as {@code nodes}
   */
  public static NodeScores over(NodeInfo[] nodes, long[] scores) {
    if (scores.length != nodes.length) {
      throw new IllegalArgumentException(
          scores.length + " scores for " + nodes.length + " nodes: one each, no more");
    }
    return new NodeScores(nodes, scores, false);
  }

  /** Scores for {@code nodes} with the given values (copied). */
  public NodeScores(NodeInfo[] nodes, long[] values) {
    this(nodes, values, true);
  }

  private NodeScores(NodeInfo[] nodes, long[] scores, boolean copy) {
    this.nodes = nodes;
    this.scores = copy ? scores.clone() : scores;
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
