package io.schedext.extender;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;

/**
 * The threads binds run on, apart from the HTTP workers: a bind waits on the API server (and on
 * Permit and PreBind plugins), so however many binds are stuck, filter, prioritize, preempt and the
 * health probes keep their workers. A fixed number of threads and no queue: a bind that finds them
 * all busy is refused at once rather than waiting behind binds kube-scheduler may already have
 * given up on. Thread-safe.
 */
public final class BindWorkers implements AutoCloseable {

  private final ThreadPoolExecutor pool;

  /** {@code workers} threads (at least one). */
  public BindWorkers(int workers) {
    int n = Math.max(1, workers);
    AtomicInteger seq = new AtomicInteger();
    this.pool =
        new ThreadPoolExecutor(
            n,
            n,
            60,
            TimeUnit.SECONDS,
            new SynchronousQueue<>(),
            r -> {
              Thread t = new Thread(r, "bind-" + seq.incrementAndGet());
              t.setDaemon(true);
              return t;
            },
            new ThreadPoolExecutor.AbortPolicy());
    pool.allowCoreThreadTimeOut(true);
  }

  /** The number of threads. */
  public int workers() {
    return pool.getMaximumPoolSize();
  }

  /** Binds in progress now. */
  public int busy() {
    return pool.getActiveCount();
  }

  /**
   * Runs {@code bind} on a free thread; the future completes with its result, or exceptionally with
   * what it threw.
   *
   * @throws RejectedExecutionException when every thread is busy (nothing was started)
   */
  public <T> CompletableFuture<T> submit(Supplier<T> bind) {
    return CompletableFuture.supplyAsync(bind, pool);
  }

  @Override
  public void close() {
    pool.shutdownNow();
  }
}
