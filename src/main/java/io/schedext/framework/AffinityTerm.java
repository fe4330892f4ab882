package io.schedext.framework;

import io.fabric8.kubernetes.api.model.PodAffinityTerm;
import io.schedext.kube.LabelSelectors;
import io.schedext.kube.Selector;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * A compiled pod (anti-)affinity term, as upstream's {@code framework.AffinityTerm}: the namespaces
 * it names (the owner's namespace when it names none and has no namespace selector), the label
 * selector, the topology key and the namespace selector. Immutable and thread-safe.
 *
 * @param namespaces namespaces listed by the term, or the owner pod's namespace
 * @param selector the compiled label selector (null selector matches nothing)
 * @param topologyKey the topology key
 * @param namespaceSelector the compiled namespace selector (null selector matches nothing, empty
 *     matches all)
 */
public record AffinityTerm(
    Set<String> namespaces, Selector selector, String topologyKey, Selector namespaceSelector) {

  /** Compiles {@code term} as written in a pod in namespace {@code ownerNamespace}. */
  public static AffinityTerm compile(String ownerNamespace, PodAffinityTerm term) {
    Selector selector = LabelSelectors.compile(term.getLabelSelector());
    List<String> listed = term.getNamespaces();
    Set<String> namespaces;
    if ((listed == null || listed.isEmpty()) && term.getNamespaceSelector() == null) {
      namespaces = Set.of(ownerNamespace);
    } else {
      namespaces = listed == null ? Set.of() : Set.copyOf(listed);
    }
    Selector nsSelector = LabelSelectors.compile(term.getNamespaceSelector());
    return new AffinityTerm(
        namespaces,
        selector,
        term.getTopologyKey() == null ? "" : term.getTopologyKey(),
        nsSelector);
  }

  /**
   * True when {@code pod} is in one of the term's namespaces (or its namespace's labels match the
   * namespace selector) and its labels match the selector.
   */
  public boolean matches(PodInfo pod, Map<String, String> namespaceLabels) {
    if (namespaces.contains(pod.namespace()) || namespaceSelector.matches(namespaceLabels)) {
      return selector.matches(pod.labels());
    }
    return false;
  }

  // Written out rather than left to the record: the generated methods go through a method handle
  // chain that the compiler, with the image's inlining limits, does not fold, and interned keys
  // holding terms compare them on every call.
  @Override
  public boolean equals(Object o) {
    return o == this
        || (o instanceof AffinityTerm t
            && Objects.equals(topologyKey, t.topologyKey)
            && Objects.equals(namespaces, t.namespaces)
            && Objects.equals(selector, t.selector)
            && Objects.equals(namespaceSelector, t.namespaceSelector));
  }

  @Override
  public int hashCode() {
    int h = Objects.hashCode(namespaces);
    h = 31 * h + Objects.hashCode(selector);
    h = 31 * h + Objects.hashCode(topologyKey);
    return 31 * h + Objects.hashCode(namespaceSelector);
  }
}
