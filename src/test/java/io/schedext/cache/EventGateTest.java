package io.schedext.cache;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
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
    Thread t = new Thread(() -> {
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
