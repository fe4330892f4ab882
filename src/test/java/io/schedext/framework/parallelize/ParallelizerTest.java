package io.schedext.framework.parallelize;

import static io.schedext.testing.Latches.await;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.schedext.framework.FrameworkException;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.function.BiConsumer;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * {@link Parallelizer#until}: every index exactly once; {@link Parallelizer#untilLight}: every
 * piece published exactly once, without waiting for a helper stalled mid-chunk; both rethrow
 * failures to the caller.
 */
public class ParallelizerTest {

  record Case(int parallelism, int pieces) {
    @Override
    public String toString() {
      return "with "
          + parallelism
          + " workers every one of "
          + pieces
          + " indexes runs exactly once";
    }
  }

  static Stream<Case> cases() {
    return Stream.of(1, 2, 4)
        .flatMap(p -> Stream.of(0, 1, 7, 8, 9, 100, 1000, 4097).map(n -> new Case(p, n)));
  }

  /**
   * Blocks for {@code untilLight} whose pieces' result is the number of the worker that computed
   * them (plus one), counting every computation and every store of each piece. {@code onRun} is
   * called before each piece is computed.
   */
  static final class Recorded extends Parallelizer.Blocks {
    final AtomicIntegerArray result;
    final AtomicIntegerArray runs;
    final AtomicIntegerArray stores;
    final BiConsumer<Integer, Integer> onRun;

    /** Per worker, the results of the block it computed last. */
    final int[][] scratch = new int[8][Parallelizer.BLOCK];

    Recorded(int pieces, BiConsumer<Integer, Integer> onRun) {
      super(pieces);
      int n = Math.max(1, pieces);
      this.result = new AtomicIntegerArray(n);
      this.runs = new AtomicIntegerArray(n);
      this.stores = new AtomicIntegerArray(n);
      this.onRun = onRun;
    }

    @Override
    protected void compute(int from, int to, int worker) {
      for (int i = from; i < to; i++) {
        runs.incrementAndGet(i);
        onRun.accept(i, worker);
        scratch[worker][i - from] = worker + 1;
      }
    }

    @Override
    protected void store(int from, int to, int worker) {
      for (int i = from; i < to; i++) {
        result.set(i, scratch[worker][i - from]);
        stores.incrementAndGet(i);
      }
    }

    void assertEachStoredOnce(int pieces) {
      for (int i = 0; i < pieces; i++) {
        assertThat(stores.get(i)).as("stores of piece %d", i).isEqualTo(1);
        assertThat(result.get(i)).as("result of piece %d", i).isPositive();
      }
    }
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void everyIndexRunsOnce(Case c) {
    try (Parallelizer p = new Parallelizer(c.parallelism())) {
      AtomicIntegerArray hits = new AtomicIntegerArray(Math.max(1, c.pieces()));
      p.until(c.pieces(), hits::incrementAndGet);
      for (int i = 0; i < c.pieces(); i++) {
        assertThat(hits.get(i)).as("index %d", i).isEqualTo(1);
      }
      Recorded light = new Recorded(c.pieces(), (piece, worker) -> {});
      p.untilLight(c.pieces(), light);
      light.assertEachStoredOnce(c.pieces());
      assertThat(p.parallelism()).isEqualTo(c.parallelism());
    }
  }

  @Test
  void lightWorkBelowTheThresholdStaysOnTheCallingThread() {
    try (Parallelizer p = new Parallelizer(4)) {
      Thread caller = Thread.currentThread();
      Set<Thread> threads = ConcurrentHashMap.newKeySet();
      int pieces = Parallelizer.LIGHT_SERIAL_BELOW - 1;
      Recorded light = new Recorded(pieces, (piece, worker) -> threads.add(Thread.currentThread()));
      p.untilLight(pieces, light);
      assertThat(threads).containsExactly(caller);
      light.assertEachStoredOnce(pieces);
      IllegalStateException boom = new IllegalStateException("boom");
      assertThatThrownBy(
              () ->
                  p.untilLight(
                      10,
                      new Recorded(
                          10,
                          (piece, worker) -> {
                            if (piece == 3) {
                              throw boom;
                            }
                          })))
          .isSameAs(boom);
    }
  }

  @Test
  @Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
  void theCallerTakesOverTheChunkOfAHelperStalledInItAndDropsTheHelpersLateResult()
      throws Exception {
    try (Parallelizer p = new Parallelizer(2)) {
      int pieces = 4 * Parallelizer.LIGHT_SERIAL_BELOW;
      CountDownLatch helperStalled = new CountDownLatch(1);
      CountDownLatch release = new CountDownLatch(1);
      int[] stalledPiece = {-1};
      Recorded light =
          new Recorded(
              pieces,
              (piece, worker) -> {
                if (worker == 0) {
                  // The caller goes on only once the helper holds a chunk and is stuck in one of
                  // its pieces.
                  await(helperStalled);
                } else if (stalledPiece[0] < 0) {
                  stalledPiece[0] = piece;
                  helperStalled.countDown();
                  await(release);
                }
              });

      p.untilLight(pieces, light);

      assertThat(release.getCount()).as("answered while the helper was still stalled").isEqualTo(1);
      light.assertEachStoredOnce(pieces);
      int stalled = stalledPiece[0];
      int block = stalled / Parallelizer.BLOCK;
      int chunk =
          Math.max(1, Parallelizer.chunkSize(pieces) / Parallelizer.BLOCK) * Parallelizer.BLOCK;
      int chunkEnd = Math.min(pieces, (stalled / chunk + 1) * chunk);
      for (int i = block * Parallelizer.BLOCK; i < chunkEnd; i++) {
        assertThat(light.result.get(i))
            .as("piece %d, from the stalled block on, comes from the caller", i)
            .isEqualTo(1);
      }
      for (int i = (block + 1) * Parallelizer.BLOCK; i < chunkEnd; i++) {
        assertThat(light.runs.get(i))
            .as("piece %d after the stalled block runs once", i)
            .isEqualTo(1);
      }
      int[] after = new int[pieces];
      for (int i = 0; i < pieces; i++) {
        after[i] = light.result.get(i);
      }

      release.countDown();
      drain(p);
      // The helper finished its block after the call: computed twice, stored once, the caller's
      // result kept.
      assertThat(light.runs.get(stalled)).isEqualTo(2);
      light.assertEachStoredOnce(pieces);
      for (int i = 0; i < pieces; i++) {
        assertThat(light.result.get(i)).as("piece %d", i).isEqualTo(after[i]);
      }
    }
  }

  /**
   * Returns once the single helper thread of {@code p} finished everything it was given before
   * (FIFO queue).
   */
  public static void drain(Parallelizer p) {
    CountDownLatch ran = new CountDownLatch(1);
    p.until(
        100,
        i -> {
          if (Thread.currentThread().getName().startsWith("scheduling-")) {
            ran.countDown();
          } else {
            await(ran);
          }
        });
  }

  @Test
  void aFailureOnAHelperIsRethrownToTheCallerOfUntilLight() {
    try (Parallelizer p = new Parallelizer(2)) {
      IllegalStateException boom = new IllegalStateException("boom");
      int pieces = 2 * Parallelizer.LIGHT_SERIAL_BELOW;
      // Whichever worker reaches the piece first fails; if it is the helper, the caller must still
      // see the failure.
      assertThatThrownBy(
              () ->
                  p.untilLight(
                      pieces,
                      new Recorded(
                          pieces,
                          (piece, worker) -> {
                            if (piece == pieces - 1) {
                              throw boom;
                            }
                          })))
          .isSameAs(boom);
    }
  }

  @Test
  void aFailureIsRethrownToTheCaller() {
    try (Parallelizer p = new Parallelizer(4)) {
      IllegalStateException boom = new IllegalStateException("boom");
      assertThatThrownBy(
              () ->
                  p.until(
                      1000,
                      i -> {
                        if (i == 517) {
                          throw boom;
                        }
                      }))
          .isSameAs(boom);
      assertThatThrownBy(
              () ->
                  p.until(
                      3,
                      i -> {
                        throw new FrameworkException("small");
                      }))
          .isInstanceOf(FrameworkException.class)
          .hasMessage("small");
    }
  }

  @Test
  @Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
  void theCallerDoesNotWaitForAHelperThatNeverStarted() throws Exception {
    try (Parallelizer p = new Parallelizer(2)) {
      // Occupy the only helper thread: another call's work blocks whenever it runs on a helper.
      CountDownLatch release = new CountDownLatch(1);
      CountDownLatch helperBusy = new CountDownLatch(1);
      Thread other =
          new Thread(
              () ->
                  p.until(
                      1000,
                      i -> {
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
