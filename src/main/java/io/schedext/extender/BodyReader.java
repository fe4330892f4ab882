package io.schedext.extender;

import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.SocketTimeoutException;
import java.time.Duration;
import java.util.function.LongSupplier;

/**
 * Reads request bodies within the size limit ({@code extender.http.max-request-bytes}) and the read
 * deadline ({@code extender.http.body-read-timeout}), and turns a body cut short by either into its
 * {@link BadRequestException}: 413 over the limit, 408 not received in time, else 400. Thread-safe:
 * each body is read through a stream of its own.
 */
final class BodyReader {

  private final long maxBodyBytes;
  private final long bodyReadNanos;
  private final LongSupplier nanoTime;

  /**
   * Reads bodies of up to {@code maxBodyBytes}, whose reads wait for the client no longer than
   * {@code bodyReadTimeout} in all (zero: no deadline), timed by {@code nanoTime}.
   */
  BodyReader(long maxBodyBytes, Duration bodyReadTimeout, LongSupplier nanoTime) {
    this.maxBodyBytes = maxBodyBytes;
    this.bodyReadNanos = bodyReadTimeout.toNanos();
    this.nanoTime = nanoTime;
  }

  /** The body size limit. */
  long maxBodyBytes() {
    return maxBodyBytes;
  }

  /**
   * {@code in} read within the limit and the deadline: its reads fail once either is passed, with
   * an exception {@link #throwIfCutShort} recognises. One per body.
   */
  InputStream limited(InputStream in) {
    return new Limited(in, maxBodyBytes, bodyReadNanos, nanoTime);
  }

  /**
   * Reads a whole request body into memory; a body longer than the limit is a 413 {@link
   * BadRequestException}.
   */
  byte[] readAll(InputStream in) {
    try {
      return limited(in).readAllBytes();
    } catch (IOException e) {
      throw unreadable(e);
    }
  }

  /**
   * Reads a body of the {@code length} bytes its request declared, as {@link #readAll(InputStream)}
   * does, into one array of that length: reading to the end of an unknown length fills 8 KB chunks
   * and then copies them into the result, twice the body's size in garbage (a quarter of what a
   * 5,000-name call allocated). A body that ends before {@code length} bytes is a 400.
   */
  byte[] read(InputStream in, int length) {
    byte[] body = new byte[length];
    int n;
    try {
      n = limited(in).readNBytes(body, 0, length);
    } catch (IOException e) {
      throw unreadable(e);
    }
    if (n < length) {
      throw new BadRequestException(
          "request body ended after "
              + n
              + " of the "
              + length
              + " bytes its Content-Length declares");
    }
    return body;
  }

  /**
   * The error for a body that could not be read: a 413 or 408 when the limit or the deadline cut it
   * short ({@link #throwIfCutShort}, which throws those), else a 400.
   */
  BadRequestException unreadable(IOException e) {
    throwIfCutShort(e);
    return new BadRequestException("unreadable request body: " + e.getMessage());
  }

  /**
   * Throws the 413 when the limit caused {@code e} (anywhere in its causes), the 408 when the
   * deadline or the server's read timeout did; returns otherwise.
   */
  void throwIfCutShort(Throwable e) {
    tooLarge(e);
    tooSlow(e);
  }

  private void tooLarge(Throwable e) {
    for (Throwable t = e; t != null; t = t.getCause()) {
      if (t instanceof TooLarge) {
        throw new BadRequestException(
            413,
            "request body exceeds the limit of "
                + maxBodyBytes
                + " bytes (property extender.http.max-request-bytes)");
      }
    }
  }

  /**
   * A body not read in time is a 408: the client stalled inside it (its last bytes never came
   * within the server's read timeout, {@code server.tomcat.connection-timeout}) or trickled it for
   * longer than the deadline.
   */
  private void tooSlow(Throwable e) {
    for (Throwable t = e; t != null; t = t.getCause()) {
      if (t instanceof TooSlow || t instanceof SocketTimeoutException) {
        throw new BadRequestException(
            408,
            "request body not received in time (extender.http.body-read-timeout "
                + Duration.ofNanos(bodyReadNanos)
                + ", server.tomcat.connection-timeout between two reads): "
                + t.getMessage());
      }
    }
  }

  /**
   * Thrown by {@link Limited} once the reads of one body waited longer than the deadline in all.
   */
  private static final class TooSlow extends IOException {
    TooSlow(long nanos) {
      super("waited for the body longer than " + Duration.ofNanos(nanos));
    }
  }

  /** Thrown by {@link Limited} once the body passes the limit. */
  private static final class TooLarge extends IOException {
    TooLarge() {
      super("request body too large");
    }
  }

  /**
   * An input stream that fails once more than {@code limit} bytes were read, or once its reads have
   * waited for the client longer than {@code nanos} in all (0: never). Only the time inside the
   * reads counts: decoding between them (slow on a cold start, or for thousands of full Node
   * objects) is the server's time, not the client's.
   */
  private static final class Limited extends FilterInputStream {
    private long remaining;
    private final long nanos;
    private final LongSupplier nanoTime;
    private long waited;

    Limited(InputStream in, long limit, long nanos, LongSupplier nanoTime) {
      super(in);
      this.remaining = limit;
      this.nanos = nanos;
      this.nanoTime = nanoTime;
    }

    private void waitedSince(long start) throws TooSlow {
      waited += nanoTime.getAsLong() - start;
      if (nanos > 0 && waited > nanos) {
        throw new TooSlow(nanos);
      }
    }

    @Override
    public int read() throws IOException {
      long start = nanoTime.getAsLong();
      int b = super.read();
      waitedSince(start);
      if (b >= 0 && --remaining < 0) {
        throw new TooLarge();
      }
      return b;
    }

    @Override
    public int read(byte[] buf, int off, int len) throws IOException {
      long start = nanoTime.getAsLong();
      int n = super.read(buf, off, len);
      waitedSince(start);
      if (n > 0) {
        remaining -= n;
        if (remaining < 0) {
          throw new TooLarge();
        }
      }
      return n;
    }
  }
}
