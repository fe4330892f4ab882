package io.schedext.framework.parallelize;

import io.schedext.framework.FrameworkException;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.IntConsumer;

/**
 * Runs a piece of work for each index in parallel over a bounded pool, as upstream's {@code
 * parallelize.Until}: indexes are handed out in chunks of about √n, the calling thread works too
 * (so a busy pool never stalls a request), and the call returns when every index is done.
 * Thread-safe; one instance is shared by all requests.
 */
public final class Parallelizer implements AutoCloseable {

  private final int parallelism;
  private final ExecutorService pool;

  /** A parallelizer with {@code parallelism} workers in total (the caller counts as one). */
  public Parallelizer(int parallelism) {
    this.parallelism = Math.max(1, parallelism);
    AtomicInteger n = new AtomicInteger();
    ThreadFactory tf =
        r -> {
          Thread t = new Thread(r, "scheduling-" + n.incrementAndGet());
          t.setDaemon(true);
          return t;
        };
    this.pool =
        this.parallelism > 1 ? Executors.newFixedThreadPool(this.parallelism - 1, tf) : null;
  }

  /** The total number of workers. */
  public int parallelism() {
    return parallelism;
  }

  /**
   * Below this many pieces, {@link #untilLight} runs on the calling thread. Measured at 5,000 nodes
   * on two CPUs: a filter or prioritize call over 500 candidate nodes took half the time on one
   * thread (median 0.42 against 0.81 ms for the pair, p99 1.0 against 3.5 ms), while over 5,000
   * nodes two threads still win at the median.
   */
  public static final int LIGHT_SERIAL_BELOW = 1000;

  /**
   * Pieces per block of {@link #untilLight}: results are claimed and published a block at a time,
   * so the atomic operations (a fence each) cost a sixteenth of a per-piece publication, and at
   * most a block runs twice.
   */
  public static final int BLOCK = 16;

  /**
   * Work for {@link #untilLight}, in blocks of {@link #BLOCK} pieces. A block's results are first
   * computed into the running worker's own scratch space, without changing shared state, and then
   * stored where the caller reads them by the one worker that claims the block. So the same block
   * may be computed twice — on a helper and on the caller taking the rest of the helper's chunk
   * over, where the two meet or where the helper lost its CPU — and only one result is kept, never
   * stored after the call returned. Subclasses must be thread-safe; workers must not share a cache
   * line of scratch space (pad each worker's part by {@link #SCRATCH_PAD} elements).
   */
  public abstract static class Blocks {

    /**
     * Elements of scratch space between two workers' parts: 128 bytes of longs, at least a cache
     * line.
     */
    public static final int SCRATCH_PAD = 16;

    private static final int FREE = 0;
    private static final int STORING = 1;
    private static final int STORED = 2;

    private final AtomicIntegerArray states;

    /** Work over {@code pieces} pieces. */
    protected Blocks(int pieces) {
      this.states = new AtomicIntegerArray(Math.max(1, blocks(pieces)));
    }

    /**
     * Computes pieces [{@code from}, {@code to}) into the scratch space of {@code worker} (0 on the
     * calling thread, 1 to {@code parallelism() - 1} on helpers; one thread per worker at a time
     * within a call).
     */
    protected abstract void compute(int from, int to, int worker);

    /**
     * Stores the results of pieces [{@code from}, {@code to}) from the scratch space of {@code
     * worker}.
     */
    protected abstract void store(int from, int to, int worker);

    /**
     * Computes the block and stores it unless another worker claimed it first (waiting until that
     * one stored).
     */
    final void run(int block, int pieces, int worker) {
      int from = block * BLOCK;
      int to = Math.min(pieces, from + BLOCK);
      compute(from, to, worker);
      if (states.compareAndSet(block, FREE, STORING)) {
        store(from, to, worker);
        states.setRelease(block, STORED);
      } else {
        while (states.get(block) != STORED) {
          Thread.onSpinWait();
        }
      }
    }

    /** Whether the block's results are stored, with the stores visible to the caller. */
    final boolean stored(int block) {
      return states.getAcquire(block) == STORED;
    }
  }

  /**
   * The layout of a {@link Blocks} loop's scratch array: each worker owns room for one block of
   * {@code width} slots per piece, and the parts are {@link Blocks#SCRATCH_PAD} slots apart so no
   * two workers share a cache line.
   *
   * @param width slots per piece (1 for one result per node; the plugin count for a score per
   *     plugin per node)
   */
  public record Scratch(int width) {

    /** The length of the scratch array for {@code parallelism} workers. */
    public int length(int parallelism) {
      return parallelism * part() + Blocks.SCRATCH_PAD;
    }

    /** The index of the first slot of {@code worker}'s part. */
    public int start(int worker) {
      return Blocks.SCRATCH_PAD + worker * part();
    }

    private int part() {
      return BLOCK * width + Blocks.SCRATCH_PAD;
    }
  }

  private static int blocks(int pieces) {
    return (pieces + BLOCK - 1) / BLOCK;
  }

  /**
   * Runs every piece of light work — a node's filters or scores, a microsecond or so each — and
   * returns when every block's results are stored. Below {@link #LIGHT_SERIAL_BELOW} pieces it runs
   * on the calling thread: waking a helper and waiting for its last chunk then costs more than the
   * helper saves. Above, helpers take chunks of about √pieces as in {@link #until}, but the caller
   * never waits for one: once no chunk is left it runs, from the end backwards, the blocks of every
   * chunk not yet stored until it meets the helper coming forwards. A helper preempted mid-chunk (a
   * scheduler time slice, 1–4 ms on a busy machine) therefore costs the caller at most that chunk's
   * remaining work; the helper, when it runs again, finds its next block stored and stops, and its
   * result for the block it was in is dropped. A runtime exception thrown by a computation during
   * the call is rethrown to the caller.
   */
  public void untilLight(int pieces, Blocks work) {
    int blocks = blocks(pieces);
    if (pieces < LIGHT_SERIAL_BELOW || pool == null) {
      for (int b = 0; b < blocks; b++) {
        int from = b * BLOCK;
        int to = Math.min(pieces, from + BLOCK);
        work.compute(from, to, 0);
        work.store(from, to, 0);
      }
      return;
    }
    int chunk = Math.max(1, chunkSize(pieces) / BLOCK);
    int chunks = (blocks + chunk - 1) / chunk;
    int helpers = Math.min(parallelism - 1, chunks - 1);
    AtomicInteger next = new AtomicInteger();
    AtomicReference<RuntimeException> failure = new AtomicReference<>();
    for (int h = 1; h <= helpers; h++) {
      int worker = h;
      pool.execute(() -> runBlocks(pieces, blocks, chunk, next, failure, work, worker));
    }
    runBlocks(pieces, blocks, chunk, next, failure, work, 0);
    if (failure.get() == null) {
      for (int c = chunks - 1; c >= 0; c--) {
        int start = c * chunk;
        for (int b = Math.min(blocks, start + chunk) - 1; b >= start && !work.stored(b); b--) {
          work.run(b, pieces, 0);
        }
      }
    }
    if (failure.get() != null) {
      throw failure.get();
    }
  }

  /**
   * Claims chunks of blocks and runs them forwards; a chunk is left at its first stored block,
   * where the caller taking it over from the end has reached.
   */
  private static void runBlocks(
      int pieces,
      int blocks,
      int chunk,
      AtomicInteger next,
      AtomicReference<RuntimeException> failure,
      Blocks work,
      int worker) {
    while (failure.get() == null) {
      int start = next.getAndAdd(chunk);
      if (start >= blocks) {
        return;
      }
      int end = Math.min(blocks, start + chunk);
      try {
        for (int b = start; b < end && !work.stored(b); b++) {
          work.run(b, pieces, worker);
        }
      } catch (RuntimeException e) {
        failure.compareAndSet(null, e);
        return;
      }
    }
  }

  /**
   * Calls {@code work} once for each index in [0, pieces). A runtime exception thrown by {@code
   * work} stops the handing out of further chunks and is rethrown to the caller.
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
    // A helper that has not started by the time the caller ran out of chunks is not waited for: it
    // finds the slot taken and returns. So a busy CPU that delays a helper's start never delays the
    // answer.
    AtomicInteger unstarted = new AtomicInteger(helpers);
    CountDownLatch done = new CountDownLatch(helpers);
    Runnable loop = () -> runChunks(pieces, chunk, next, failure, work);
    for (int h = 0; h < helpers; h++) {
      pool.execute(
          () -> {
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
      int pieces,
      int chunk,
      AtomicInteger next,
      AtomicReference<RuntimeException> failure,
      IntConsumer work) {
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
