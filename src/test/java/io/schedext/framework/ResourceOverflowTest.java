package io.schedext.framework;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** Sums past the long range saturate when read and stay exact when added and subtracted again. */
class ResourceOverflowTest {

  private static Resource of(long milliCpu, long memory) {
    Resource r = new Resource(milliCpu, memory, 0, 0);
    r.setScalar("example.com/dev", memory);
    return r;
  }

  @Test
  void aSumPastTheLongRangeReadsAsTheLargestLong() {
    Resource node = of(1000, 1L << 30);
    node.add(of(Long.MAX_VALUE, Long.MAX_VALUE));

    assertThat(node.milliCpu()).isEqualTo(Long.MAX_VALUE);
    assertThat(node.memory()).isEqualTo(Long.MAX_VALUE);
    assertThat(node.scalar("example.com/dev")).isEqualTo(Long.MAX_VALUE);
    assertThat(node.scalarResources()).containsEntry("example.com/dev", Long.MAX_VALUE);
  }

  @Test
  void removingWhatWasAddedRestoresTheExactAmountEvenAfterSeveralWraps() {
    Resource node = of(1000, 1L << 30);
    Resource huge = of(Long.MAX_VALUE, Long.MAX_VALUE);
    for (int i = 0; i < 3; i++) {
      node.add(huge);
    }
    node.addMilliCpu(Long.MAX_VALUE);
    node.addMilliCpu(-Long.MAX_VALUE);
    for (int i = 0; i < 3; i++) {
      node.subtract(huge);
    }

    assertThat(node).isEqualTo(of(1000, 1L << 30));
    assertThat(node.milliCpu()).isEqualTo(1000);
    assertThat(node.scalar("example.com/dev")).isEqualTo(1L << 30);
  }

  @Test
  void aCopyKeepsTheWrapsAndSubtractingACopyOfItselfLeavesNothing() {
    Resource node = of(5, 5);
    node.add(of(Long.MAX_VALUE, Long.MAX_VALUE));
    Resource copy = node.copy();
    assertThat(copy).isEqualTo(node);
    assertThat(copy.milliCpu()).isEqualTo(Long.MAX_VALUE);

    node.subtract(copy);

    assertThat(node.milliCpu()).isZero();
    assertThat(node.memory()).isZero();
    assertThat(node.scalar("example.com/dev")).isZero();
  }

  @Test
  void saturatedAddStopsAtTheLongRange() {
    assertThat(Resource.saturatedAdd(Long.MAX_VALUE, 1)).isEqualTo(Long.MAX_VALUE);
    assertThat(Resource.saturatedAdd(Long.MIN_VALUE, -1)).isEqualTo(Long.MIN_VALUE);
    assertThat(Resource.saturatedAdd(40, 2)).isEqualTo(42);
  }
}
