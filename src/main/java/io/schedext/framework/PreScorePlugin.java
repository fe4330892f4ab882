package io.schedext.framework;

import java.util.List;

/**
 * Runs once per cycle before Score with the feasible nodes; pre-computes what Score reads. Plugins
 * run serially.
 */
public interface PreScorePlugin extends Plugin {

  /** Returns Success, Skip (this plugin's Score is skipped for the cycle) or Error. */
  Status preScore(CycleState state, PodInfo pod, List<NodeInfo> nodes);
}
