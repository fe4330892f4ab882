package io.schedext.testing;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.time.Duration;
import java.util.Arrays;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.DelayQueue;
import java.util.concurrent.Delayed;
import java.util.concurrent.TimeUnit;

/**
 * A loopback TCP proxy in front of a server that a test can stall (bytes are read but held, in both
 * directions, and delivered when it resumes: a network that delivers late), slow down (every byte
 * from the server delivered a fixed time after it arrived, in order: a client whose watch lags) or
 * cut (every connection closed, held bytes dropped, new connections closed at once: an unreachable
 * server). Thread-safe.
 */
public final class StallingProxy implements AutoCloseable {

  private final InetSocketAddress target;
  private final ServerSocket server;
  private final Set<Socket> sockets = ConcurrentHashMap.newKeySet();
  private final Object lock = new Object();
  private boolean stalled;
  private boolean cut;
  private long cuts;
  private volatile long delayNanos;

  /** A proxy on a free loopback port forwarding to {@code target}. */
  public StallingProxy(InetSocketAddress target) {
    this.target = target;
    try {
      server = new ServerSocket(0, 200, InetAddress.getLoopbackAddress());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    Thread accept = new Thread(this::accept, "proxy-accept");
    accept.setDaemon(true);
    accept.start();
  }

  /** The proxy's URL, {@code http://127.0.0.1:<port>}. */
  public String url() {
    return "http://127.0.0.1:" + server.getLocalPort();
  }

  /** The proxy's port (TLS passes through it untouched: a client may speak https to it). */
  public int port() {
    return server.getLocalPort();
  }

  /**
   * Delivers every byte the server sends from now on {@code delay} after it arrived, in order
   * ({@link Duration#ZERO}: at once again); what the client sends is not delayed.
   */
  public void delayFromServer(Duration delay) {
    delayNanos = delay.toNanos();
  }

  /** Holds every byte from now on until {@link #resume()}. */
  public void stall() {
    synchronized (lock) {
      stalled = true;
    }
  }

  /** Delivers what was held and forwards again. */
  public void resume() {
    synchronized (lock) {
      stalled = false;
      lock.notifyAll();
    }
  }

  /**
   * Closes every connection, drops what was held, and refuses new connections until {@link
   * #heal()}.
   */
  public void cut() {
    synchronized (lock) {
      cut = true;
      cuts++;
      stalled = false;
      lock.notifyAll();
    }
    sockets.forEach(StallingProxy::closeQuietly);
  }

  /** Accepts and forwards again after {@link #cut()}. */
  public void heal() {
    synchronized (lock) {
      cut = false;
    }
  }

  private void accept() {
    while (!server.isClosed()) {
      try {
        Socket client = server.accept();
        synchronized (lock) {
          if (cut) {
            closeQuietly(client);
            continue;
          }
        }
        Socket upstream = new Socket(target.getAddress(), target.getPort());
        sockets.add(client);
        sockets.add(upstream);
        pump(client, upstream, false);
        pump(upstream, client, true);
      } catch (IOException e) {
        // Closed, or the target is gone: the next accept decides.
      }
    }
  }

  private void pump(Socket from, Socket to, boolean fromServer) {
    Thread t =
        new Thread(
            () -> {
              long epoch;
              synchronized (lock) {
                epoch = cuts;
              }
              byte[] buf = new byte[16 * 1024];
              Delivery delivery = fromServer ? new Delivery(from, to) : null;
              boolean handedOver = false;
              try {
                InputStream in = from.getInputStream();
                OutputStream out = to.getOutputStream();
                int n;
                while ((n = in.read(buf)) >= 0) {
                  if (!awaitFlowing(epoch)) {
                    break;
                  }
                  long delay = delayNanos;
                  if (delivery != null && (delay > 0 || delivery.started())) {
                    delivery.later(Arrays.copyOf(buf, n), System.nanoTime() + delay);
                  } else {
                    out.write(buf, 0, n);
                    out.flush();
                  }
                }
                // The server closed: what is still due is delivered before the client's side
                // closes.
                handedOver = delivery != null && delivery.end();
              } catch (IOException | InterruptedException e) {
                // A side closed: close the other below.
              } finally {
                if (!handedOver) {
                  closeQuietly(from);
                  closeQuietly(to);
                  sockets.remove(from);
                  sockets.remove(to);
                }
              }
            },
            "proxy-pump");
    t.setDaemon(true);
    t.start();
  }

  /** A chunk due at {@code due} (System.nanoTime); {@code bytes} null marks the end. */
  private record Chunk(byte[] bytes, long due) implements Delayed {
    @Override
    public long getDelay(TimeUnit unit) {
      return unit.convert(due - System.nanoTime(), TimeUnit.NANOSECONDS);
    }

    @Override
    public int compareTo(Delayed o) {
      return Long.compare(due, ((Chunk) o).due);
    }
  }

  /**
   * Writes the chunks of one connection's server side when they are due, in order, on a thread of
   * its own (dues never decrease while a delay holds, so their order is the order read).
   */
  private final class Delivery {
    private final Socket from;
    private final Socket to;
    private final DelayQueue<Chunk> due = new DelayQueue<>();
    private Thread writer;
    private long last;

    Delivery(Socket from, Socket to) {
      this.from = from;
      this.to = to;
    }

    /** Whether chunks go through the writer: once they did, all do, so none overtakes another. */
    boolean started() {
      return writer != null;
    }

    void later(byte[] bytes, long at) {
      // Never ahead of a chunk read earlier, even when the delay was shortened meanwhile.
      last = Math.max(last, at);
      due.add(new Chunk(bytes, last));
      if (writer == null) {
        writer = new Thread(this::write, "proxy-delivery");
        writer.setDaemon(true);
        writer.start();
      }
    }

    /** Closes both sides once the chunks still due are written; false when none ever was. */
    boolean end() {
      if (writer == null) {
        return false;
      }
      due.add(new Chunk(null, last));
      return true;
    }

    private void write() {
      try {
        OutputStream out = to.getOutputStream();
        for (Chunk c = due.take(); c.bytes() != null; c = due.take()) {
          out.write(c.bytes());
          out.flush();
        }
      } catch (IOException | InterruptedException e) {
        // The client's side closed: nothing left to deliver to.
      } finally {
        closeQuietly(from);
        closeQuietly(to);
        sockets.remove(from);
        sockets.remove(to);
      }
    }
  }

  /**
   * Waits while stalled; false when the connection was cut meanwhile (its held bytes are dropped).
   */
  private boolean awaitFlowing(long epoch) throws InterruptedException {
    synchronized (lock) {
      while (stalled && cuts == epoch) {
        lock.wait();
      }
      return cuts == epoch;
    }
  }

  private static void closeQuietly(Socket s) {
    try {
      s.close();
    } catch (IOException e) {
      // Already closed.
    }
  }

  @Override
  public void close() {
    cut();
    try {
      server.close();
    } catch (IOException e) {
      // Already closed.
    }
  }
}
