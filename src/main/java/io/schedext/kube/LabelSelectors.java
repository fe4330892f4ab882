package io.schedext.kube;

import io.fabric8.kubernetes.api.model.LabelSelector;
import io.fabric8.kubernetes.api.model.LabelSelectorRequirement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Compiles metav1 label selectors into {@link Selector}s, as apimachinery's {@code
 * LabelSelectorAsSelector}.
 */
public final class LabelSelectors {

  private LabelSelectors() {}

  /**
   * Compiles {@code ls}: null matches nothing, an empty selector matches everything. Throws {@link
   * IllegalArgumentException} for an unknown operator or malformed requirement.
   */
  public static Selector compile(LabelSelector ls) {
    if (ls == null) {
      return Selector.nothing();
    }
    Map<String, String> matchLabels = ls.getMatchLabels();
    List<LabelSelectorRequirement> exprs = ls.getMatchExpressions();
    int n = (matchLabels == null ? 0 : matchLabels.size()) + (exprs == null ? 0 : exprs.size());
    if (n == 0) {
      return Selector.everything();
    }
    List<Requirement> reqs = new ArrayList<>(n);
    if (matchLabels != null) {
      for (Map.Entry<String, String> e : matchLabels.entrySet()) {
        reqs.add(
            Requirement.of(
                e.getKey(), Requirement.Operator.EQUALS, List.of(nullToEmpty(e.getValue()))));
      }
    }
    if (exprs != null) {
      for (LabelSelectorRequirement r : exprs) {
        Requirement.Operator op =
            switch (nullToEmpty(r.getOperator())) {
              case "In" -> Requirement.Operator.IN;
              case "NotIn" -> Requirement.Operator.NOT_IN;
              case "Exists" -> Requirement.Operator.EXISTS;
              case "DoesNotExist" -> Requirement.Operator.DOES_NOT_EXIST;
              default ->
                  throw new IllegalArgumentException(
                      "\"" + r.getOperator() + "\" is not a valid label selector operator");
            };
        reqs.add(Requirement.of(r.getKey(), op, r.getValues()));
      }
    }
    return new Selector(reqs, false);
  }

  private static String nullToEmpty(String s) {
    return s == null ? "" : s;
  }
}
