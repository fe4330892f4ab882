package io.schedext.plugins.defaultpreemption;

import io.fabric8.kubernetes.api.model.policy.v1.PodDisruptionBudget;
import io.schedext.framework.PodInfo;
import io.schedext.kube.LabelSelectors;
import io.schedext.kube.Selector;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The PodDisruptionBudgets (policy/v1) one preemption attempt counts against, compiled once, and
 * upstream's split of would-be victims into the pods whose eviction violates a budget and the rest
 * ({@code filterPodsWithPDBViolation}). Immutable and thread-safe.
 */
final class DisruptionBudgets {

  /** No budgets at all: every pod may be evicted without violating one. */
  public static final DisruptionBudgets NONE = new DisruptionBudgets(List.of());

  /**
   * One budget that can match pods.
   *
   * @param namespace the budget's namespace; it only covers pods there
   * @param selector its compiled, non-empty selector
   * @param allowed {@code status.disruptionsAllowed}
   * @param disrupted the pod names in {@code status.disruptedPods} (evictions the API server
   *     already counted)
   */
  private record Budget(String namespace, Selector selector, int allowed, Set<String> disrupted) {}

  /**
   * Would-be victims split by budget, each group in the order it was given.
   *
   * @param violating the pods whose eviction takes some matching budget below zero
   * @param nonViolating every other pod
   */
  record Split(List<PodInfo> violating, List<PodInfo> nonViolating) {}

  private final List<Budget> budgets;

  private DisruptionBudgets(List<Budget> budgets) {
    this.budgets = budgets;
  }

  /**
   * Compiles {@code pdbs}. A budget whose selector is missing, empty or malformed matches no pod
   * (as upstream), so it is left out.
   */
  public static DisruptionBudgets of(List<PodDisruptionBudget> pdbs) {
    if (pdbs == null || pdbs.isEmpty()) {
      return NONE;
    }
    List<Budget> out = new ArrayList<>(pdbs.size());
    for (PodDisruptionBudget pdb : pdbs) {
      Selector selector;
      try {
        selector =
            LabelSelectors.compile(pdb.getSpec() == null ? null : pdb.getSpec().getSelector());
      } catch (IllegalArgumentException e) {
        continue;
      }
      if (selector.isNothing() || selector.isEverything()) {
        continue;
      }
      var status = pdb.getStatus();
      int allowed =
          status == null || status.getDisruptionsAllowed() == null
              ? 0
              : status.getDisruptionsAllowed();
      Map<String, String> disrupted = status == null ? null : status.getDisruptedPods();
      String ns =
          pdb.getMetadata() == null || pdb.getMetadata().getNamespace() == null
              ? ""
              : pdb.getMetadata().getNamespace();
      out.add(
          new Budget(
              ns,
              selector,
              allowed,
              disrupted == null ? Set.of() : Set.copyOf(disrupted.keySet())));
    }
    return new DisruptionBudgets(List.copyOf(out));
  }

  /**
   * Splits {@code pods} (in the order given, normally most important first) as upstream does:
   * walking the pods in order, each matching budget of the pod's namespace that does not already
   * list the pod as disrupted loses one allowed disruption; a pod that takes any of them below zero
   * is violating. Pods without labels match no budget.
   */
  Split split(List<PodInfo> pods) {
    int[] allowed = new int[budgets.size()];
    for (int i = 0; i < allowed.length; i++) {
      allowed[i] = budgets.get(i).allowed();
    }
    List<PodInfo> violating = new ArrayList<>();
    List<PodInfo> nonViolating = new ArrayList<>(pods.size());
    for (PodInfo p : pods) {
      boolean violates = false;
      if (!p.labels().isEmpty()) {
        for (int i = 0; i < allowed.length; i++) {
          Budget b = budgets.get(i);
          if (!b.namespace().equals(p.namespace())
              || !b.selector().matches(p.labels())
              || b.disrupted().contains(p.name())) {
            continue;
          }
          allowed[i]--;
          if (allowed[i] < 0) {
            violates = true;
          }
        }
      }
      (violates ? violating : nonViolating).add(p);
    }
    return new Split(violating, nonViolating);
  }
}
