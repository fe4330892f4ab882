package io.schedext.kube;

import io.fabric8.kubernetes.api.model.Affinity;
import io.fabric8.kubernetes.api.model.Pod;
import java.util.Map;

/**
 * A pod's hard node constraints: {@code spec.nodeSelector} ANDed with the required node affinity
 * terms, as component-helpers' {@code GetRequiredNodeAffinity}. Immutable and thread-safe.
 */
public final class RequiredNodeAffinity {

  private static final RequiredNodeAffinity NONE = new RequiredNodeAffinity(null, null);

  private final Selector nodeSelector;
  private final NodeSelectorTerms affinityTerms;

  private RequiredNodeAffinity(Selector nodeSelector, NodeSelectorTerms affinityTerms) {
    this.nodeSelector = nodeSelector;
    this.affinityTerms = affinityTerms;
  }

  /** Compiles the pod's node selector and required node affinity. */
  public static RequiredNodeAffinity of(Pod pod) {
    Map<String, String> sel = pod.getSpec() == null ? null : pod.getSpec().getNodeSelector();
    Selector s = sel == null || sel.isEmpty() ? null : Selector.fromSet(sel);
    NodeSelectorTerms terms = null;
    Affinity a = pod.getSpec() == null ? null : pod.getSpec().getAffinity();
    if (a != null
        && a.getNodeAffinity() != null
        && a.getNodeAffinity().getRequiredDuringSchedulingIgnoredDuringExecution() != null) {
      terms =
          NodeSelectorTerms.compile(
              a.getNodeAffinity().getRequiredDuringSchedulingIgnoredDuringExecution());
    }
    return s == null && terms == null ? NONE : new RequiredNodeAffinity(s, terms);
  }

  /**
   * True when the node with this name and labels satisfies both the node selector and the required
   * terms.
   */
  public boolean matches(String nodeName, Map<String, String> nodeLabels) {
    if (nodeSelector != null && !nodeSelector.matches(nodeLabels)) {
      return false;
    }
    return affinityTerms == null || affinityTerms.matches(nodeName, nodeLabels);
  }

  /** True when the pod has neither a node selector nor required node affinity. */
  public boolean isEmpty() {
    return nodeSelector == null && affinityTerms == null;
  }

  /** The compiled required node affinity terms, or null when the pod has none. */
  public NodeSelectorTerms affinityTerms() {
    return affinityTerms;
  }
}
