package io.schedext.cluster;

import java.util.ArrayDeque;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;

/**
 * The API client's task executor, handing the next step of a watch event to the thread that ran the
 * step before instead of waking another one. fabric8 passes each event through three serial
 * executors in turn (the watch's, its watcher's and the informer's, each running one task at a time
 * on this executor): the frame decoded, the informer's store updated, the handler called. On a pool
 * each step wakes a parked thread, six wake-ups per scheduled pod; a profile of a warm loop round
 * put a fifth of the watch side's CPU on those hand-offs.
 *
 * <p>A task a serial executor submits while this thread runs one of that kind's tasks is queued
 * here and run by this thread once the running task has returned: after it, never inside it, so no
 * lock the running task holds is held longer and the serial executors' order is kept. Any other
 * task, and every task submitted from another thread (the event loops reading the watch), goes to
 * the pool as before. Only the serial executors' tasks are taken this way: each is one step that
 * runs to its end without waiting for another task, so none can wait for one queued behind it. When
 * the pool is shut down, what is queued is dropped, as the pool drops what it has not started.
 */
final class SerialHandoff implements Executor {

  /** The class whose tasks are run in turn: fabric8's serial executor. */
  static final String SERIAL_EXECUTOR =
      "io.fabric8.kubernetes.client.utils.internal.SerialExecutor";

  private final ExecutorService pool;

  /**
   * Per pool thread, the tasks queued by the serial task it runs. Kept for the thread's life rather
   * than removed after each run: removing a thread-local clears a weak reference, which cost more
   * than the queue it held.
   */
  private final ThreadLocal<Turn> turns = ThreadLocal.withInitial(Turn::new);

  /** One thread's queue, and whether it is running a serial task now. */
  private static final class Turn {
    final ArrayDeque<Runnable> queued = new ArrayDeque<>();
    boolean running;
  }

  SerialHandoff(ExecutorService pool) {
    this.pool = pool;
  }

  @Override
  public void execute(Runnable task) {
    if (!serial(task)) {
      pool.execute(task);
      return;
    }
    Turn turn = turns.get();
    if (turn.running) {
      turn.queued.add(task);
      return;
    }
    pool.execute(() -> runInTurn(task));
  }

  /** Runs {@code first}, then every serial task queued meanwhile, in order, on this thread. */
  private void runInTurn(Runnable first) {
    Turn turn = turns.get();
    turn.running = true;
    try {
      for (Runnable t = first; t != null && !pool.isShutdown(); t = turn.queued.poll()) {
        try {
          t.run();
        } catch (RuntimeException | Error e) {
          Thread self = Thread.currentThread();
          self.getUncaughtExceptionHandler().uncaughtException(self, e);
        }
      }
    } finally {
      turn.running = false;
      turn.queued.clear();
    }
  }

  /** Whether {@code task} is a step of fabric8's serial executor (a lambda of that class). */
  static boolean serial(Runnable task) {
    Class<?> c = task.getClass();
    return c.isHidden() && c.getNestHost().getName().equals(SERIAL_EXECUTOR);
  }
}
