package io.schedext.framework;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.schedext.cache.Snapshot;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Per-cycle storage of {@link CycleState}, as upstream's cycle_state_test.go. */
class CycleStateTest {

  /** Mutable data whose copy is deep, as plugin state touched by AddPod/RemovePod must be. */
  static final class Counts implements StateData {
    final List<Integer> values;

    Counts(List<Integer> values) {
      this.values = new ArrayList<>(values);
    }

    @Override
    public StateData copy() {
      return new Counts(values);
    }
  }

  /** Immutable data that may share itself. */
  record Fixed(String value) implements StateData {
    @Override
    public StateData copy() {
      return this;
    }
  }

  @Test
  void readingAMissingKeyFails() {
    CycleState s = new CycleState(Snapshot.empty());
    assertThatThrownBy(() -> s.read("PreFilterX", Fixed.class))
        .isInstanceOf(FrameworkException.class)
        .hasMessage("reading \"PreFilterX\" from cycleState: not found");
    assertThat(s.readOrNull("PreFilterX")).isNull();
  }

  @Test
  void readingAValueOfAnotherTypeFails() {
    CycleState s = new CycleState(Snapshot.empty());
    s.write("k", new Fixed("v"));
    assertThatThrownBy(() -> s.read("k", Counts.class))
        .isInstanceOf(FrameworkException.class)
        .hasMessage("reading \"k\" from cycleState: Fixed is not a Counts");
  }

  @Test
  void writeReadDeleteAndKeys() {
    CycleState s = new CycleState(Snapshot.empty());
    Fixed v = new Fixed("v");
    s.write("a", v);
    s.write("b", new Fixed("w"));
    s.write("b", new Fixed("x"));

    assertThat(s.read("a", Fixed.class)).isSameAs(v);
    assertThat(s.read("b", Fixed.class).value()).isEqualTo("x");
    assertThat(s.read("a", StateData.class)).isSameAs(v);
    assertThat(s.keys()).containsExactlyInAnyOrder("a", "b");
    s.delete("a");
    assertThat(s.keys()).containsExactly("b");
  }

  @Test
  void aCopyDeepCopiesValuesAndSkipSetsAndSharesTheSnapshot() {
    Snapshot snapshot = Snapshot.of(List.of());
    CycleState s = new CycleState(snapshot);
    Counts counts = new Counts(List.of(1, 2));
    Fixed fixed = new Fixed("f");
    s.write("counts", counts);
    s.write("fixed", fixed);
    s.skipFilterPlugins().add("A");
    s.skipScorePlugins().add("B");
    s.setRecordPluginMetrics(true);

    CycleState c = s.copy();
    c.read("counts", Counts.class).values.add(3);
    c.write("new", new Fixed("n"));
    c.skipFilterPlugins().add("C");
    c.skipScorePlugins().clear();

    assertThat(c.snapshot()).isSameAs(snapshot);
    assertThat(c.read("counts", Counts.class)).isNotSameAs(counts);
    assertThat(c.read("fixed", Fixed.class)).isSameAs(fixed);
    assertThat(c.recordPluginMetrics()).isTrue();
    assertThat(counts.values).containsExactly(1, 2);
    assertThat(s.readOrNull("new")).isNull();
    assertThat(s.skipFilterPlugins()).containsExactly("A");
    assertThat(s.skipScorePlugins()).containsExactly("B");
    assertThat(c.skipFilterPlugins()).containsExactlyInAnyOrder("A", "C");
  }

  @Test
  void aNewStateRecordsNoMetricsAndSkipsNothing() {
    CycleState s = new CycleState(Snapshot.empty());
    assertThat(s.recordPluginMetrics()).isFalse();
    assertThat(s.skipFilterPlugins()).isEmpty();
    assertThat(s.skipScorePlugins()).isEmpty();
    assertThat(s.keys()).isEmpty();
    assertThat(s.snapshot()).isSameAs(Snapshot.empty());
  }

  @Test
  void aSharedCopySharesValuesButNotWrites() {
    CycleState s = new CycleState(Snapshot.empty());
    Fixed pre = new Fixed("prefilter");
    s.write("PreFilterX", pre);
    s.skipFilterPlugins().add("skipped");
    s.skipScorePlugins().add("not-carried");
    s.setRecordPluginMetrics(true);

    CycleState c = s.sharedCopy();
    c.write("PreScoreX", new Fixed("prescore"));
    s.write("Other", new Fixed("other"));

    assertThat(c.read("PreFilterX", Fixed.class)).isSameAs(pre);
    assertThat(c.snapshot()).isSameAs(s.snapshot());
    assertThat(c.keys()).containsExactlyInAnyOrder("PreFilterX", "PreScoreX");
    assertThat(s.keys()).containsExactlyInAnyOrder("PreFilterX", "Other");
    assertThat(c.skipFilterPlugins()).containsExactly("skipped");
    assertThat(c.skipScorePlugins()).isEmpty();
    assertThat(c.recordPluginMetrics()).isTrue();
    c.skipFilterPlugins().add("later");
    assertThat(s.skipFilterPlugins()).containsExactly("skipped");
  }
}
