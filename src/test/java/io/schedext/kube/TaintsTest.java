package io.schedext.kube;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Taint;
import io.fabric8.kubernetes.api.model.Toleration;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** {@link Taints#tolerates}, as upstream's TestTolerationToleratesTaint. */
class TaintsTest {

  static Toleration tol(String key, String op, String value, String effect) {
    Toleration t = new Toleration();
    t.setKey(key);
    t.setOperator(op);
    t.setValue(value);
    t.setEffect(effect);
    return t;
  }

  static Taint taint(String key, String value, String effect) {
    Taint t = new Taint();
    t.setKey(key);
    t.setValue(value);
    t.setEffect(effect);
    return t;
  }

  record Case(String name, Toleration toleration, Taint taint, boolean tolerated) {
    @Override
    public String toString() {
      return name;
    }
  }

  static Stream<Case> cases() {
    String ns = Taints.EFFECT_NO_SCHEDULE;
    return Stream.of(
        new Case(
            "same key and effect, Exists, taint without value: tolerated",
            tol("foo", "Exists", null, ns),
            taint("foo", null, ns),
            true),
        new Case(
            "same key and effect, Exists, taint with a value: tolerated",
            tol("foo", "Exists", null, ns),
            taint("foo", "bar", ns),
            true),
        new Case(
            "same effect, empty key with Exists matches every taint",
            tol("", "Exists", null, ns),
            taint("foo", "bar", ns),
            true),
        new Case(
            "same key, effect and value with Equal: tolerated",
            tol("foo", "Equal", "bar", ns),
            taint("foo", "bar", ns),
            true),
        new Case(
            "same key and effect, different values with Equal: not tolerated",
            tol("foo", "Equal", "value1", ns),
            taint("foo", "value2", ns),
            false),
        new Case(
            "same key and value, different effects with Equal: not tolerated",
            tol("foo", "Equal", "bar", ns),
            taint("foo", "bar", Taints.EFFECT_NO_EXECUTE),
            false),
        new Case(
            "an empty operator means Equal",
            tol("foo", "", "bar", ns),
            taint("foo", "bar", ns),
            true),
        new Case(
            "a null operator means Equal",
            tol("foo", null, "bar", null),
            taint("foo", "baz", ns),
            false),
        new Case(
            "an empty effect matches every effect",
            tol("foo", "Exists", null, ""),
            taint("foo", "bar", Taints.EFFECT_PREFER_NO_SCHEDULE),
            true),
        new Case(
            "a different key is not tolerated",
            tol("foo", "Exists", null, ns),
            taint("other", "bar", ns),
            false),
        new Case(
            "a missing value equals an empty one",
            tol("foo", "Equal", "", ns),
            taint("foo", null, ns),
            true),
        new Case(
            "an unknown operator tolerates nothing",
            tol("foo", "Matches", "bar", ns),
            taint("foo", "bar", ns),
            false),
        new Case(
            "Gt tolerates nothing while its alpha feature gate is off (the default)",
            tol("node.kubernetes.io/sla", "Gt", "750", ns),
            taint("node.kubernetes.io/sla", "950", ns),
            false),
        new Case(
            "Lt tolerates nothing while its alpha feature gate is off (the default)",
            tol("node.kubernetes.io/sla", "Lt", "950", ns),
            taint("node.kubernetes.io/sla", "800", ns),
            false));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void tolerates(Case c) {
    assertThat(Taints.tolerates(c.toleration(), c.taint())).isEqualTo(c.tolerated());
  }

  @Test
  void anyToleratesAndFindUntolerated() {
    Taint a = taint("a", "1", Taints.EFFECT_NO_SCHEDULE);
    Taint b = taint("b", "1", Taints.EFFECT_PREFER_NO_SCHEDULE);
    Taint c = taint("c", "1", Taints.EFFECT_NO_EXECUTE);
    List<Toleration> tolerations = List.of(tol("a", "Exists", null, null));

    assertThat(Taints.anyTolerates(null, a)).isFalse();
    assertThat(Taints.anyTolerates(tolerations, a)).isTrue();
    assertThat(Taints.findUntolerated(List.of(a, b, c), tolerations, t -> true)).isSameAs(b);
    assertThat(
            Taints.findUntolerated(
                List.of(a, b, c),
                tolerations,
                t -> !t.getEffect().equals(Taints.EFFECT_PREFER_NO_SCHEDULE)))
        .isSameAs(c);
    assertThat(Taints.findUntolerated(List.of(a), tolerations, t -> true)).isNull();
    assertThat(Taints.findUntolerated(null, tolerations, t -> true)).isNull();
  }
}
