package io.schedext.cache;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class EventGateTest {

  private static final Duration LONG = Duration.ofMinutes(5);

  @Test
  void anEventPassesAtOnceWhenNoRequestIsInFlight() {
    EventGate gate = new EventGate(LONG);
    gate.requestStarted();
    gate.requestFinished();

    gate.awaitQuiet();

    assertThat(gate.delayedEvents()).isZero();
    assertThat(gate.inFlight()).isZero();
  }

  @Test
  void anEventWaitsUntilTheLastRequestInFlightFinishes() throws Exception {
    EventGate gate = new EventGate(LONG);
    gate.requestStarted();
    gate.requestStarted();
    CompletableFuture<Void> event = CompletableFuture.runAsync(gate::awaitQuiet);
    await().until(() -> gate.waiting() == 1);

    gate.requestFinished();
    assertThat(gate.inFlight()).isEqualTo(1);
    assertThat(event).as("one request is still being answered").isNotDone();

    gate.requestFinished();
    event.get(1, TimeUnit.MINUTES);
    assertThat(gate.delayedEvents()).isEqualTo(1);
    assertThat(gate.timedOut()).isZero();
    assertThat(gate.waiting()).isZero();
  }

  @Test
  void aWaitEndsWithTheGapBetweenTwoRequestsEvenWhenTheNextHasStartedBeforeTheEventRuns()
      throws Exception {
    EventGate gate = new EventGate(LONG);
    gate.requestStarted();
    CompletableFuture<Void> event = CompletableFuture.runAsync(gate::awaitQuiet);
    await().until(() -> gate.waiting() == 1);

    // A caller that sends its next call at once: the waiting thread cannot have run in between.
    gate.handOver();

    event.get(1, TimeUnit.MINUTES);
    assertThat(gate.timedOut()).as("ended by the gap, not by its maxWait").isZero();
    assertThat(gate.delayedEvents()).isEqualTo(1);
  }

  @Test
  void afterAMissedGapTheThreadAppliesItsNextFewEventsWithoutWaiting() throws Exception {
    EventGate gate = new EventGate(LONG);
    gate.requestStarted();
    AtomicInteger applied = new AtomicInteger();
    CompletableFuture<Void> events =
        CompletableFuture.runAsync(
            () -> {
              for (int i = 0; i < EventGate.PASSES_AFTER_GAP + 2; i++) {
                gate.awaitQuiet();
                applied.incrementAndGet();
              }
            });
    await().until(() -> gate.waiting() == 1);

    gate.handOver();

    // The event that waited and its passes are applied; the one after them waits for the request in
    // flight.
    await().until(() -> gate.waiting() == 1 && gate.delayedEvents() == 1);
    assertThat(applied.get()).isEqualTo(1 + EventGate.PASSES_AFTER_GAP);
    gate.requestFinished();
    events.get(1, TimeUnit.MINUTES);
    assertThat(applied.get()).isEqualTo(EventGate.PASSES_AFTER_GAP + 2);
    assertThat(gate.timedOut()).isZero();
  }

  @Test
  void aWaitThatRunsOutLetsTheThreadsNextEventsThroughWithoutWaiting() {
    EventGate gate = new EventGate(Duration.ofNanos(1));
    gate.requestStarted();

    gate.awaitQuiet();
    assertThat(gate.timedOut()).isEqualTo(1);
    for (int i = 0; i < EventGate.PASSES_AFTER_TIMEOUT; i++) {
      gate.awaitQuiet();
    }
    assertThat(gate.delayedEvents()).as("the passes after a timeout do not wait").isEqualTo(1);

    gate.awaitQuiet();
    assertThat(gate.delayedEvents()).as("passes used up: the next event waits again").isEqualTo(2);
    assertThat(gate.timedOut()).isEqualTo(2);
  }

  @Test
  void aGateWithoutMaxDelayNeverHoldsEventsBack() {
    EventGate gate = EventGate.off();
    gate.requestStarted();

    gate.awaitQuiet();

    assertThat(gate.enabled()).isFalse();
    assertThat(gate.delayedEvents()).isZero();
  }

  @Test
  void anInterruptEndsTheWaitAndIsKept() throws Exception {
    EventGate gate = new EventGate(LONG);
    gate.requestStarted();
    CompletableFuture<Boolean> interrupted = new CompletableFuture<>();
    Thread t =
        new Thread(
            () -> {
              gate.awaitQuiet();
              interrupted.complete(Thread.currentThread().isInterrupted());
            });
    t.start();
    await().until(() -> gate.waiting() == 1);

    t.interrupt();

    assertThat(interrupted.get(1, TimeUnit.MINUTES)).isTrue();
    assertThat(gate.inFlight()).isEqualTo(1);
  }
}
