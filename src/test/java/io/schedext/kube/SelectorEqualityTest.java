package io.schedext.kube;

import static org.assertj.core.api.Assertions.assertThat;

import io.schedext.kube.Requirement.Operator;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * {@link Selector} equality, which memo keys rely on: selectors compiled again from the same text
 * are equal (so the next pod of a workload finds what the last one remembered), and selectors that
 * can match differently are not.
 */
class SelectorEqualityTest {

  record Case(String name, Selector a, Selector b, boolean equal) {
    @Override
    public String toString() {
      return name;
    }
  }

  private static Selector of(Requirement... requirements) {
    return Selector.everything().and(List.of(requirements));
  }

  static Stream<Case> cases() {
    Requirement appA = Requirement.of("app", Operator.IN, List.of("a"));
    return Stream.of(
        new Case(
            "selectors compiled twice from the same requirements are equal",
            of(Requirement.of("app", Operator.IN, List.of("a", "b"))),
            of(Requirement.of("app", Operator.IN, List.of("a", "b"))),
            true),
        new Case(
            "the order of a requirement's values does not matter",
            of(Requirement.of("app", Operator.IN, List.of("a", "b"))),
            of(Requirement.of("app", Operator.IN, List.of("b", "a"))),
            true),
        new Case(
            "a set selector equals the same requirements written out",
            Selector.fromSet(Map.of("app", "a")),
            of(Requirement.equalTo("app", "a")),
            true),
        new Case(
            "another value", of(appA), of(Requirement.of("app", Operator.IN, List.of("b"))), false),
        new Case(
            "another key", of(appA), of(Requirement.of("tier", Operator.IN, List.of("a"))), false),
        new Case(
            "another operator",
            of(appA),
            of(Requirement.of("app", Operator.NOT_IN, List.of("a"))),
            false),
        new Case(
            "one requirement more",
            of(appA),
            of(appA, Requirement.of("tier", Operator.EXISTS, List.of())),
            false),
        new Case("everything is not nothing", Selector.everything(), Selector.nothing(), false),
        new Case(
            "nothing and its requirements added stays nothing",
            Selector.nothing(),
            Selector.nothing().and(List.of(appA)),
            true));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void equalsAndHashCode(Case c) {
    assertThat(c.a().equals(c.b())).isEqualTo(c.equal());
    assertThat(c.b().equals(c.a())).isEqualTo(c.equal());
    if (c.equal()) {
      assertThat(c.a().hashCode()).isEqualTo(c.b().hashCode());
    }
  }
}
