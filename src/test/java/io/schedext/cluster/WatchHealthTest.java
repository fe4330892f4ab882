package io.schedext.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.mockito.Mockito.RETURNS_DEEP_STUBS;
import static org.mockito.Mockito.mock;
import static org.mockito.Mockito.verify;
import static org.mockito.Mockito.when;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.informers.ExceptionHandler;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import io.schedext.testing.MakePod;
import io.schedext.testing.MutableClock;
import java.net.ConnectException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.mockito.ArgumentCaptor;
import org.slf4j.LoggerFactory;

/**
 * Readiness times an outage from when the watch dropped (sampled every second, or reported by
 * fabric8), not from when a probe first asked; each drop, recovery and readiness change is one log
 * line without a stack trace; and every outage and further failure is counted.
 */
class WatchHealthTest {

  private static final Instant T0 = Instant.parse("2026-11-22T10:00:00Z");

  private final MutableClock clock = new MutableClock(T0);
  private final WatchHealth health = new WatchHealth(clock, Duration.ofSeconds(30));

  @SuppressWarnings("unchecked")
  private final SharedIndexInformer<Pod> informer =
      mock(SharedIndexInformer.class, RETURNS_DEEP_STUBS);

  private ExceptionHandler fabric8Handler;
  private final ListAppender<ILoggingEvent> logs = new ListAppender<>();

  @BeforeEach
  void setUp() {
    when(informer.hasSynced()).thenReturn(true);
    when(informer.isWatching()).thenReturn(true);
    health.add(new InformerHandle<>("Pod", informer, clock));
    ArgumentCaptor<ExceptionHandler> handler = ArgumentCaptor.forClass(ExceptionHandler.class);
    verify(informer).exceptionHandler(handler.capture());
    fabric8Handler = handler.getValue();
    for (Class<?> c : List.of(WatchHealth.class, InformerHandle.class)) {
      ((Logger) LoggerFactory.getLogger(c)).addAppender(logs);
    }
    logs.start();
    assertThat(health.poll()).isEmpty();
  }

  @AfterEach
  void tearDown() {
    for (Class<?> c : List.of(WatchHealth.class, InformerHandle.class)) {
      ((Logger) LoggerFactory.getLogger(c)).detachAppender(logs);
    }
  }

  private List<String> lines() {
    logs.list.forEach(e -> assertThat(e.getThrowableProxy()).as("no stack trace: " + e).isNull());
    return logs.list.stream().map(ILoggingEvent::getFormattedMessage).toList();
  }

  @Test
  void notReadyUntilTheCacheHasBeenHandedTheFirstList() {
    @SuppressWarnings("unchecked")
    SharedIndexInformer<Pod> listed = mock(SharedIndexInformer.class, RETURNS_DEEP_STUBS);
    Pod a = MakePod.pod().name("a").obj();
    Pod b = MakePod.pod().name("b").obj();
    when(listed.hasSynced()).thenReturn(true);
    when(listed.isWatching()).thenReturn(true);
    when(listed.getStore().list()).thenReturn(List.of(a, b));
    WatchHealth fresh = new WatchHealth(clock, Duration.ofSeconds(30));
    InformerHandle<Pod> handle = new InformerHandle<>("Pod", listed, clock);
    fresh.add(handle);
    List<Pod> cache = new ArrayList<>();
    ResourceEventHandler<Pod> handler =
        handle.counting(
            new ResourceEventHandler<>() {
              @Override
              public void onAdd(Pod obj) {
                cache.add(obj);
              }

              @Override
              public void onUpdate(Pod oldObj, Pod newObj) {}

              @Override
              public void onDelete(Pod obj, boolean deletedFinalStateUnknown) {
                cache.remove(obj);
              }
            });

    assertThat(fresh.notReadyReason())
        .as("the informer's store has the list, the cache none of it")
        .isEqualTo("informers not synced yet: [Pod]");
    handler.onAdd(a);
    assertThat(fresh.notReadyReason()).isEqualTo("informers not synced yet: [Pod]");
    handler.onAdd(b);
    assertThat(fresh.notReadyReason()).isEmpty();
    assertThat(cache).containsExactly(a, b);

    // Once caught up it stays so, whatever the store holds later.
    handler.onDelete(a, false);
    when(listed.getStore().list()).thenReturn(List.of(b, a, MakePod.pod().name("c").obj()));
    assertThat(fresh.notReadyReason()).isEmpty();
    assertThat(cache).containsExactly(b);
  }

  @Test
  void aWatchStillOpeningAfterTheFirstListIsStartingNotDropped() {
    @SuppressWarnings("unchecked")
    SharedIndexInformer<Pod> starting = mock(SharedIndexInformer.class, RETURNS_DEEP_STUBS);
    when(starting.hasSynced()).thenReturn(true);
    when(starting.isWatching()).thenReturn(false);
    WatchHealth fresh = new WatchHealth(clock, Duration.ofSeconds(30));
    fresh.add(new InformerHandle<>("Node", starting, clock));

    assertThat(fresh.poll()).isEmpty();
    clock.advance(Duration.ofSeconds(1));
    when(starting.isWatching()).thenReturn(true);
    assertThat(fresh.poll()).isEmpty();
    assertThat(fresh.errors()).isZero();
    assertThat(lines()).isEmpty();

    when(starting.isWatching()).thenReturn(false);
    fresh.poll();
    assertThat(fresh.down()).containsExactly("Node");
    assertThat(lines()).singleElement().asString().startsWith("Node watch dropped at");
  }

  @Test
  void anOutageNobodyAskedAboutIsTimedFromWhenTheWatchDropped() {
    when(informer.isWatching()).thenReturn(false);
    health.poll();
    for (int s = 1; s <= 40; s++) {
      clock.advance(Duration.ofSeconds(1));
      health.poll();
    }

    assertThat(health.notReadyReason())
        .isEqualTo("watches down for longer than PT30S: [Pod (since 2026-11-22T10:00:00Z)]");
    assertThat(lines())
        .containsExactly(
            "Pod watch dropped at 2026-11-22T10:00:00Z; readiness turns DOWN at 2026-11-22T10:00:30Z unless it recovers",
            "Cluster state not ready: watches down for longer than PT30S: [Pod (since 2026-11-22T10:00:00Z)]");
  }

  @Test
  void watchesThatDropTogetherAreOneLineAndSoIsTheirRecovery() {
    @SuppressWarnings("unchecked")
    SharedIndexInformer<Pod> nodes = mock(SharedIndexInformer.class, RETURNS_DEEP_STUBS);
    when(nodes.hasSynced()).thenReturn(true);
    when(nodes.isWatching()).thenReturn(true);
    health.add(new InformerHandle<>("Node", nodes, clock));
    health.poll();

    when(informer.isWatching()).thenReturn(false);
    when(nodes.isWatching()).thenReturn(false);
    health.poll();
    clock.advance(Duration.ofSeconds(3));
    when(informer.isWatching()).thenReturn(true);
    when(nodes.isWatching()).thenReturn(true);
    health.poll();

    assertThat(lines())
        .containsExactly(
            "2 watches dropped at 2026-11-22T10:00:00Z: [Pod, Node]; readiness turns DOWN at"
                + " 2026-11-22T10:00:30Z unless they recover",
            "2 watches recovered: [Pod, Node]");
  }

  @Test
  void anEarlierBlipDoesNotShortenTheGraceOfTheNextOutage() {
    when(informer.isWatching()).thenReturn(false);
    health.poll();
    clock.advance(Duration.ofSeconds(5));
    when(informer.isWatching()).thenReturn(true);
    health.poll();
    clock.advance(Duration.ofSeconds(15));
    when(informer.isWatching()).thenReturn(false);
    health.poll();
    clock.advance(Duration.ofSeconds(18));

    assertThat(health.poll()).isEmpty();
    clock.advance(Duration.ofSeconds(13));
    assertThat(health.poll())
        .isEqualTo("watches down for longer than PT30S: [Pod (since 2026-11-22T10:00:20Z)]");
    when(informer.isWatching()).thenReturn(true);
    assertThat(health.poll()).isEmpty();
    assertThat(lines())
        .containsExactly(
            "Pod watch dropped at 2026-11-22T10:00:00Z; readiness turns DOWN at 2026-11-22T10:00:30Z unless it recovers",
            "Pod watch recovered",
            "Pod watch dropped at 2026-11-22T10:00:20Z; readiness turns DOWN at 2026-11-22T10:00:50Z unless it recovers",
            "Cluster state not ready: watches down for longer than PT30S: [Pod (since 2026-11-22T10:00:20Z)]",
            "Pod watch recovered",
            "Cluster state ready");
  }

  @Test
  void aFailureFabric8ReportsStartsTheOutageAtOnceAndEveryFailureIsCounted() throws Exception {
    fabric8Handler.retryAfterException(true, new ConnectException("Connection refused"));
    clock.advance(Duration.ofSeconds(3));
    fabric8Handler.retryAfterException(true, new ConnectException("Connection refused"));
    fabric8Handler.retryAfterException(true, new ConnectException("Connection refused"));
    when(informer.isWatching()).thenReturn(false);
    health.poll();

    assertThat(health.down()).containsExactly("Pod");
    clock.advance(Duration.ofSeconds(28));
    assertThat(health.poll())
        .isEqualTo("watches down for longer than PT30S: [Pod (since 2026-11-22T10:00:00Z)]");
    assertThat(health.errors()).isEqualTo(3);
    assertThat(lines())
        .containsExactly(
            "Pod watch failed: java.net.ConnectException: Connection refused (retrying; further failures of this outage "
                + "are logged at debug)",
            "Cluster state not ready: watches down for longer than PT30S: [Pod (since 2026-11-22T10:00:00Z)]");
  }

  @Test
  void aDropSeenOnlyBySamplingCountsAsOneError() {
    when(informer.isWatching()).thenReturn(false);
    health.poll();
    health.poll();
    when(informer.isWatching()).thenReturn(true);
    health.poll();
    when(informer.isWatching()).thenReturn(false);
    health.poll();

    assertThat(health.errors()).isEqualTo(2);
  }
}
