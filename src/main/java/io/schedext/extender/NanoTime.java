package io.schedext.extender;

import java.util.function.LongSupplier;

/**
 * The service's monotonic clock, as one instance. Each {@code System::nanoTime} written out is a
 * class of its own, and the optimising compiler inlines the one class it saw at a call site: the
 * objects of separate verbs and the live ones given two such suppliers made the first live filter
 * call fail a class check inside the compiled filter path, which was thrown away and compiled again
 * while kube-scheduler's first calls waited (docs/performance.md, "Where the time goes").
 */
public final class NanoTime {

  /** {@link System#nanoTime()}. */
  public static final LongSupplier SYSTEM = System::nanoTime;

  private NanoTime() {}
}
