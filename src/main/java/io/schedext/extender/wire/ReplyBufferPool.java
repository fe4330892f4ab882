package io.schedext.extender.wire;

import java.util.concurrent.ArrayBlockingQueue;

/**
 * The reply buffers kept for reuse, so that a reply is encoded into a buffer that has already grown
 * to a reply's size rather than into a new one: at most {@value #POOLED_BUFFERS} buffers of up to
 * {@value #POOLED_BUFFER_MAX_BYTES} bytes are kept, so concurrent callers never share one and an
 * occasional huge reply does not stay in memory. Thread-safe.
 */
public final class ReplyBufferPool {

  /** Reply buffers kept for reuse. */
  static final int POOLED_BUFFERS = 8;

  /** Reply buffers that grew larger than this are dropped after use. */
  static final int POOLED_BUFFER_MAX_BYTES = 4 * 1024 * 1024;

  private final ArrayBlockingQueue<ReplyBuffer> buffers = new ArrayBlockingQueue<>(POOLED_BUFFERS);

  /**
   * A reply buffer to encode into, reused when one is free, else new (64 KB); hand it back with
   * {@link #release(ReplyBuffer)}.
   */
  public ReplyBuffer borrow() {
    ReplyBuffer b = buffers.poll();
    return b != null ? b : new ReplyBuffer(64 * 1024);
  }

  /**
   * Takes back a buffer from {@link #borrow()} (it must no longer be used): kept, cleared, unless
   * it grew too large or the pool is full.
   */
  public void release(ReplyBuffer buf) {
    if (buf.capacity() <= POOLED_BUFFER_MAX_BYTES) {
      buf.reset();
      buffers.offer(buf);
    }
  }
}
