package io.schedext.framework;

/**
 * Ranks feasible nodes. Called concurrently for different nodes, and over 1,000 nodes now and then
 * twice for the same node of a cycle (only one score is kept; the other may come after the cycle
 * moved on): change no shared state. The raw score may be any long when the plugin has {@link
 * ScoreExtensions}; after normalising every score must be within [{@link #MIN_NODE_SCORE}, {@link
 * #MAX_NODE_SCORE}]. An internal fault is reported by throwing {@link FrameworkException}, which
 * becomes an Error status.
 */
public interface ScorePlugin extends Plugin {

  /** The highest score a plugin may give after normalising. */
  long MAX_NODE_SCORE = 100;

  /** The lowest score a plugin may give after normalising. */
  long MIN_NODE_SCORE = 0;

  /** The raw score of {@code node} for the pod. */
  long score(CycleState state, PodInfo pod, NodeInfo node);

  /** The NormalizeScore extension, or null. */
  default ScoreExtensions scoreExtensions() {
    return null;
  }
}
