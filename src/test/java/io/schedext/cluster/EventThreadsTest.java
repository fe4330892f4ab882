package io.schedext.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Namespace;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import io.fabric8.kubernetes.client.server.mock.KubernetesCrudDispatcher;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.fabric8.mockwebserver.Context;
import io.fabric8.mockwebserver.MockWebServer;
import io.vertx.core.Vertx;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The API client's event threads run at the lowest priority, which the container image's JVM options make nice 10. */
@Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class EventThreadsTest {

  @Test
  void theContainerImageStartsTheJvmWithTheOptions() throws Exception {
    String dockerfile = Files.readString(Path.of("Dockerfile"));
    String toolOptions = dockerfile.lines().filter(l -> l.startsWith("ENV JAVA_TOOL_OPTIONS=")).findFirst()
        .orElseThrow();

    assertThat(List.of(toolOptions.substring(toolOptions.indexOf('"') + 1, toolOptions.lastIndexOf('"')).split(" ")))
        .containsAll(EventThreads.JVM_OPTIONS);
  }

  @Test
  void taskThreadsAreDaemonsAtTheLowestPriority() throws Exception {
    ExecutorService tasks = EventThreads.taskExecutor();
    try {
      Thread t = CompletableFuture.supplyAsync(Thread::currentThread, tasks).get(30, TimeUnit.SECONDS);
      assertThat(t.getName()).startsWith("kube-client-");
      assertThat(t.isDaemon()).isTrue();
      assertThat(t.getPriority()).isEqualTo(Thread.MIN_PRIORITY);
    } finally {
      tasks.shutdownNow();
    }
  }

  @Test
  void everyEventLoopRunsAtTheLowestPriority() throws Exception {
    Vertx vertx = EventThreads.vertx();
    try {
      List<Integer> priorities = new ArrayList<>();
      for (io.netty.util.concurrent.EventExecutor loop : vertx.nettyEventLoopGroup()) {
        priorities.add(loop.submit(() -> Thread.currentThread().getPriority()).get(30, TimeUnit.SECONDS));
      }
      assertThat(priorities).isNotEmpty().containsOnly(Thread.MIN_PRIORITY);
    } finally {
      vertx.close().toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
    }
  }

  @Test
  void informerEventsReachHandlersOnTheLowPriorityThreadsWhichStopWithTheClient() throws Exception {
    KubernetesMockServer server = new KubernetesMockServer(new Context(), new MockWebServer(), new HashMap<>(),
        new KubernetesCrudDispatcher(), false);
    server.init(java.net.InetAddress.getLoopbackAddress(), 0);
    try {
      KubernetesClient client = server.createClient(EventThreads::apply);
      CompletableFuture<Thread> handlerThread = new CompletableFuture<>();
      SharedIndexInformer<Namespace> informer = client.namespaces().inform(new ResourceEventHandler<>() {
        @Override
        public void onAdd(Namespace ns) {
          handlerThread.complete(Thread.currentThread());
        }

        @Override
        public void onUpdate(Namespace before, Namespace after) {}

        @Override
        public void onDelete(Namespace ns, boolean unknownFinalStateBeforeDeletion) {}
      });
      client.namespaces().resource(new NamespaceBuilder().withNewMetadata().withName("a").endMetadata().build())
          .create();

      Thread t = handlerThread.get(30, TimeUnit.SECONDS);
      assertThat(t.getName()).startsWith("kube-client-");
      assertThat(t.getPriority()).isEqualTo(Thread.MIN_PRIORITY);

      informer.close();
      client.close();
      t.join(TimeUnit.SECONDS.toMillis(30));
      assertThat(t.isAlive()).as("the client's task thread after close").isFalse();
    } finally {
      server.destroy();
    }
  }

  @Test
  void cacheHandlersRunAtNormalPriorityAndTheThreadGoesBackDown() throws Exception {
    List<String> seen = new ArrayList<>();
    ResourceEventHandler<String> handler = EventThreads.atNormalPriority(new ResourceEventHandler<>() {
      @Override
      public void onAdd(String obj) {
        seen.add("add " + obj + " at " + Thread.currentThread().getPriority());
      }

      @Override
      public void onUpdate(String oldObj, String newObj) {
        seen.add("update " + oldObj + "->" + newObj + " at " + Thread.currentThread().getPriority());
      }

      @Override
      public void onDelete(String obj, boolean unknown) {
        seen.add("delete " + obj + " " + unknown + " at " + Thread.currentThread().getPriority());
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
    ExecutorService tasks = EventThreads.taskExecutor();
    try {
      List<Integer> after = CompletableFuture.supplyAsync(() -> {
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
      }, tasks).get(30, TimeUnit.SECONDS);

      assertThat(seen).containsExactly("add a at 5", "update a->b at 5", "delete b true at 5", "nothing",
          "before list 7", "list 8 true");
      assertThat(after).containsExactly(Thread.MIN_PRIORITY, Thread.MIN_PRIORITY);
    } finally {
      tasks.shutdownNow();
    }
  }

  /**
   * In a JVM started with the options, a thread at the lowest priority runs at nice 10 (or stays nicer if the
   * process already was), and one at the highest priority at the process's own nice value: nothing is raised.
   */
  @Test
  void withTheOptionsTheLowestPriorityIsNiceTenAndNothingIsRaised() throws Exception {
    List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString()));
    cmd.addAll(EventThreads.JVM_OPTIONS);
    cmd.addAll(List.of("-cp", System.getProperty("java.class.path"), Probe.class.getName()));
    Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
    Map<String, Integer> nice = new HashMap<>();
    List<String> output = new ArrayList<>();
    try (BufferedReader r = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
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
    assertThat(nice.get("min")).isGreaterThanOrEqualTo(Math.max(EventThreads.NICE, nice.get("main")));
    assertThat(nice.get("max")).isEqualTo(nice.get("main"));
  }

  /** Prints the nice values of threads at normal, lowest and highest Java priority (run in a child JVM). */
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
