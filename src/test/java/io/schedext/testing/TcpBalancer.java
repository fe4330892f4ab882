package io.schedext.testing;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A loopback TCP balancer in front of several backends, as a Service's virtual IP is in front of
 * its ready endpoints (kube-proxy balances connections, not requests): each new connection goes to
 * the next backend in service, round-robin, and stays with it for its whole life. Taking a backend
 * out of service ({@link #remove}) sends it no new connection, while the connections it already has
 * go on until either side closes them, as conntrack keeps them going to a terminating pod. A
 * connection that arrives while no backend is in service, or whose backend refuses it, is closed at
 * once (as a refused connection to a Service without endpoints). Half-closes pass through: a
 * backend closing its side after a reply lets the client read the reply to its end. Thread-safe.
 */
public final class TcpBalancer implements AutoCloseable {

  private final ServerSocket server;
  private final List<Integer> inService = new ArrayList<>();
  private final Map<Integer, AtomicLong> accepted = new ConcurrentHashMap<>();
  private final AtomicLong dropped = new AtomicLong();
  private final Set<Socket> sockets = ConcurrentHashMap.newKeySet();
  private final AtomicInteger next = new AtomicInteger();

  /** A balancer on a free loopback port over {@code backends} (loopback ports), all in service. */
  public TcpBalancer(List<Integer> backends) {
    backends.forEach(this::add);
    try {
      server = new ServerSocket(0, 200, InetAddress.getLoopbackAddress());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    Thread accept = new Thread(this::accept, "balancer-accept");
    accept.setDaemon(true);
    accept.start();
  }

  /** Its port on 127.0.0.1. */
  public int port() {
    return server.getLocalPort();
  }

  /** Puts the backend on {@code port} in service: new connections may go to it. */
  public synchronized void add(int port) {
    if (!inService.contains(port)) {
      inService.add(port);
    }
    accepted.computeIfAbsent(port, p -> new AtomicLong());
  }

  /** Takes the backend on {@code port} out of service; its open connections go on. */
  public synchronized void remove(int port) {
    inService.remove(Integer.valueOf(port));
  }

  /** Connections handed to the backend on {@code port} so far. */
  public long accepted(int port) {
    AtomicLong n = accepted.get(port);
    return n == null ? 0 : n.get();
  }

  /** Connections closed at once: no backend in service, or the one chosen refused it. */
  public long dropped() {
    return dropped.get();
  }

  private synchronized int choose() {
    if (inService.isEmpty()) {
      return -1;
    }
    return inService.get(Math.floorMod(next.getAndIncrement(), inService.size()));
  }

  private void accept() {
    while (!server.isClosed()) {
      Socket client;
      try {
        client = server.accept();
      } catch (IOException e) {
        continue; // closed: the loop ends
      }
      int port = choose();
      Socket backend;
      try {
        if (port < 0) {
          throw new IOException("no backend in service");
        }
        backend = new Socket(InetAddress.getLoopbackAddress(), port);
      } catch (IOException e) {
        dropped.incrementAndGet();
        closeQuietly(client);
        continue;
      }
      accepted.get(port).incrementAndGet();
      try {
        client.setTcpNoDelay(true);
        backend.setTcpNoDelay(true);
      } catch (IOException e) {
        // Only latency.
      }
      sockets.add(client);
      sockets.add(backend);
      AtomicInteger open = new AtomicInteger(2);
      pump(client, backend, open);
      pump(backend, client, open);
    }
  }

  private void pump(Socket from, Socket to, AtomicInteger open) {
    Thread t =
        new Thread(
            () -> {
              byte[] buf = new byte[16 * 1024];
              try {
                InputStream in = from.getInputStream();
                OutputStream out = to.getOutputStream();
                int n;
                while ((n = in.read(buf)) >= 0) {
                  out.write(buf, 0, n);
                  out.flush();
                }
                to.shutdownOutput();
              } catch (IOException e) {
                // A side reset: close both below.
                open.set(1);
              } finally {
                if (open.decrementAndGet() <= 0) {
                  closeQuietly(from);
                  closeQuietly(to);
                  sockets.remove(from);
                  sockets.remove(to);
                }
              }
            },
            "balancer-pump");
    t.setDaemon(true);
    t.start();
  }

  private static void closeQuietly(Socket s) {
    try {
      s.close();
    } catch (IOException e) {
      // Already closed.
    }
  }

  /** Stops accepting and closes every connection. */
  @Override
  public void close() {
    try {
      server.close();
    } catch (IOException e) {
      // Already closed.
    }
    sockets.forEach(TcpBalancer::closeQuietly);
  }
}
