package io.schedext.framework;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.function.BiConsumer;
import java.util.function.IntConsumer;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** {@link Parallelizer#until} and {@code untilLight}: every index exactly once, failures rethrown to the caller. */
class ParallelizerTest {

  record Case(int parallelism, int pieces) {
    @Override
    public String toString() {
      return "with " + parallelism + " workers every one of " + pieces + " indexes runs exactly once";
    }
  }

  static Stream<Case> cases() {
    return Stream.of(1, 2, 4).flatMap(p -> Stream.of(0, 1, 7, 8, 9, 100, 1000, 4097).map(n -> new Case(p, n)));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void everyIndexRunsOnce(Case c) {
    try (Parallelizer p = new Parallelizer(c.parallelism())) {
      List<BiConsumer<Integer, IntConsumer>> loops = List.of(p::until, p::untilLight);
      for (BiConsumer<Integer, IntConsumer> loop : loops) {
        AtomicIntegerArray hits = new AtomicIntegerArray(Math.max(1, c.pieces()));
        loop.accept(c.pieces(), hits::incrementAndGet);
        for (int i = 0; i < c.pieces(); i++) {
          assertThat(hits.get(i)).as("index %d", i).isEqualTo(1);
        }
      }
      assertThat(p.parallelism()).isEqualTo(c.parallelism());
    }
  }

  @Test
  void lightWorkBelowTheThresholdStaysOnTheCallingThread() {
    try (Parallelizer p = new Parallelizer(4)) {
      Thread caller = Thread.currentThread();
      java.util.Set<Thread> threads = java.util.concurrent.ConcurrentHashMap.newKeySet();
      p.untilLight(Parallelizer.LIGHT_SERIAL_BELOW - 1, i -> threads.add(Thread.currentThread()));
      assertThat(threads).containsExactly(caller);
      IllegalStateException boom = new IllegalStateException("boom");
      assertThatThrownBy(() -> p.untilLight(10, i -> {
        if (i == 3) {
          throw boom;
        }
      })).isSameAs(boom);
    }
  }

  @Test
  void aFailureIsRethrownToTheCaller() {
    try (Parallelizer p = new Parallelizer(4)) {
      IllegalStateException boom = new IllegalStateException("boom");
      assertThatThrownBy(() -> p.until(1000, i -> {
        if (i == 517) {
          throw boom;
        }
      })).isSameAs(boom);
      assertThatThrownBy(() -> p.until(3, i -> {
        throw new FrameworkException("small");
      })).isInstanceOf(FrameworkException.class).hasMessage("small");
    }
  }

  @Test
  @Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
  void theCallerDoesNotWaitForAHelperThatNeverStarted() throws Exception {
    try (Parallelizer p = new Parallelizer(2)) {
      // Occupy the only helper thread: another call's work blocks whenever it runs on a helper.
      CountDownLatch release = new CountDownLatch(1);
      CountDownLatch helperBusy = new CountDownLatch(1);
      Thread other = new Thread(() -> p.until(1000, i -> {
        if (Thread.currentThread().getName().startsWith("scheduling-")) {
          helperBusy.countDown();
          await(release);
        } else {
          await(helperBusy);
        }
      }));
      other.start();
      helperBusy.await();

      AtomicIntegerArray seen = new AtomicIntegerArray(100);
      p.until(100, seen::incrementAndGet);

      assertThat(release.getCount()).as("answered while the helper was still busy").isEqualTo(1);
      for (int i = 0; i < 100; i++) {
        assertThat(seen.get(i)).as("index %d", i).isEqualTo(1);
      }
      release.countDown();
      other.join();
    }
  }

  private static void await(CountDownLatch latch) {
    try {
      latch.await();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  @Test
  void parallelismIsAtLeastOneAndChunksAreAboutTheSquareRoot() {
    try (Parallelizer p = new Parallelizer(0)) {
      assertThat(p.parallelism()).isEqualTo(1);
    }
    assertThat(Parallelizer.chunkSize(1)).isEqualTo(1);
    assertThat(Parallelizer.chunkSize(100)).isEqualTo(10);
    assertThat(Parallelizer.chunkSize(99)).isEqualTo(9);
  }
}
