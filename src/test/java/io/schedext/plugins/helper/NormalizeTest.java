package io.schedext.plugins.helper;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.schedext.framework.NodeInfo;
import io.schedext.framework.NodeScores;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * Upstream's DefaultNormalizeScore cases, and the divider it uses against plain integer division.
 */
class NormalizeTest {

  private static long[] normalize(long max, boolean reverse, long... raw) {
    NodeScores s = new NodeScores(new NodeInfo[raw.length], raw);
    assertThat(Normalize.defaultNormalizeScore(max, reverse, s).isSuccess()).isTrue();
    return s.toArray();
  }

  @Test
  void scalesToTheHighestScore() {
    assertThat(normalize(100, false, 1, 2, 3, 4, 5)).containsExactly(20, 40, 60, 80, 100);
    assertThat(normalize(100, true, 1, 2, 3, 4, 5)).containsExactly(80, 60, 40, 20, 0);
    assertThat(normalize(10, false, 1, 2, 3, 4, 5)).containsExactly(2, 4, 6, 8, 10);
    assertThat(normalize(10, true, 1, 2, 3, 4, 5)).containsExactly(8, 6, 4, 2, 0);
    assertThat(normalize(100, false, 3, 7, 9)).containsExactly(33, 77, 100);
    assertThat(normalize(100, false, 1000, 1, 1, 1)).containsExactly(100, 0, 0, 0);
    assertThat(normalize(100, true, 1000, 1, 1, 1)).containsExactly(0, 100, 100, 100);
  }

  @Test
  void allZeroStaysZeroOrBecomesTheMaximumWhenReversed() {
    assertThat(normalize(100, false, 0, 0, 0)).containsExactly(0, 0, 0);
    assertThat(normalize(100, true, 0, 0, 0)).containsExactly(100, 100, 100);
  }

  @Test
  void dividerAgreesWithIntegerDivision() {
    Random rnd = new Random(7);
    long[] divisors = {
      1,
      2,
      3,
      7,
      10,
      99,
      100,
      101,
      999_983,
      (1L << 31) - 1,
      (1L << 52) - 1,
      1L << 52,
      Long.MAX_VALUE,
      -1,
      -3,
      -100,
      Long.MIN_VALUE
    };
    for (long d : divisors) {
      Normalize.Divider div = new Normalize.Divider(d);
      for (int k = 0; k < 20_000; k++) {
        long n =
            switch (k % 4) {
              case 0 -> rnd.nextInt(100_000);
              case 1 -> d * rnd.nextInt(200) + rnd.nextInt(3) - 1;
              case 2 -> rnd.nextLong();
              default -> (1L << 52) - rnd.nextInt(1000) + rnd.nextInt(2000);
            };
        assertThat(div.quotient(n)).as("%d / %d", n, d).isEqualTo(n / d);
      }
      assertThat(div.quotient(0)).isZero();
      assertThat(div.quotient(Long.MAX_VALUE)).isEqualTo(Long.MAX_VALUE / d);
      assertThat(div.quotient(Long.MIN_VALUE)).isEqualTo(Long.MIN_VALUE / d);
    }
  }

  @Test
  void dividingByZeroFailsAsIntegerDivisionDoes() {
    assertThatThrownBy(() -> new Normalize.Divider(0)).isInstanceOf(ArithmeticException.class);
  }
}
