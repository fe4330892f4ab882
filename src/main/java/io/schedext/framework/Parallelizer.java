package io.schedext.framework;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.IntConsumer;

/**
 * Runs a piece of work for each index in parallel over a bounded pool, as upstream's {@code parallelize.Until}:
 * indexes are handed out in chunks of about √n, the calling thread works too (so a busy pool never stalls a
 * request), and the call returns when every index is done. Thread-safe; one instance is shared by all requests.
 */
public final class Parallelizer implements AutoCloseable {

  private final int parallelism;
  private final ExecutorService pool;

  /** A parallelizer with {@code parallelism} workers in total (the caller counts as one). */
  public Parallelizer(int parallelism) {
    this.parallelism = Math.max(1, parallelism);
    AtomicInteger n = new AtomicInteger();
    ThreadFactory tf = r -> {
      Thread t = new Thread(r, "scheduling-" + n.incrementAndGet());
      t.setDaemon(true);
      return t;
    };
    this.pool = this.parallelism > 1 ? Executors.newFixedThreadPool(this.parallelism - 1, tf) : null;
  }

  /** The total number of workers. */
  public int parallelism() {
    return parallelism;
  }

  /**
   * Below this many pieces, {@link #untilLight} runs on the calling thread. Measured at 5,000 nodes on two CPUs: a
   * filter or prioritize call over 500 candidate nodes took half the time on one thread (median 0.42 against 0.81 ms
   * for the pair, p99 1.0 against 3.5 ms), while over 5,000 nodes two threads still win at the median.
   */
  public static final int LIGHT_SERIAL_BELOW = 1000;

  /**
   * Work for {@link #untilLight}: a piece's result is computed without changing shared state and then published at
   * most once, so that the same piece may run twice — on a helper and on the caller taking the rest of the helper's
   * chunk over, where the two meet or where the helper lost its CPU — and only one result is kept. Implementations
   * must be thread-safe.
   */
  public interface Pieces {

    /**
     * Computes {@code piece} and publishes its result unless a result for it is already published, in which case
     * this one is dropped. {@code worker} is 0 on the calling thread and 1 to {@code parallelism() - 1} on helpers,
     * so that per-worker scratch space can be indexed by it; at most one thread runs as a given worker at a time
     * within one call, though a helper's run can still be finishing after the call returned.
     */
    void run(int piece, int worker);

    /** Whether a result for {@code piece} is published, with everything written before its publication visible. */
    boolean published(int piece);
  }

  /**
   * Runs every piece of light work — a node's filters or scores, a microsecond or so each — and returns when every
   * piece has a published result. Below {@link #LIGHT_SERIAL_BELOW} pieces it runs on the calling thread: waking a
   * helper and waiting for its last chunk then costs more than the helper saves. Above, helpers take chunks as in
   * {@link #until}, but the caller never waits for one: once no chunk is left it runs, from the end backwards, the
   * pieces of every chunk still unpublished until it meets the helper coming forwards. A helper preempted mid-chunk
   * (a scheduler time slice, 1–4 ms on a busy machine) therefore costs the caller at most that chunk's remaining
   * work; the helper, when it runs again, finds its next piece published and stops, and its result for the piece it
   * was in is dropped. A runtime exception thrown by a run during the call is rethrown to the caller.
   */
  public void untilLight(int pieces, Pieces work) {
    if (pieces < LIGHT_SERIAL_BELOW || pool == null) {
      for (int i = 0; i < pieces; i++) {
        work.run(i, 0);
      }
      return;
    }
    int chunk = chunkSize(pieces);
    int chunks = (pieces + chunk - 1) / chunk;
    int helpers = Math.min(parallelism - 1, chunks - 1);
    AtomicInteger next = new AtomicInteger();
    AtomicReference<RuntimeException> failure = new AtomicReference<>();
    for (int h = 1; h <= helpers; h++) {
      int worker = h;
      pool.execute(() -> runPieces(pieces, chunk, next, failure, work, worker));
    }
    runPieces(pieces, chunk, next, failure, work, 0);
    if (failure.get() == null) {
      for (int c = chunks - 1; c >= 0; c--) {
        int start = c * chunk;
        for (int i = Math.min(pieces, start + chunk) - 1; i >= start && !work.published(i); i--) {
          work.run(i, 0);
        }
      }
    }
    if (failure.get() != null) {
      throw failure.get();
    }
  }

  /**
   * Claims chunks and runs their pieces forwards; a chunk is left at its first published piece, where the caller
   * taking it over from the end has reached.
   */
  private static void runPieces(int pieces, int chunk, AtomicInteger next, AtomicReference<RuntimeException> failure,
      Pieces work, int worker) {
    while (failure.get() == null) {
      int start = next.getAndAdd(chunk);
      if (start >= pieces) {
        return;
      }
      int end = Math.min(pieces, start + chunk);
      try {
        for (int i = start; i < end && !work.published(i); i++) {
          work.run(i, worker);
        }
      } catch (RuntimeException e) {
        failure.compareAndSet(null, e);
        return;
      }
    }
  }

  /**
   * Calls {@code work} once for each index in [0, pieces). A runtime exception thrown by {@code work} stops the
   * handing out of further chunks and is rethrown to the caller.
   */
  public void until(int pieces, IntConsumer work) {
    if (pieces <= 0) {
      return;
    }
    int chunk = chunkSize(pieces);
    int chunks = (pieces + chunk - 1) / chunk;
    int helpers = pool == null ? 0 : Math.min(parallelism - 1, chunks - 1);
    if (helpers == 0 || pieces < 8) {
      for (int i = 0; i < pieces; i++) {
        work.accept(i);
      }
      return;
    }
    AtomicInteger next = new AtomicInteger();
    AtomicReference<RuntimeException> failure = new AtomicReference<>();
    // A helper that has not started by the time the caller ran out of chunks is not waited for: it finds the slot
    // taken and returns. So a busy CPU that delays a helper's start never delays the answer.
    AtomicInteger unstarted = new AtomicInteger(helpers);
    CountDownLatch done = new CountDownLatch(helpers);
    Runnable loop = () -> runChunks(pieces, chunk, next, failure, work);
    for (int h = 0; h < helpers; h++) {
      pool.execute(() -> {
        if (unstarted.getAndDecrement() <= 0) {
          return;
        }
        try {
          loop.run();
        } finally {
          done.countDown();
        }
      });
    }
    loop.run();
    for (int late = Math.max(0, unstarted.getAndSet(0)); late > 0; late--) {
      done.countDown();
    }
    try {
      done.await();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new FrameworkException("interrupted while waiting for parallel work", e);
    }
    if (failure.get() != null) {
      throw failure.get();
    }
  }

  private static void runChunks(
      int pieces, int chunk, AtomicInteger next, AtomicReference<RuntimeException> failure, IntConsumer work) {
    while (failure.get() == null) {
      int start = next.getAndAdd(chunk);
      if (start >= pieces) {
        return;
      }
      int end = Math.min(pieces, start + chunk);
      try {
        for (int i = start; i < end; i++) {
          work.accept(i);
        }
      } catch (RuntimeException e) {
        failure.compareAndSet(null, e);
        return;
      }
    }
  }

  static int chunkSize(int pieces) {
    int s = (int) Math.sqrt(pieces);
    return Math.max(1, s);
  }

  @Override
  public void close() {
    if (pool != null) {
      pool.shutdownNow();
    }
  }
}
