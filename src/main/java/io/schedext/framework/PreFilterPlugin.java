package io.schedext.framework;

/**
 * Runs once per scheduling cycle before Filter: pre-computes what Filter needs into {@link
 * CycleState}, may reject the pod outright, or narrow the nodes worth filtering. Plugins run
 * serially in configured order.
 */
public interface PreFilterPlugin extends Plugin {

  /**
   * Returns the status (Success, a rejection, Error, or Skip to skip this plugin's Filter) and
   * optionally the node names worth filtering ({@link PreFilterResult#nodeNames()} null = all
   * nodes).
   */
  PreFilterResult preFilter(CycleState state, PodInfo pod);

  /**
   * The AddPod/RemovePod extensions that keep this plugin's state right in simulations, or null.
   */
  default PreFilterExtensions preFilterExtensions() {
    return null;
  }
}
