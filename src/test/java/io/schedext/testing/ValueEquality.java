package io.schedext.testing;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;

/**
 * Checks a value type's {@code equals} and {@code hashCode}: an instance built again from equal
 * components equals the first, with the same hash, and an instance differing in any one component
 * does not, either way round.
 */
public final class ValueEquality {

  private ValueEquality() {}

  /**
   * Checks that {@code same} (equal components, another instance) equals {@code base} with the same
   * hash, and that each of {@code different} (one component changed each) does not.
   */
  public static <T> void check(T base, T same, List<T> different) {
    assertThat(same).isNotSameAs(base);
    assertThat(same).isEqualTo(base);
    assertThat(base).isEqualTo(same);
    assertThat(same.hashCode()).isEqualTo(base.hashCode());
    assertThat(base).isEqualTo(base).isNotEqualTo(null).isNotEqualTo(new Object());
    for (T other : different) {
      assertThat(other).as("%s against %s", other, base).isNotEqualTo(base);
      assertThat(base).as("%s against %s", base, other).isNotEqualTo(other);
    }
  }
}
