package io.schedext.config;

import io.schedext.config.ExtenderProperties.Http;
import jakarta.servlet.ServletException;
import java.io.IOException;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;
import org.apache.catalina.connector.Request;
import org.apache.catalina.connector.Response;
import org.apache.catalina.valves.ValveBase;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.tomcat.servlet.TomcatServletWebServerFactory;
import org.springframework.boot.web.server.WebServerFactoryCustomizer;
import org.springframework.context.SmartLifecycle;

/**
 * The drain between SIGTERM and the HTTP server's graceful shutdown. kube-scheduler keeps its
 * connections to the extender open between calls, and a Service sends each connection to one
 * replica for its whole life: when a replica in a rolling update stopped at once, a call sent on
 * such a connection just as it closed failed with EOF ({@code SchedulingFaultsTest}), and so did a
 * new connection the Service still sent there before its endpoints caught up. So, once the context
 * starts closing (readiness already REFUSING_TRAFFIC, so the Service takes the replica out), every
 * call is still answered, with {@code Connection: close}: kube-scheduler reads the answer and opens
 * its next connection elsewhere. The drain ends once no scheduling call has come for {@code
 * drainQuiet} (at once when none came lately), at the latest after {@code drain}; then the server
 * shuts down as usual. Stopped first of all the lifecycle beans. Thread-safe.
 */
final class ShutdownDrain
    implements SmartLifecycle, WebServerFactoryCustomizer<TomcatServletWebServerFactory> {

  private static final Logger log = LoggerFactory.getLogger(ShutdownDrain.class);

  /** How often the drain looks whether it is over. */
  private static final long STEP_MILLIS = 50;

  private final Duration drain;
  private final Duration quiet;
  private final LongSupplier nanoTime;
  private final AtomicLong drained = new AtomicLong();
  private volatile long lastCall;
  private volatile boolean draining;
  private volatile boolean running;

  /** A drain of {@code http}'s lengths, timed with {@code nanoTime}. */
  ShutdownDrain(Http http, LongSupplier nanoTime) {
    this.drain = http.drain();
    this.quiet = http.drainQuiet();
    this.nanoTime = nanoTime;
    this.lastCall = nanoTime.getAsLong() - quiet.toNanos();
  }

  @Override
  public void customize(TomcatServletWebServerFactory factory) {
    factory.addEngineValves(new Valve());
  }

  /** Marks a scheduling call now. */
  void called() {
    lastCall = nanoTime.getAsLong();
    if (draining) {
      drained.incrementAndGet();
    }
  }

  /** Whether calls are being answered with {@code Connection: close}. */
  boolean isDraining() {
    return draining;
  }

  /** Marks each scheduling call, and asks for the connection to close while draining. */
  private final class Valve extends ValveBase {
    Valve() {
      super(true);
    }

    @Override
    public void invoke(Request request, Response response) throws IOException, ServletException {
      String uri = request.getRequestURI();
      if (uri.startsWith("/scheduler/") || uri.startsWith("/profiles/")) {
        called();
      }
      if (draining) {
        response.setHeader("Connection", "close");
      }
      getNext().invoke(request, response);
    }
  }

  @Override
  public void start() {
    running = true;
  }

  @Override
  public void stop() {
    throw new UnsupportedOperationException("stopped with a callback");
  }

  @Override
  public void stop(Runnable callback) {
    draining = true;
    long started = nanoTime.getAsLong();
    if (over(started, started)) {
      finish(callback, started);
      return;
    }
    log.info(
        "Draining before shutdown: calls are answered with Connection: close until none has come"
            + " for {} (at most {})",
        quiet,
        drain);
    Thread t =
        new Thread(
            () -> {
              try {
                while (!over(started, nanoTime.getAsLong())) {
                  Thread.sleep(STEP_MILLIS);
                }
              } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
              } finally {
                finish(callback, started);
              }
            },
            "shutdown-drain");
    t.setDaemon(true);
    t.start();
  }

  /** Whether a drain begun at {@code started} is over at {@code now}. */
  boolean over(long started, long now) {
    return now - lastCall >= quiet.toNanos() || now - started >= drain.toNanos();
  }

  private void finish(Runnable callback, long started) {
    long calls = drained.get();
    if (calls > 0) {
      log.info(
          "Drained: {} calls answered with Connection: close in {} ms",
          calls,
          (nanoTime.getAsLong() - started) / 1_000_000);
    }
    running = false;
    callback.run();
  }

  @Override
  public boolean isRunning() {
    return running;
  }

  /** Stopped before the web server's graceful shutdown (phase {@code MAX_VALUE - 1024}). */
  @Override
  public int getPhase() {
    return Integer.MAX_VALUE;
  }
}
