package io.schedext.plugins.nodeaffinity;

import io.fabric8.kubernetes.api.model.NodeSelectorTerm;
import io.fabric8.kubernetes.api.model.PreferredSchedulingTerm;
import io.schedext.kube.NodeSelectorTerms;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Compiled preferred node affinity terms with their weights, as component-helpers' {@code
 * PreferredSchedulingTerms}: terms with weight 0 or without requirements are dropped, any other
 * term that does not parse fails the whole list. Immutable and thread-safe; {@link #score}
 * allocates nothing.
 */
final class PreferredSchedulingTerms {

  private final NodeSelectorTerms.Term[] terms;
  private final long[] weights;

  private PreferredSchedulingTerms(List<NodeSelectorTerms.Term> terms, List<Long> weights) {
    this.terms = terms.toArray(new NodeSelectorTerms.Term[0]);
    this.weights = weights.stream().mapToLong(Long::longValue).toArray();
  }

  /**
   * Compiles {@code raw}; returns null after adding one entry per faulty term to {@code errors},
   * each prefixed with {@code path[i]}.
   */
  static PreferredSchedulingTerms compile(
      List<PreferredSchedulingTerm> raw, String path, List<String> errors) {
    List<NodeSelectorTerms.Term> terms = new ArrayList<>(raw.size());
    List<Long> weights = new ArrayList<>(raw.size());
    int errorsBefore = errors.size();
    for (int i = 0; i < raw.size(); i++) {
      PreferredSchedulingTerm p = raw.get(i);
      int weight = p.getWeight() == null ? 0 : p.getWeight();
      if (weight == 0 || isEmpty(p.getPreference())) {
        continue;
      }
      NodeSelectorTerms one = NodeSelectorTerms.compileTerms(List.of(p.getPreference()));
      if (!one.parseErrors().isEmpty()) {
        for (String e : one.parseErrors()) {
          errors.add(path + "[" + i + "]: " + e);
        }
        continue;
      }
      terms.add(one.term(0));
      weights.add((long) weight);
    }
    return errors.size() > errorsBefore ? null : new PreferredSchedulingTerms(terms, weights);
  }

  /** The sum of the weights of the terms the node with this name and labels matches. */
  long score(String nodeName, Map<String, String> nodeLabels) {
    long sum = 0;
    for (int i = 0; i < terms.length; i++) {
      if (terms[i].matches(nodeName, nodeLabels)) {
        sum += weights[i];
      }
    }
    return sum;
  }

  /**
   * Joins errors as apimachinery's aggregate error prints them: one alone, several as {@code [a,
   * b]}.
   */
  static String aggregate(List<String> errors) {
    List<String> distinct = errors.stream().distinct().toList();
    return distinct.size() == 1 ? distinct.get(0) : "[" + String.join(", ", distinct) + "]";
  }

  private static boolean isEmpty(NodeSelectorTerm t) {
    return t == null
        || (t.getMatchExpressions() == null || t.getMatchExpressions().isEmpty())
            && (t.getMatchFields() == null || t.getMatchFields().isEmpty());
  }
}
