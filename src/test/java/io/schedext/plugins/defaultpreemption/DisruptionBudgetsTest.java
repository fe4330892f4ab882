package io.schedext.plugins.defaultpreemption;

import static io.schedext.plugins.defaultpreemption.Fixtures.LOW;
import static io.schedext.plugins.defaultpreemption.Fixtures.pdb;
import static io.schedext.plugins.defaultpreemption.Fixtures.pod;
import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.LabelSelector;
import io.fabric8.kubernetes.api.model.LabelSelectorRequirement;
import io.fabric8.kubernetes.api.model.policy.v1.PodDisruptionBudget;
import io.schedext.framework.PodInfo;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * How would-be victims (given most important first) split into PDB-violating and non-violating
 * ones, as upstream's {@code filterPodsWithPDBViolation}.
 */
class DisruptionBudgetsTest {

  record Case(
      String name, List<PodInfo> pods, List<PodDisruptionBudget> pdbs, List<String> wantViolating) {
    @Override
    public String toString() {
      return name;
    }
  }

  private static final Map<String, String> FOO = Map.of("app", "foo");

  private static PodInfo foo(String name) {
    return pod(name, LOW).label("app", "foo").info();
  }

  private static LabelSelector badOperator() {
    LabelSelectorRequirement r = new LabelSelectorRequirement();
    r.setKey("app");
    r.setOperator("Near");
    return new LabelSelector(List.of(r), null);
  }

  private static LabelSelector doesNotExist(String key) {
    LabelSelectorRequirement r = new LabelSelectorRequirement();
    r.setKey(key);
    r.setOperator("DoesNotExist");
    return new LabelSelector(List.of(r), null);
  }

  static Stream<Case> cases() {
    List<PodInfo> three = List.of(foo("a"), foo("b"), foo("c"));
    return Stream.of(
        new Case("no budgets: nothing violates", three, List.of(), List.of()),
        new Case(
            "a budget allowing no disruption is violated by every matching pod",
            three,
            List.of(pdb("pdb", FOO, 0)),
            List.of("a", "b", "c")),
        new Case(
            "a budget allowing two disruptions is violated only by the third pod in order",
            three,
            List.of(pdb("pdb", FOO, 2)),
            List.of("c")),
        new Case(
            "pods the budget already lists as disrupted neither use it up nor violate it",
            three,
            List.of(pdb("pdb", FOO, 1, "a")),
            List.of("c")),
        new Case(
            "a budget in another namespace does not cover the pods",
            three,
            List.of(pdb("pdb", "other", new LabelSelector(null, FOO), 0)),
            List.of()),
        new Case(
            "a budget with an empty selector matches nothing",
            three,
            List.of(pdb("pdb", "default", new LabelSelector(), 0)),
            List.of()),
        new Case(
            "a budget without a selector matches nothing",
            three,
            List.of(pdb("pdb", null, 0)),
            List.of()),
        new Case(
            "a budget with a malformed selector matches nothing",
            three,
            List.of(pdb("pdb", "default", badOperator(), 0)),
            List.of()),
        new Case(
            "a pod without labels never matches, even a selector it would satisfy",
            List.of(pod("bare", LOW).info()),
            List.of(pdb("pdb", "default", doesNotExist("app"), 0)),
            List.of()),
        new Case(
            "a pod violating any one of two matching budgets is violating; both budgets are used up",
            three,
            List.of(pdb("roomy", FOO, 5), pdb("tight", FOO, 1)),
            List.of("b", "c")),
        new Case(
            "pods not matching keep the budget for those that do",
            List.of(pod("x", LOW).label("app", "bar").info(), foo("a"), foo("b")),
            List.of(pdb("pdb", FOO, 1)),
            List.of("b")));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void split(Case c) {
    DisruptionBudgets.Split s = DisruptionBudgets.of(c.pdbs()).split(c.pods());

    assertThat(s.violating().stream().map(PodInfo::name).toList()).isEqualTo(c.wantViolating());
    assertThat(s.nonViolating().stream().map(PodInfo::name).toList())
        .isEqualTo(
            c.pods().stream()
                .map(PodInfo::name)
                .filter(n -> !c.wantViolating().contains(n))
                .toList());
  }
}
