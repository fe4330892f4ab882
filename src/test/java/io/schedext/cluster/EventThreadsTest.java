package io.schedext.cluster;

import static io.schedext.testing.Latches.await;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.api.model.Namespace;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import io.fabric8.kubernetes.client.server.mock.KubernetesCrudDispatcher;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.fabric8.mockwebserver.Context;
import io.fabric8.mockwebserver.MockWebServer;
import io.schedext.testing.ImageJvmOptions;
import io.vertx.core.Vertx;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The API client's event threads drop to the lowest priority once told to (after the initial
 * lists), which the container image's JVM options make nice 10; the cache handlers run at normal
 * priority.
 */
@Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class EventThreadsTest {

  @Test
  void theContainerImageStartsTheJvmWithTheOptions() {
    assertThat(ImageJvmOptions.all()).containsAll(EventThreads.JVM_OPTIONS);
  }

  @Test
  void taskThreadsAreDaemonsAtNormalPriorityUntilTheClientYieldsThenAllAtTheLowest()
      throws Exception {
    EventThreads threads = new EventThreads();
    ExecutorService tasks = EventThreads.taskExecutor(threads);
    try {
      Thread first =
          CompletableFuture.supplyAsync(Thread::currentThread, tasks).get(30, TimeUnit.SECONDS);
      assertThat(first.getName()).startsWith("kube-client-");
      assertThat(first.isDaemon()).isTrue();
      assertThat(first.getPriority()).isEqualTo(Thread.NORM_PRIORITY);

      threads.yieldToCalls();

      assertThat(first.getPriority()).as("a thread that was there").isEqualTo(Thread.MIN_PRIORITY);
      // Hold one thread busy so that the pool starts another.
      CountDownLatch busy = new CountDownLatch(1);
      CountDownLatch release = new CountDownLatch(1);
      tasks.execute(
          () -> {
            busy.countDown();
            await(release);
          });
      busy.await();
      Thread later =
          CompletableFuture.supplyAsync(Thread::currentThread, tasks).get(30, TimeUnit.SECONDS);
      release.countDown();
      assertThat(later.getPriority()).as("a thread started after").isEqualTo(Thread.MIN_PRIORITY);
      assertThat(threads.yielding()).isTrue();
    } finally {
      tasks.shutdownNow();
    }
  }

  @Test
  void everyEventLoopOfTheClientGoesToTheLowestPriorityWhenItYields() throws Exception {
    EventThreads threads = new EventThreads();
    KubernetesClient client =
        threads
            .apply(
                new KubernetesClientBuilder()
                    .withConfig(new ConfigBuilder().withMasterUrl("http://127.0.0.1:1").build()))
            .build();
    try {
      assertThat(priorities(threads.vertx())).isNotEmpty().containsOnly(Thread.NORM_PRIORITY);
      threads.yieldToCalls();
      assertThat(priorities(threads.vertx())).containsOnly(Thread.MIN_PRIORITY);
      assertThatThrownBy(() -> threads.apply(new KubernetesClientBuilder()))
          .isInstanceOf(IllegalStateException.class);
    } finally {
      client.close();
    }
  }

  private static List<Integer> priorities(Vertx vertx) throws Exception {
    List<Integer> priorities = new ArrayList<>();
    for (io.netty.util.concurrent.EventExecutor loop : vertx.nettyEventLoopGroup()) {
      priorities.add(
          loop.submit(() -> Thread.currentThread().getPriority()).get(30, TimeUnit.SECONDS));
    }
    return priorities;
  }

  @Test
  void informerEventsReachHandlersOnTheClientsTaskThreadsWhichYieldAndStopWithTheClient()
      throws Exception {
    KubernetesMockServer server =
        new KubernetesMockServer(
            new Context(),
            new MockWebServer(),
            new HashMap<>(),
            new KubernetesCrudDispatcher(),
            false);
    server.init(java.net.InetAddress.getLoopbackAddress(), 0);
    try {
      EventThreads threads = new EventThreads();
      KubernetesClient client = server.createClient(threads::apply);
      BlockingQueue<Thread> handlerThreads = new LinkedBlockingQueue<>();
      SharedIndexInformer<Namespace> informer =
          client
              .namespaces()
              .inform(
                  new ResourceEventHandler<>() {
                    @Override
                    public void onAdd(Namespace ns) {
                      handlerThreads.add(Thread.currentThread());
                    }

                    @Override
                    public void onUpdate(Namespace before, Namespace after) {}

                    @Override
                    public void onDelete(Namespace ns, boolean unknownFinalStateBeforeDeletion) {}
                  });
      client
          .namespaces()
          .resource(new NamespaceBuilder().withNewMetadata().withName("a").endMetadata().build())
          .create();
      Thread first = handlerThreads.poll(30, TimeUnit.SECONDS);
      assertThat(first).isNotNull();
      assertThat(first.getName()).startsWith("kube-client-");
      assertThat(first.getPriority()).isEqualTo(Thread.NORM_PRIORITY);

      threads.yieldToCalls();
      client
          .namespaces()
          .resource(new NamespaceBuilder().withNewMetadata().withName("b").endMetadata().build())
          .create();
      Thread second = handlerThreads.poll(30, TimeUnit.SECONDS);
      assertThat(second).isNotNull();
      assertThat(second.getPriority()).isEqualTo(Thread.MIN_PRIORITY);

      informer.close();
      client.close();
      for (Thread t : List.of(first, second)) {
        t.join(TimeUnit.SECONDS.toMillis(30));
        assertThat(t.isAlive()).as("the client's task thread after close").isFalse();
      }
    } finally {
      server.destroy();
    }
  }

  @Test
  void cacheHandlersRunAtNormalPriorityAndTheThreadGoesBackDown() throws Exception {
    List<String> seen = new ArrayList<>();
    ResourceEventHandler<String> handler =
        EventThreads.atNormalPriority(
            new ResourceEventHandler<>() {
              @Override
              public void onAdd(String obj) {
                seen.add("add " + obj + " at " + Thread.currentThread().getPriority());
              }

              @Override
              public void onUpdate(String oldObj, String newObj) {
                seen.add(
                    "update "
                        + oldObj
                        + "->"
                        + newObj
                        + " at "
                        + Thread.currentThread().getPriority());
              }

              @Override
              public void onDelete(String obj, boolean unknown) {
                seen.add(
                    "delete "
                        + obj
                        + " "
                        + unknown
                        + " at "
                        + Thread.currentThread().getPriority());
                throw new IllegalStateException("refused");
              }

              @Override
              public void onNothing() {
                seen.add("nothing");
              }

              @Override
              public void onBeforeList(String resourceVersion) {
                seen.add("before list " + resourceVersion);
              }

              @Override
              public void onList(String resourceVersion, boolean initialList) {
                seen.add("list " + resourceVersion + " " + initialList);
              }
            });
    EventThreads threads = new EventThreads();
    threads.yieldToCalls();
    ExecutorService tasks = EventThreads.taskExecutor(threads);
    try {
      List<Integer> after =
          CompletableFuture.supplyAsync(
                  () -> {
                    List<Integer> priorities = new ArrayList<>();
                    handler.onAdd("a");
                    priorities.add(Thread.currentThread().getPriority());
                    handler.onUpdate("a", "b");
                    try {
                      handler.onDelete("b", true);
                    } catch (IllegalStateException expected) {
                      priorities.add(Thread.currentThread().getPriority());
                    }
                    handler.onNothing();
                    handler.onBeforeList("7");
                    handler.onList("8", true);
                    return priorities;
                  },
                  tasks)
              .get(30, TimeUnit.SECONDS);

      assertThat(seen)
          .containsExactly(
              "add a at 5",
              "update a->b at 5",
              "delete b true at 5",
              "nothing",
              "before list 7",
              "list 8 true");
      assertThat(after).containsExactly(Thread.MIN_PRIORITY, Thread.MIN_PRIORITY);
    } finally {
      tasks.shutdownNow();
    }
  }

  /**
   * In a JVM started with the options, a thread at the lowest priority runs at nice 10 (or stays
   * nicer if the process already was), and one at the highest priority at the process's own nice
   * value: nothing is raised.
   */
  @Test
  void withTheOptionsTheLowestPriorityIsNiceTenAndNothingIsRaised() throws Exception {
    List<String> cmd =
        new ArrayList<>(
            List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString()));
    cmd.addAll(EventThreads.JVM_OPTIONS);
    cmd.addAll(List.of("-cp", System.getProperty("java.class.path"), Probe.class.getName()));
    Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
    Map<String, Integer> nice = new HashMap<>();
    List<String> output = new ArrayList<>();
    try (BufferedReader r =
        new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
      for (String line = r.readLine(); line != null; line = r.readLine()) {
        output.add(line);
        String[] kv = line.split("=");
        if (kv.length == 2 && kv[0].startsWith("nice.")) {
          nice.put(kv[0].substring("nice.".length()), Integer.parseInt(kv[1]));
        }
      }
    }
    assertThat(p.waitFor()).as(String.join("\n", output)).isZero();

    assertThat(nice).as(String.join("\n", output)).containsKeys("main", "min", "max");
    assertThat(nice.get("min"))
        .isGreaterThanOrEqualTo(Math.max(EventThreads.NICE, nice.get("main")));
    assertThat(nice.get("max")).isEqualTo(nice.get("main"));
  }

  /**
   * Prints the nice values of threads at normal, lowest and highest Java priority (run in a child
   * JVM).
   */
  static final class Probe {
    public static void main(String[] args) throws Exception {
      print("main");
      for (int priority : new int[] {Thread.MIN_PRIORITY, Thread.MAX_PRIORITY}) {
        Thread t = new Thread(() -> print(priority == Thread.MIN_PRIORITY ? "min" : "max"));
        t.setPriority(priority);
        t.start();
        t.join();
      }
    }

    private static void print(String name) {
      OptionalInt nice = EventThreads.niceOfCurrentThread();
      System.out.println("nice." + name + "=" + (nice.isPresent() ? nice.getAsInt() : "unknown"));
    }
  }
}
