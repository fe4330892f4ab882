package io.schedext.cluster;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Whether the API server answers at all, asked with a cheap request ({@code GET /version}) on the
 * client the watches use. A watch whose connection stalls (a network that holds or drops packets
 * without closing anything) reports nothing: fabric8 still calls it watching, and the cache goes
 * stale without a sign. A request that gets no answer within {@link #PATIENCE} is such a sign; the
 * API server counts as unanswered from when that request was sent until one is answered again. Any
 * HTTP answer counts, whatever its status: the path to the API server works. {@link #poll()} runs
 * every second (with {@link WatchHealth#poll()}), collects the last request's outcome and sends the
 * next; one request is in flight at a time, and one left unanswered for {@link #TIMEOUT} is given
 * up, so that the next one can take a new connection. Logs one line when the API server stops
 * answering and one when it answers again. Thread-safe.
 */
final class ApiProbe {

  private static final Logger log = LoggerFactory.getLogger(ApiProbe.class);

  /** How long a request may go unanswered before the API server counts as not answering. */
  static final Duration PATIENCE = Duration.ofSeconds(5);

  /** How long a request may go unanswered before it is given up and the next one sent. */
  static final Duration TIMEOUT = Duration.ofSeconds(10);

  private final Clock clock;
  private final Duration syncGrace;
  private final Supplier<CompletableFuture<?>> request;
  private CompletableFuture<?> inFlight;
  private Instant sentAt;
  private Instant unansweredSince;
  private long outages;

  /**
   * A probe sending {@code request} (a future completed with any HTTP answer, or exceptionally when
   * none came) and timing with {@code clock}; readiness turns DOWN once the API server has not
   * answered for {@code syncGrace} (as its log line says).
   */
  ApiProbe(Clock clock, Duration syncGrace, Supplier<CompletableFuture<?>> request) {
    this.clock = clock;
    this.syncGrace = syncGrace;
    this.request = request;
  }

  /**
   * Collects the outcome of the request in flight, logs a change, and sends the next request when
   * none is in flight.
   */
  synchronized void poll() {
    Instant now = clock.instant();
    if (inFlight != null) {
      if (inFlight.isDone()) {
        if (inFlight.isCompletedExceptionally()) {
          unanswered(sentAt, "a request sent then failed: " + failure(inFlight));
        } else if (unansweredSince != null) {
          log.info(
              "API server answers again (it had not answered since {}, for {})",
              unansweredSince,
              Duration.between(unansweredSince, now));
          unansweredSince = null;
        }
        inFlight = null;
      } else if (Duration.between(sentAt, now).compareTo(PATIENCE) > 0) {
        unanswered(sentAt, "a request sent then got no answer within " + PATIENCE);
        if (Duration.between(sentAt, now).compareTo(TIMEOUT) > 0) {
          inFlight.cancel(true);
          inFlight = null;
        }
      }
    }
    if (inFlight == null) {
      sentAt = now;
      try {
        inFlight = request.get();
      } catch (RuntimeException e) {
        inFlight = CompletableFuture.failedFuture(e);
      }
    }
  }

  private void unanswered(Instant since, String why) {
    if (unansweredSince == null) {
      unansweredSince = since;
      outages++;
      log.warn(
          "API server has not answered since {} ({}); readiness turns DOWN at {} unless it answers",
          since,
          why,
          since.plus(syncGrace));
    }
  }

  private static String failure(CompletableFuture<?> done) {
    try {
      done.join();
      return "none";
    } catch (RuntimeException e) {
      Throwable t = e.getCause() == null ? e : e.getCause();
      return t.getMessage() == null ? t.getClass().getSimpleName() : t.getMessage();
    }
  }

  /** Since when the API server has not answered, or null while it answers. */
  synchronized Instant unansweredSince() {
    return unansweredSince;
  }

  /** Times the API server stopped answering since start. */
  synchronized long outages() {
    return outages;
  }
}
