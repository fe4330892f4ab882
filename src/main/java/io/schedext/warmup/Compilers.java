package io.schedext.warmup;

import java.time.Duration;
import java.util.concurrent.locks.LockSupport;
import java.util.function.LongConsumer;
import java.util.function.LongSupplier;

/**
 * The just-in-time compilers as the warm-up ({@link WarmUp}) sees them: how much they have compiled
 * so far, and how long the warm-up waits for them to finish what its calls set them to compile.
 *
 * @param compiledMillis the compilers' CPU time so far, in milliseconds (summed over their
 *     threads), or -1 when it cannot be known
 * @param maxWaitNanos the longest wait after the calls; 0 waits not at all
 * @param park waits the given nanoseconds (or returns earlier)
 */
public record Compilers(LongSupplier compiledMillis, long maxWaitNanos, LongConsumer park) {

  /** Not waited for. */
  public static final Compilers NO_WAIT = new Compilers(() -> -1, 0, nanos -> {});

  /** This JVM's compilers ({@link CompilerCpu}), waited for at most {@code maxWait}. */
  public static Compilers ofThisJvm(Duration maxWait) {
    return new Compilers(CompilerCpu.ofThisJvm(), maxWait.toNanos(), LockSupport::parkNanos);
  }
}
