package io.schedext.framework;

/**
 * A Filter plugin that can tell more about why it rejected a node than its reason, which stays
 * upstream's: explain asks it, after the fact and only for the nodes it rejected (or failed on),
 * and shows the answer beside the reason. Never called on the scheduling path; may take longer than
 * Filter. Implementations are thread-safe like Filter and change nothing.
 */
public interface FilterDiagnoser extends FilterPlugin {

  /**
   * What this plugin can add about its {@code status} (a rejection or an error) on {@code node} for
   * {@code pod}, with the cycle state Filter ran with; null when it has nothing to add.
   */
  FilterDiagnosis diagnose(CycleState state, PodInfo pod, NodeInfo node, Status status);
}
