package io.schedext.testing;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A loopback TCP proxy in front of a server that a test can stall (bytes are read but held, in both
 * directions, and delivered when it resumes: a network that delivers late) or cut (every connection
 * closed, held bytes dropped, new connections closed at once: an unreachable server). Thread-safe.
 */
public final class StallingProxy implements AutoCloseable {

  private final InetSocketAddress target;
  private final ServerSocket server;
  private final Set<Socket> sockets = ConcurrentHashMap.newKeySet();
  private final Object lock = new Object();
  private boolean stalled;
  private boolean cut;
  private long cuts;

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
        pump(client, upstream);
        pump(upstream, client);
      } catch (IOException e) {
        // Closed, or the target is gone: the next accept decides.
      }
    }
  }

  private void pump(Socket from, Socket to) {
    Thread t =
        new Thread(
            () -> {
              long epoch;
              synchronized (lock) {
                epoch = cuts;
              }
              byte[] buf = new byte[16 * 1024];
              try (InputStream in = from.getInputStream();
                  OutputStream out = to.getOutputStream()) {
                int n;
                while ((n = in.read(buf)) >= 0) {
                  if (!awaitFlowing(epoch)) {
                    break;
                  }
                  out.write(buf, 0, n);
                  out.flush();
                }
              } catch (IOException | InterruptedException e) {
                // A side closed: close the other below.
              } finally {
                closeQuietly(from);
                closeQuietly(to);
                sockets.remove(from);
                sockets.remove(to);
              }
            },
            "proxy-pump");
    t.setDaemon(true);
    t.start();
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
