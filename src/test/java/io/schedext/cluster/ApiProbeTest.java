package io.schedext.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.mockito.Mockito.RETURNS_DEEP_STUBS;
import static org.mockito.Mockito.mock;
import static org.mockito.Mockito.when;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import io.schedext.testing.MutableClock;
import java.net.ConnectException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

/**
 * A connection to the API server that stalls leaves every watch looking up: the probe's request
 * without an answer is what turns readiness DOWN, timed from when that request was sent, and an
 * answer brings it back. One log line each way, no stack trace, one outage counted.
 */
class ApiProbeTest {

  private static final Instant T0 = Instant.parse("2026-11-22T10:00:00Z");

  private final MutableClock clock = new MutableClock(T0);

  /** Every request the probe sent, in order; the test completes them (or not). */
  private final List<CompletableFuture<String>> sent = new ArrayList<>();

  private final ApiProbe probe =
      new ApiProbe(
          clock,
          Duration.ofSeconds(30),
          () -> {
            CompletableFuture<String> f = new CompletableFuture<>();
            sent.add(f);
            return f;
          });

  private final WatchHealth health = new WatchHealth(clock, Duration.ofSeconds(30));
  private final ListAppender<ILoggingEvent> logs = new ListAppender<>();

  @SuppressWarnings("unchecked")
  private final SharedIndexInformer<Pod> informer =
      mock(SharedIndexInformer.class, RETURNS_DEEP_STUBS);

  @BeforeEach
  void setUp() {
    // A watch fabric8 reports as up the whole time, as it does on a stalled connection.
    when(informer.hasSynced()).thenReturn(true);
    when(informer.isWatching()).thenReturn(true);
    health.add(new InformerHandle<>("Pod", informer, clock));
    health.probe(probe);
    for (Class<?> c : List.of(WatchHealth.class, ApiProbe.class)) {
      ((Logger) LoggerFactory.getLogger(c)).addAppender(logs);
    }
    logs.start();
  }

  @AfterEach
  void tearDown() {
    for (Class<?> c : List.of(WatchHealth.class, ApiProbe.class)) {
      ((Logger) LoggerFactory.getLogger(c)).detachAppender(logs);
    }
  }

  private List<String> lines() {
    logs.list.forEach(e -> assertThat(e.getThrowableProxy()).as("no stack trace: " + e).isNull());
    return logs.list.stream().map(ILoggingEvent::getFormattedMessage).toList();
  }

  /** Advances the clock by a second and polls, as the source does. */
  private String second() {
    clock.advance(Duration.ofSeconds(1));
    return health.poll();
  }

  @Test
  void anApiServerThatAnswersSendsOneRequestAtATimeAndLogsNothing() {
    for (int s = 0; s < 10; s++) {
      health.poll();
      sent.get(sent.size() - 1).complete("{}");
      clock.advance(Duration.ofSeconds(1));
    }

    assertThat(sent).hasSize(10);
    assertThat(probe.unansweredSince()).isNull();
    assertThat(health.notReadyReason()).isEmpty();
    assertThat(lines()).isEmpty();
  }

  @Test
  void aStalledRequestTurnsReadinessDownAGraceAfterItWasSentThoughEveryWatchLooksUp() {
    health.poll();
    for (int s = 1; s <= 30; s++) {
      assertThat(second()).as("%d s into the stall", s).isEmpty();
    }
    assertThat(probe.unansweredSince()).isEqualTo(T0);

    assertThat(second())
        .isEqualTo("API server not answering for longer than PT30S (since 2026-11-22T10:00:00Z)");
    assertThat(health.errors()).as("one outage").isEqualTo(1);
    assertThat(lines())
        .containsExactly(
            "API server has not answered since 2026-11-22T10:00:00Z (a request sent then got no"
                + " answer within PT5S); readiness turns DOWN at 2026-11-22T10:00:30Z unless it"
                + " answers",
            "Cluster state not ready: API server not answering for longer than PT30S (since"
                + " 2026-11-22T10:00:00Z)");
  }

  @Test
  void aRequestLeftUnansweredForTheTimeoutIsGivenUpAndTheOutageKeepsItsStart() {
    health.poll();
    for (int s = 1; s <= 11; s++) {
      second();
    }

    assertThat(sent).as("the first given up after 10 s, the next one sent").hasSize(2);
    assertThat(sent.get(0)).isCancelled();
    assertThat(probe.unansweredSince()).isEqualTo(T0);
    for (int s = 12; s <= 40; s++) {
      second();
    }
    assertThat(probe.unansweredSince()).isEqualTo(T0);
    assertThat(probe.outages()).isEqualTo(1);
  }

  @Test
  void anAnswerEndsTheOutageAndReadinessComesBack() {
    health.poll();
    for (int s = 1; s <= 35; s++) {
      second();
    }
    assertThat(health.notReadyReason()).startsWith("API server not answering");

    // The held request is answered once the path flows again.
    sent.get(sent.size() - 1).complete("{}");
    assertThat(second()).isEmpty();
    assertThat(probe.unansweredSince()).isNull();
    assertThat(lines())
        .endsWith(
            "API server answers again (it had not answered since 2026-11-22T10:00:00Z, for"
                + " PT36S)",
            "Cluster state ready");
  }

  @Test
  void aRefusedRequestStartsTheOutageAtOnceAndAnAnswerAfterItEndsIt() {
    health.poll();
    sent.get(0).completeExceptionally(new ConnectException("Connection refused"));
    second();
    sent.get(1).completeExceptionally(new ConnectException("Connection refused"));
    second();

    assertThat(probe.unansweredSince()).isEqualTo(T0);
    assertThat(lines())
        .containsExactly(
            "API server has not answered since 2026-11-22T10:00:00Z (a request sent then failed:"
                + " Connection refused); readiness turns DOWN at 2026-11-22T10:00:30Z unless it"
                + " answers");
    sent.get(2).complete("{}");
    second();
    assertThat(probe.unansweredSince()).isNull();
    assertThat(probe.outages()).isEqualTo(1);
  }

  @Test
  void aSlowAnswerWithinThePatienceIsNoOutage() {
    health.poll();
    for (int s = 1; s <= 5; s++) {
      second();
    }
    sent.get(0).complete("{}");
    second();

    assertThat(probe.outages()).isZero();
    assertThat(lines()).isEmpty();
  }
}
