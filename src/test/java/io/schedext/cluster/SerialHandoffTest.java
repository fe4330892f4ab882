package io.schedext.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.client.utils.internal.SerialExecutor;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The client's executor runs the steps fabric8's serial executors chain (as a watch event passes
 * from the watch to the informer to the handler) on the thread that ran the step before, in order,
 * and everything else on the pool.
 */
class SerialHandoffTest {

  private final ExecutorService pool = Executors.newCachedThreadPool();
  private final SerialHandoff executor = new SerialHandoff(pool);

  @AfterEach
  void stop() {
    pool.shutdownNow();
  }

  @Test
  void fabric8sSerialExecutorTasksAreRecognisedAndNoOthers() {
    List<Runnable> seen = new ArrayList<>();
    new SerialExecutor(seen::add).execute(() -> {});
    assertThat(seen).singleElement().satisfies(t -> assertThat(SerialHandoff.serial(t)).isTrue());
    assertThat(SerialHandoff.serial(() -> {})).isFalse();
    assertThat(SerialHandoff.serial(new Thread())).isFalse();
  }

  @Test
  void aChainOfSerialExecutorsRunsOnOneThreadInOrder() throws InterruptedException {
    // Three stages, as a watch event goes: each stage's task hands the event to the next stage.
    SerialExecutor watch = new SerialExecutor(executor);
    SerialExecutor watcher = new SerialExecutor(executor);
    SerialExecutor handler = new SerialExecutor(executor);
    List<String> order = Collections.synchronizedList(new ArrayList<>());
    List<Thread> threads = Collections.synchronizedList(new ArrayList<>());
    CountDownLatch handled = new CountDownLatch(3);
    CountDownLatch submitted = new CountDownLatch(1);
    for (int e = 0; e < 3; e++) {
      int event = e;
      watch.execute(
          () -> {
            awaitQuietly(submitted);
            threads.add(Thread.currentThread());
            order.add("decode " + event);
            watcher.execute(
                () -> {
                  threads.add(Thread.currentThread());
                  order.add("store " + event);
                  handler.execute(
                      () -> {
                        threads.add(Thread.currentThread());
                        order.add("handle " + event);
                        handled.countDown();
                      });
                });
          });
    }
    submitted.countDown();

    assertThat(handled.await(10, TimeUnit.SECONDS)).isTrue();
    assertThat(threads).as("one thread, no hand-off to another").containsOnly(threads.get(0));
    for (int e = 0; e < 3; e++) {
      assertThat(order.indexOf("decode " + e)).isLessThan(order.indexOf("store " + e));
      assertThat(order.indexOf("store " + e)).isLessThan(order.indexOf("handle " + e));
      if (e > 0) {
        assertThat(order.indexOf("handle " + (e - 1))).isLessThan(order.indexOf("handle " + e));
      }
    }
  }

  @Test
  void aSerialStepRunsAfterTheStepThatSubmittedItNotInsideIt() throws InterruptedException {
    SerialExecutor first = new SerialExecutor(executor);
    SerialExecutor second = new SerialExecutor(executor);
    List<String> order = Collections.synchronizedList(new ArrayList<>());
    CountDownLatch done = new CountDownLatch(1);
    first.execute(
        () -> {
          second.execute(
              () -> {
                order.add("second");
                done.countDown();
              });
          order.add("first returns");
        });
    assertThat(done.await(10, TimeUnit.SECONDS)).isTrue();
    assertThat(order).containsExactly("first returns", "second");
  }

  @Test
  void otherTasksGoToThePoolWhereverTheyComeFrom() throws InterruptedException {
    CountDownLatch blocked = new CountDownLatch(1);
    CountDownLatch ranElsewhere = new CountDownLatch(1);
    new SerialExecutor(executor)
        .execute(
            () -> {
              // A plain task from inside a serial step runs at once on another thread, even while
              // this step waits for it.
              executor.execute(ranElsewhere::countDown);
              awaitQuietly(ranElsewhere);
              blocked.countDown();
            });
    assertThat(blocked.await(10, TimeUnit.SECONDS)).isTrue();
  }

  @Test
  void aFailingStepDoesNotStopTheStepsQueuedAfterIt() {
    AtomicInteger ran = new AtomicInteger();
    SerialExecutor failing = new SerialExecutor(executor);
    SerialExecutor next = new SerialExecutor(executor);
    Thread.UncaughtExceptionHandler quiet = (t, e) -> {};
    failing.execute(
        () -> {
          Thread.currentThread().setUncaughtExceptionHandler(quiet);
          next.execute(ran::incrementAndGet);
          throw new IllegalStateException("handler failed");
        });
    await().atMost(Duration.ofSeconds(10)).until(() -> ran.get() == 1);
  }

  private static void awaitQuietly(CountDownLatch latch) {
    try {
      latch.await(10, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
