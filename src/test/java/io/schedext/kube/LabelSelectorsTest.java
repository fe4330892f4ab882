package io.schedext.kube;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.api.model.LabelSelector;
import io.fabric8.kubernetes.api.model.LabelSelectorRequirement;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * metav1 label selectors compiled by {@link LabelSelectors}, as apimachinery's
 * LabelSelectorAsSelector.
 */
class LabelSelectorsTest {

  static LabelSelectorRequirement expr(String key, String op, String... values) {
    return new LabelSelectorRequirement(
        key, op, values.length == 0 ? null : new ArrayList<>(List.of(values)));
  }

  static LabelSelector selector(
      Map<String, String> matchLabels, LabelSelectorRequirement... exprs) {
    LabelSelector s = new LabelSelector();
    s.setMatchLabels(matchLabels);
    s.setMatchExpressions(new ArrayList<>(List.of(exprs)));
    return s;
  }

  record MatchCase(
      String name, LabelSelector selector, Map<String, String> labels, boolean matches) {
    @Override
    public String toString() {
      return name;
    }
  }

  static Stream<MatchCase> matchCases() {
    return Stream.of(
        new MatchCase("a null selector matches nothing", null, Map.of(), false),
        new MatchCase(
            "a null selector does not match labels either", null, Map.of("a", "b"), false),
        new MatchCase(
            "an empty selector matches everything", new LabelSelector(), Map.of("a", "b"), true),
        new MatchCase("an empty selector matches no labels", selector(Map.of()), null, true),
        new MatchCase(
            "matchLabels need every pair",
            selector(Map.of("a", "b", "c", "d")),
            Map.of("a", "b", "c", "d", "e", "f"),
            true),
        new MatchCase(
            "matchLabels with a different value do not match",
            selector(Map.of("a", "b")),
            Map.of("a", "x"),
            false),
        new MatchCase(
            "matchLabels with a missing key do not match",
            selector(Map.of("a", "b")),
            Map.of(),
            false),
        new MatchCase(
            "In matches one of the values",
            selector(null, expr("a", "In", "x", "y")),
            Map.of("a", "y"),
            true),
        new MatchCase(
            "In does not match a missing key",
            selector(null, expr("a", "In", "x")),
            Map.of(),
            false),
        new MatchCase(
            "NotIn matches another value",
            selector(null, expr("a", "NotIn", "x")),
            Map.of("a", "y"),
            true),
        new MatchCase(
            "NotIn matches a missing key", selector(null, expr("a", "NotIn", "x")), Map.of(), true),
        new MatchCase(
            "NotIn rejects a listed value",
            selector(null, expr("a", "NotIn", "x")),
            Map.of("a", "x"),
            false),
        new MatchCase(
            "Exists needs the key, whatever its value",
            selector(null, expr("a", "Exists")),
            Map.of("a", ""),
            true),
        new MatchCase(
            "DoesNotExist needs the key absent",
            selector(null, expr("a", "DoesNotExist")),
            Map.of("a", "b"),
            false),
        new MatchCase(
            "matchLabels and expressions are ANDed",
            selector(Map.of("a", "b"), expr("c", "Exists"), expr("d", "NotIn", "x")),
            Map.of("a", "b", "c", "1"),
            true),
        new MatchCase(
            "one failing expression fails the selector",
            selector(Map.of("a", "b"), expr("c", "Exists")),
            Map.of("a", "b"),
            false),
        new MatchCase(
            "prefixed keys work",
            selector(Map.of("app.kubernetes.io/name", "web")),
            Map.of("app.kubernetes.io/name", "web"),
            true));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("matchCases")
  void matches(MatchCase c) {
    assertThat(LabelSelectors.compile(c.selector()).matches(c.labels())).isEqualTo(c.matches());
  }

  @Test
  void nullAndEmptySelectorsAreTheSharedNothingAndEverything() {
    assertThat(LabelSelectors.compile(null)).isSameAs(Selector.nothing());
    assertThat(LabelSelectors.compile(new LabelSelector())).isSameAs(Selector.everything());
    assertThat(LabelSelectors.compile(selector(Map.of()))).isSameAs(Selector.everything());
  }

  @Test
  void aMatchLabelWithoutValueRequiresAnEmptyValue() {
    Map<String, String> m = new HashMap<>();
    m.put("a", null);
    Selector s = LabelSelectors.compile(selector(m));
    assertThat(s.matches(Map.of("a", ""))).isTrue();
    assertThat(s.matches(Map.of("a", "x"))).isFalse();
  }

  record ErrorCase(String name, LabelSelector selector, String message) {
    @Override
    public String toString() {
      return name;
    }
  }

  static Stream<ErrorCase> errorCases() {
    return Stream.of(
        new ErrorCase(
            "Gt is not a label selector operator",
            selector(null, expr("a", "Gt", "1")),
            "\"Gt\" is not a valid label selector operator"),
        new ErrorCase(
            "an empty operator is not valid",
            selector(null, expr("a", "")),
            "\"\" is not a valid label selector operator"),
        new ErrorCase(
            "In needs values",
            selector(null, expr("a", "In")),
            "for 'in', 'notin' operators, values set can't be empty"),
        new ErrorCase(
            "Exists takes no values",
            selector(null, expr("a", "Exists", "x")),
            "values set must be empty for exists and does not exist"),
        new ErrorCase(
            "an invalid key", selector(Map.of("bad key", "x")), "invalid label key \"bad key\""),
        new ErrorCase(
            "an invalid value", selector(Map.of("a", "-bad")), "invalid label value: \"-bad\""),
        new ErrorCase(
            "an invalid expression value",
            selector(null, expr("a", "In", "ok", "no way")),
            "invalid label value: \"no way\""));
  }

  @ParameterizedTest(name = "{0} is rejected")
  @MethodSource("errorCases")
  void invalidSelectors(ErrorCase c) {
    assertThatThrownBy(() -> LabelSelectors.compile(c.selector()))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage(c.message());
  }
}
