package io.schedext.plugins.interpodaffinity;

import io.fabric8.kubernetes.api.model.Namespace;
import io.schedext.framework.AffinityTerm;
import io.schedext.framework.ClusterObjects;
import io.schedext.framework.WeightedAffinityTerm;
import io.schedext.kube.Selector;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Resolves namespace selectors against the cluster's Namespace objects, as upstream does for the
 * incoming pod's terms in PreFilter and PreScore ({@code mergeAffinityTermNamespacesIfNotEmpty},
 * {@code GetNamespaceLabelsSnapshot}).
 */
final class TermNamespaces {

  private TermNamespaces() {}

  /**
   * The terms with each namespace selector unrolled: the names of the matching namespaces join the
   * term's namespace list and the selector becomes "nothing". An empty selector (all namespaces) is
   * kept as it is, so such a term matches pods of every namespace without looking up their
   * namespace's labels.
   */
  static List<AffinityTerm> merge(List<AffinityTerm> terms, ClusterObjects objects) {
    if (terms.isEmpty()) {
      return terms;
    }
    List<AffinityTerm> out = new ArrayList<>(terms.size());
    for (AffinityTerm t : terms) {
      out.add(merge(t, objects));
    }
    return List.copyOf(out);
  }

  /** As {@link #merge(List, ClusterObjects)} for weighted terms, keeping the weights. */
  static List<WeightedAffinityTerm> mergeWeighted(
      List<WeightedAffinityTerm> terms, ClusterObjects objects) {
    if (terms.isEmpty()) {
      return terms;
    }
    List<WeightedAffinityTerm> out = new ArrayList<>(terms.size());
    for (WeightedAffinityTerm w : terms) {
      out.add(new WeightedAffinityTerm(merge(w.term(), objects), w.weight()));
    }
    return List.copyOf(out);
  }

  private static AffinityTerm merge(AffinityTerm t, ClusterObjects objects) {
    Selector nsSelector = t.namespaceSelector();
    if (nsSelector.isEverything()) {
      return t;
    }
    Set<String> names = new HashSet<>(t.namespaces());
    if (!nsSelector.isNothing()) {
      for (Namespace ns : objects.namespaces()) {
        if (nsSelector.matches(ns.getMetadata().getLabels())) {
          names.add(ns.getMetadata().getName());
        }
      }
    }
    return new AffinityTerm(Set.copyOf(names), t.selector(), t.topologyKey(), Selector.nothing());
  }

  /**
   * The labels of namespace {@code name}; empty when the namespace is unknown (upstream logs and
   * goes on).
   */
  static Map<String, String> labelsOf(String name, ClusterObjects objects) {
    Namespace ns = objects.namespace(name);
    if (ns == null || ns.getMetadata() == null || ns.getMetadata().getLabels() == null) {
      return Map.of();
    }
    Copied copied = COPIES.get(name);
    if (copied != null && copied.from() == ns) {
      return copied.labels();
    }
    Map<String, String> labels =
        Collections.unmodifiableMap(new HashMap<>(ns.getMetadata().getLabels()));
    if (COPIES.size() >= MAX_COPIES) {
      COPIES.clear();
    }
    COPIES.put(name, new Copied(ns, labels));
    return labels;
  }

  /**
   * The labels copied from one Namespace object. The cluster's objects are replaced, never changed,
   * when an update arrives, so a copy serves every pod of the namespace until its object is
   * replaced: one copy per namespace update rather than per call, and the same map instance in
   * every key built from it, which those keys then compare by reference.
   */
  private record Copied(Namespace from, Map<String, String> labels) {}

  private static final Map<String, Copied> COPIES = new ConcurrentHashMap<>();

  /** The most namespaces whose copies are kept; beyond it they are all dropped and made again. */
  private static final int MAX_COPIES = 4096;
}
