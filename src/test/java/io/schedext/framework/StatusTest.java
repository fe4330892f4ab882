package io.schedext.framework;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** {@link Status}, {@link Code} and {@link PreFilterResult} values. */
class StatusTest {

  @Test
  void theMessageJoinsTheReasonsWithCommas() {
    assertThat(Status.unschedulable("a", "b").message()).isEqualTo("a, b");
    assertThat(Status.unschedulable("a").message()).isEqualTo("a");
    assertThat(Status.success().message()).isEmpty();
  }

  @Test
  void equalityIsCodeReasonsAndPluginButNotTheCause() {
    assertThat(Status.error(new FrameworkException("x"))).isEqualTo(Status.error("x"));
    assertThat(Status.unschedulable("x").withPlugin("A")).isNotEqualTo(Status.unschedulable("x"));
    assertThat(Status.unschedulable("x")).isNotEqualTo(Status.unresolvable("x"));
    assertThat(Status.unschedulable("x").withPlugin("A").hashCode())
        .isEqualTo(Status.unschedulable("x").withPlugin("A").hashCode());
    assertThat(Status.of(Code.SUCCESS)).isSameAs(Status.success());
    assertThat(Status.of(Code.UNSCHEDULABLE, List.of("r"))).isEqualTo(Status.unschedulable("r"));
  }

  @Test
  void derivedStatusesKeepWhatTheyDoNotChange() {
    FrameworkException cause = new FrameworkException("boom");
    Status s = Status.error(cause).withPlugin("A");
    assertThat(s.withPlugin("A")).isSameAs(s);
    assertThat(s.withCode(Code.ERROR)).isSameAs(s);
    Status u = s.withCode(Code.UNSCHEDULABLE);
    assertThat(u.code()).isEqualTo(Code.UNSCHEDULABLE);
    assertThat(u.cause()).isSameAs(cause);
    assertThat(u.plugin()).isEqualTo("A");
    assertThat(Status.unschedulable("a", "b").withPrefix("p: ").reasons())
        .containsExactly("p: a", "p: b");
    assertThat(Status.error(new IllegalStateException()).message())
        .isEqualTo("IllegalStateException");
  }

  @Test
  void predicatesFollowTheCode() {
    assertThat(Status.success().isSuccess()).isTrue();
    assertThat(Status.unschedulable().isRejected()).isTrue();
    assertThat(Status.unresolvable().isRejected()).isTrue();
    assertThat(Status.error("e").isRejected()).isFalse();
    assertThat(Status.error("e").isError()).isTrue();
    assertThat(Status.skip().isSkip()).isTrue();
    assertThat(Status.waiting().isWait()).isTrue();
    assertThat(Status.of(Code.PENDING).isRejected()).isFalse();
  }

  @Test
  void toStringShowsCodePluginAndMessage() {
    assertThat(Status.unresolvable("a", "b").withPlugin("P").toString())
        .isEqualTo("UnschedulableAndUnresolvable(P): a, b");
    assertThat(Status.success().toString()).isEqualTo("Success");
  }

  @Test
  void codesUseUpstreamNamesAndOrder() {
    assertThat(Code.values())
        .extracting(Code::upstreamName)
        .containsExactly(
            "Success",
            "Error",
            "Unschedulable",
            "UnschedulableAndUnresolvable",
            "Wait",
            "Skip",
            "Pending");
    assertThat(Code.fromUpstreamName("Wait")).isEqualTo(Code.WAIT);
    assertThatThrownBy(() -> Code.fromUpstreamName("wait"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("unknown status code \"wait\"");
  }

  @Test
  void preFilterResultsMergeByIntersection() {
    assertThat(PreFilterResult.merge(null, null)).isNull();
    assertThat(PreFilterResult.merge(null, Set.of("a"))).isEqualTo(Set.of("a"));
    assertThat(PreFilterResult.merge(Set.of("a", "b"), null)).isEqualTo(Set.of("a", "b"));
    assertThat(PreFilterResult.merge(Set.of("a", "b"), Set.of("b", "c"))).isEqualTo(Set.of("b"));
    assertThat(PreFilterResult.merge(Set.of("a"), Set.of("c"))).isEmpty();
    assertThat(PreFilterResult.restrict(List.of("c", "a", "b"), Set.of("a", "c")))
        .containsExactly("c", "a");
    assertThat(PreFilterResult.restrict(List.of("c", "a"), null)).containsExactly("c", "a");
    assertThat(PreFilterResult.success().allNodes()).isTrue();
    assertThat(PreFilterResult.nodes(Set.of()).allNodes()).isFalse();
    assertThat(PreFilterResult.of(Status.success())).isSameAs(PreFilterResult.success());
  }
}
