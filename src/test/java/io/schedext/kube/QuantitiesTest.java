package io.schedext.kube;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.api.model.Quantity;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Exact quantity values and apimachinery's rounding of {@code Value()} and {@code MilliValue()}.
 */
class QuantitiesTest {

  record Case(String quantity, String decimal, long value, long milliValue) {
    @Override
    public String toString() {
      return "\""
          + quantity
          + "\" is "
          + decimal
          + ", Value "
          + value
          + ", MilliValue "
          + milliValue;
    }
  }

  static Stream<Case> cases() {
    return Stream.of(
        new Case("0", "0", 0, 0),
        new Case("1", "1", 1, 1000),
        new Case("1Ki", "1024", 1024, 1_024_000),
        new Case("1Mi", "1048576", 1_048_576, 1_048_576_000),
        new Case("1.5Gi", "1610612736", 1_610_612_736, 1_610_612_736_000L),
        new Case("1k", "1000", 1000, 1_000_000),
        new Case("1M", "1000000", 1_000_000, 1_000_000_000),
        new Case("100m", "0.1", 1, 100),
        new Case("0.5m", "0.0005", 1, 1),
        new Case("1.0001", "1.0001", 2, 1001),
        new Case("1e3", "1000", 1000, 1_000_000),
        new Case("1E3", "1000", 1000, 1_000_000),
        new Case("12e-3", "0.012", 1, 12),
        new Case("1.5", "1.5", 2, 1500),
        new Case("-1.5", "-1.5", -2, -1500),
        new Case("-0.5m", "-0.0005", -1, -1),
        new Case("1e30", "1E+30", Long.MAX_VALUE, Long.MAX_VALUE),
        new Case("-1e30", "-1E+30", Long.MIN_VALUE, Long.MIN_VALUE));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void valueAndMilliValueRoundAwayFromZero(Case c) {
    Quantity q = new Quantity(c.quantity());
    assertThat(Quantities.decimal(q)).isEqualByComparingTo(new BigDecimal(c.decimal()));
    assertThat(Quantities.value(q)).isEqualTo(c.value());
    assertThat(Quantities.milliValue(q)).isEqualTo(c.milliValue());
  }

  @Test
  void commonSpellingsAreValuedAsTheGeneralParserValuesThem() {
    Random rnd = new Random(3);
    String[] suffixes = {
      "", "m", "u", "n", "k", "M", "G", "T", "P", "E", "Ki", "Mi", "Gi", "Ti", "Pi", "Ei", "e3",
      "E-2"
    };
    String[] amounts = {
      "0", "1", "007", "999999999999999", "1234567890123456", "1.5", "-2", "+3", "", "x"
    };
    for (String suffix : suffixes) {
      List<String> all = new ArrayList<>(List.of(amounts));
      for (int i = 0; i < 200; i++) {
        all.add(Long.toString(rnd.nextLong(1, 1L << (1 + rnd.nextInt(50)))));
      }
      for (String amount : all) {
        Quantity q = new Quantity(amount, suffix);
        BigDecimal general;
        try {
          general = q.getNumericalAmount();
        } catch (RuntimeException e) {
          assertThat(Quantities.plainDecimal(q.getAmount(), q.getFormat()))
              .as(amount + suffix)
              .isNull();
          continue;
        }
        BigDecimal plain = Quantities.plainDecimal(q.getAmount(), q.getFormat());
        if (plain != null) {
          assertThat(plain).as(amount + suffix).isEqualByComparingTo(general);
        }
        assertThat(Quantities.decimal(q)).as(amount + suffix).isEqualByComparingTo(general);
      }
    }
    Quantity parsed = new Quantity("128Mi");
    assertThat(Quantities.plainDecimal(parsed.getAmount(), parsed.getFormat()))
        .as("a parsed quantity keeps amount and suffix apart")
        .isEqualByComparingTo("134217728");
    assertThat(Quantities.plainDecimal("250", "m")).isEqualByComparingTo("0.25");
    assertThat(Quantities.plainDecimal("1", "Ei"))
        .as("larger suffixes take the general parser")
        .isNull();
    assertThat(Quantities.plainDecimal("999999999999999", "Ti")).as("beyond a long").isNull();
  }

  @Test
  void aMissingQuantityIsZero() {
    assertThat(Quantities.decimal(null)).isEqualByComparingTo(BigDecimal.ZERO);
    assertThat(Quantities.value(null)).isZero();
  }

  @Test
  void aMalformedQuantityIsAnIllegalArgument() {
    for (String amount : new String[] {"abc", "5Zi", "1e"}) {
      Quantity q = new Quantity();
      q.setAmount(amount);
      assertThatThrownBy(() -> Quantities.value(q))
          .as(amount)
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageStartingWith("invalid quantity \"");
    }
  }

  @Test
  void ceilToLongIsATrueCeilingWhileRoundUpGoesAwayFromZero() {
    assertThat(Quantities.ceilToLong(new BigDecimal("-1.5"))).isEqualTo(-1);
    assertThat(Quantities.roundUpToLong(new BigDecimal("-1.5"))).isEqualTo(-2);
    assertThat(Quantities.ceilToLong(new BigDecimal("1.2"))).isEqualTo(2);
    assertThat(Quantities.roundUpToLong(new BigDecimal("1.2"))).isEqualTo(2);
    assertThat(Quantities.ceilToLong(new BigDecimal("1e40"))).isEqualTo(Long.MAX_VALUE);
  }
}
