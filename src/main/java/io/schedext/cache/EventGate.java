package io.schedext.cache;

import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Lets scheduling requests go before watch events. kube-scheduler waits on every filter, prioritize
 * and preempt call, while a watch event can wait a little: no request sees the cache change it
 * brings before the request's next snapshot anyway. So the watch handlers call {@link
 * #awaitQuiet()} before applying a node or pod event, and while a request is being answered they
 * wait for it to finish — at most {@code maxWait} at a time. On a small machine a burst of events
 * then no longer takes the CPUs a request needs (applying an event costs a few microseconds, but a
 * burst of a thousand keeps a CPU busy for as long as a request takes), and the events are applied
 * in the gaps between calls.
 *
 * <p>A wait ends at the end of a request even when the handler's thread only gets a CPU after the
 * next request has started (with a caller that sends its next call at once, the gap between two
 * calls is shorter than a thread's wake-up on a busy machine): it then applies that event and the
 * next {@link #PASSES_AFTER_GAP} without waiting, its share of the gap it missed, so events keep
 * flowing between back-to-back calls instead of waiting for their {@code maxWait} to run out.
 *
 * <p>Progress is guaranteed: after a wait that ran out, the thread applies the next {@link
 * #PASSES_AFTER_TIMEOUT} events without waiting. Calls that follow one another leave gaps in which
 * events go through; when calls overlap without a gap (several callers at once), a handler still
 * applies 256 events per {@code maxWait} (over 40,000 a second at the default 5 ms, about a
 * millisecond of its work in every six), so a relist of a large cluster under full load is applied
 * within seconds. A {@code maxWait} of zero turns the gate off. Thread-safe; waiting costs one
 * volatile read when no request is in flight.
 */
public final class EventGate {

  /** Events a thread applies without waiting after one of its waits ran out. */
  public static final int PASSES_AFTER_TIMEOUT = 256;

  /**
   * Events a thread applies without waiting after a wait that a request's end finished but that it
   * returned from only once the next request had started: a few microseconds of work each, so a few
   * dozen overlap the request.
   */
  public static final int PASSES_AFTER_GAP = 16;

  private final long maxWaitNanos;
  private final AtomicInteger inFlight = new AtomicInteger();
  private final AtomicInteger waiters = new AtomicInteger();

  /** Times the last request in flight finished: the gaps between requests, counted. */
  private final AtomicLong gaps = new AtomicLong();

  private final ReentrantLock lock = new ReentrantLock();
  private final Condition quiet = lock.newCondition();
  private final ThreadLocal<int[]> passes = ThreadLocal.withInitial(() -> new int[1]);
  private final AtomicLong delayedEvents = new AtomicLong();
  private final AtomicLong timedOut = new AtomicLong();
  private final AtomicLong delayNanos = new AtomicLong();

  /**
   * A gate holding events back for at most {@code maxWait} per wait; zero or negative turns it off.
   */
  public EventGate(Duration maxWait) {
    this.maxWaitNanos = Math.max(0, maxWait.toNanos());
  }

  /** A gate that never holds events back. */
  public static EventGate off() {
    return new EventGate(Duration.ZERO);
  }

  /** Whether this gate ever holds events back. */
  public boolean enabled() {
    return maxWaitNanos > 0;
  }

  /** A request the scheduler waits on started; pair with {@link #requestFinished()}. */
  public void requestStarted() {
    inFlight.incrementAndGet();
  }

  /** A request started with {@link #requestStarted()} finished (answered or failed). */
  public void requestFinished() {
    if (inFlight.decrementAndGet() == 0) {
      gaps.incrementAndGet();
      if (waiters.get() > 0) {
        lock.lock();
        try {
          quiet.signalAll();
        } finally {
          lock.unlock();
        }
      }
    }
  }

  /**
   * The request in flight finishes and the next starts before a waiting thread can return: what a
   * waiting thread sees when it gets a CPU only after the caller sent its next call. For tests; the
   * caller must have a request in flight.
   */
  void handOver() {
    lock.lock();
    try {
      requestFinished();
      requestStarted();
    } finally {
      lock.unlock();
    }
  }

  /**
   * Called by a watch handler before it applies an event: returns at once when no request is in
   * flight (or the gate is off, or this thread still has passes from an earlier wait); otherwise
   * waits until the requests in flight have all finished once, or for {@code maxWait}. An interrupt
   * ends the wait early and is kept.
   */
  public void awaitQuiet() {
    if (maxWaitNanos == 0 || inFlight.get() == 0) {
      return;
    }
    int[] left = passes.get();
    if (left[0] > 0) {
      left[0]--;
      return;
    }
    long start = System.nanoTime();
    // A gap counted after this read ends the wait, even if another request has started by the time
    // this thread runs.
    long gapsSeen = gaps.get();
    boolean ranOut = false;
    waiters.incrementAndGet();
    lock.lock();
    try {
      long remaining = maxWaitNanos;
      while (inFlight.get() > 0 && gaps.get() == gapsSeen) {
        if (remaining <= 0) {
          ranOut = true;
          break;
        }
        remaining = quiet.awaitNanos(remaining);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } finally {
      lock.unlock();
      waiters.decrementAndGet();
    }
    if (ranOut) {
      left[0] = PASSES_AFTER_TIMEOUT;
      timedOut.incrementAndGet();
    } else if (inFlight.get() > 0 && gaps.get() != gapsSeen) {
      left[0] = PASSES_AFTER_GAP;
    }
    delayedEvents.incrementAndGet();
    delayNanos.addAndGet(System.nanoTime() - start);
  }

  /** Requests in flight now. */
  public int inFlight() {
    return inFlight.get();
  }

  /** Threads waiting in {@link #awaitQuiet()} now. */
  public int waiting() {
    return waiters.get();
  }

  /** Events that waited for a request since start. */
  public long delayedEvents() {
    return delayedEvents.get();
  }

  /** Waits that ran out of {@code maxWait} since start. */
  public long timedOut() {
    return timedOut.get();
  }

  /** The time events spent waiting since start, in seconds. */
  public double delaySeconds() {
    return delayNanos.get() / (double) TimeUnit.SECONDS.toNanos(1);
  }
}
