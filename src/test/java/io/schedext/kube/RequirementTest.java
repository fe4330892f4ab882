package io.schedext.kube;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.schedext.kube.Requirement.Operator;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * {@link Requirement} validation and matching, and {@link Selector} composition, as apimachinery's
 * labels.
 */
class RequirementTest {

  record MatchCase(
      String name, Operator op, List<String> values, Map<String, String> labels, boolean matches) {
    @Override
    public String toString() {
      return name;
    }
  }

  static Stream<MatchCase> matchCases() {
    return Stream.of(
        new MatchCase(
            "= needs the exact value", Operator.EQUALS, List.of("v"), Map.of("k", "v"), true),
        new MatchCase("= fails on a missing key", Operator.EQUALS, List.of("v"), Map.of(), false),
        new MatchCase(
            "!= matches a missing key", Operator.NOT_EQUALS, List.of("v"), Map.of(), true),
        new MatchCase(
            "!= fails on the value", Operator.NOT_EQUALS, List.of("v"), Map.of("k", "v"), false),
        new MatchCase(
            "in matches any listed value", Operator.IN, List.of("a", "b"), Map.of("k", "b"), true),
        new MatchCase(
            "notin fails on a listed value",
            Operator.NOT_IN,
            List.of("a", "b"),
            Map.of("k", "a"),
            false),
        new MatchCase("exists", Operator.EXISTS, List.of(), Map.of("k", ""), true),
        new MatchCase("does not exist", Operator.DOES_NOT_EXIST, List.of(), Map.of("x", "y"), true),
        new MatchCase(
            "Gt matches a larger integer",
            Operator.GREATER_THAN,
            List.of("5"),
            Map.of("k", "6"),
            true),
        new MatchCase(
            "Gt fails on an equal integer",
            Operator.GREATER_THAN,
            List.of("5"),
            Map.of("k", "5"),
            false),
        new MatchCase(
            "Gt fails on a value that is not an integer",
            Operator.GREATER_THAN,
            List.of("5"),
            Map.of("k", "6x"),
            false),
        new MatchCase(
            "Gt fails on a missing key", Operator.GREATER_THAN, List.of("5"), Map.of(), false),
        new MatchCase(
            "Lt matches a smaller integer",
            Operator.LESS_THAN,
            List.of("5"),
            Map.of("k", "4"),
            true),
        new MatchCase(
            "Lt compares numbers, not text",
            Operator.LESS_THAN,
            List.of("10"),
            Map.of("k", "9"),
            true),
        new MatchCase(
            "Lt accepts a leading zero in the label",
            Operator.LESS_THAN,
            List.of("10"),
            Map.of("k", "09"),
            true));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("matchCases")
  void matches(MatchCase c) {
    assertThat(Requirement.of("k", c.op(), c.values()).matches(c.labels())).isEqualTo(c.matches());
  }

  record ErrorCase(String name, String key, Operator op, List<String> values, String message) {
    @Override
    public String toString() {
      return name;
    }
  }

  static Stream<ErrorCase> errorCases() {
    return Stream.of(
        new ErrorCase("an empty key", "", Operator.EXISTS, List.of(), "invalid label key \"\""),
        new ErrorCase(
            "a key with two slashes",
            "a/b/c",
            Operator.EXISTS,
            List.of(),
            "invalid label key \"a/b/c\""),
        new ErrorCase(
            "a key whose name part is longer than 63",
            "x".repeat(64),
            Operator.EXISTS,
            List.of(),
            "invalid label key \"" + "x".repeat(64) + "\""),
        new ErrorCase(
            "a key with an upper-case prefix",
            "Example.com/a",
            Operator.EXISTS,
            List.of(),
            "invalid label key \"Example.com/a\""),
        new ErrorCase(
            "in without values",
            "k",
            Operator.IN,
            List.of(),
            "for 'in', 'notin' operators, values set can't be empty"),
        new ErrorCase(
            "= with two values",
            "k",
            Operator.EQUALS,
            List.of("a", "b"),
            "exact-match compatibility requires one single value"),
        new ErrorCase(
            "exists with a value",
            "k",
            Operator.DOES_NOT_EXIST,
            List.of("a"),
            "values set must be empty for exists and does not exist"),
        new ErrorCase(
            "Gt with two values",
            "k",
            Operator.GREATER_THAN,
            List.of("1", "2"),
            "for 'Gt', 'Lt' operators, exactly one value is required"),
        new ErrorCase(
            "Gt with text",
            "k",
            Operator.GREATER_THAN,
            List.of("x"),
            "for 'Gt', 'Lt' operators, the value must be an integer"),
        new ErrorCase(
            "Lt with a negative bound, which is no label value",
            "k",
            Operator.LESS_THAN,
            List.of("-1"),
            "invalid label value: \"-1\""),
        new ErrorCase(
            "a value longer than 63",
            "k",
            Operator.IN,
            List.of("v".repeat(64)),
            "invalid label value: \"" + "v".repeat(64) + "\""),
        new ErrorCase(
            "a value ending with a dash",
            "k",
            Operator.IN,
            List.of("v-"),
            "invalid label value: \"v-\""));
  }

  @ParameterizedTest(name = "{0} is rejected")
  @MethodSource("errorCases")
  void validation(ErrorCase c) {
    assertThatThrownBy(() -> Requirement.of(c.key(), c.op(), c.values()))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage(c.message());
  }

  @Test
  void validKeysAndValues() {
    assertThat(QualifiedNames.isQualifiedName("example.com/My_key-1.x")).isTrue();
    assertThat(QualifiedNames.isQualifiedName("a")).isTrue();
    assertThat(QualifiedNames.isQualifiedName("/a")).isFalse();
    assertThat(QualifiedNames.isQualifiedName("a/")).isFalse();
    assertThat(QualifiedNames.isQualifiedName("_a")).isFalse();
    assertThat(QualifiedNames.isLabelValue("")).isTrue();
    assertThat(QualifiedNames.isLabelValue("A.b_c-9")).isTrue();
    assertThat(QualifiedNames.isLabelValue(null)).isFalse();
    assertThat(Requirement.of("k", Operator.GREATER_THAN, List.of("0042")).bound()).isEqualTo(42);
  }

  @Test
  void requirementsPrintLikeSelectorStrings() {
    assertThat(Requirement.of("k", Operator.IN, List.of("b", "a")).toString())
        .isEqualTo("k in (a,b)");
    assertThat(Requirement.of("k", Operator.NOT_IN, List.of("a")).toString())
        .isEqualTo("k notin (a)");
    assertThat(Requirement.of("k", Operator.EXISTS, null).toString()).isEqualTo("k");
    assertThat(Requirement.of("k", Operator.DOES_NOT_EXIST, null).toString()).isEqualTo("!k");
    assertThat(Requirement.equalTo("k", "v").toString()).isEqualTo("k=v");
    assertThat(Requirement.of("k", Operator.NOT_EQUALS, List.of("v")).toString()).isEqualTo("k!=v");
    assertThat(Requirement.of("k", Operator.GREATER_THAN, List.of("3")).toString())
        .isEqualTo("k gt (3)");
  }

  @Test
  void selectorsComposeAndMatch() {
    Selector set = Selector.fromSet(Map.of("a", "b"));
    assertThat(set.matches(Map.of("a", "b"))).isTrue();
    assertThat(set.matches(null)).isFalse();
    assertThat(Selector.fromSet(Map.of())).isSameAs(Selector.everything());
    assertThat(Selector.fromSet(null).matches(null)).isTrue();

    Selector both = set.and(List.of(Requirement.of("c", Operator.EXISTS, null)));
    assertThat(both.matches(Map.of("a", "b"))).isFalse();
    assertThat(both.matches(Map.of("a", "b", "c", "x"))).isTrue();
    assertThat(both.requirements()).hasSize(2);
    assertThat(both.toString()).isEqualTo("a=b,c");
    assertThat(set.and(List.of())).isSameAs(set);
    assertThat(Selector.nothing().and(List.of(Requirement.equalTo("a", "b"))))
        .isSameAs(Selector.nothing());
    assertThat(Selector.nothing().toString()).isEqualTo("<nothing>");
    assertThat(Selector.everything().isEverything()).isTrue();
    assertThat(Selector.nothing().isNothing()).isTrue();
    assertThat(Selector.everything().toString()).isEmpty();
  }
}
