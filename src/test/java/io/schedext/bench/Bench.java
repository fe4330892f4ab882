package io.schedext.bench;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.schedext.SchedulerExtenderApplication;
import io.schedext.cache.EventGate;
import io.schedext.cache.SchedulerCache;
import io.schedext.cluster.EventThreads;
import io.schedext.framework.PodInfo;
import io.schedext.testing.ImageJvmOptions;
import io.schedext.testing.MakePod;
import io.schedext.testing.ServiceJvm;
import io.schedext.testing.realcluster.ControlPlane;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Supplier;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * The benchmark entry point. {@code jmh [jmh options]} runs {@link FrameworkBenchmark}; {@code http
 * [nodes=5000] [podsPerNode=10] [requests=300] [fullNodes=500]} starts the extender as its own JVM
 * on a synthetic cluster and measures start-up, memory and serial request latency; {@code burst
 * [nodes=1000] [events=1000] [rounds=10] [rate=events/s] [via=watch|cache]} measures filter latency
 * while bursts of pod events arrive over a watch from a stand-in API server (or, {@code via=cache},
 * are applied to the cache of a service in this JVM); {@code loop} runs a real kube-scheduler and
 * API server against a no-op extender and this one ({@link LoopBenchmark}). See
 * docs/performance.md.
 */
public final class Bench {

  private Bench() {}

  /** Runs the chosen benchmark. */
  public static void main(String[] args) throws Exception {
    String mode = args.length == 0 ? "http" : args[0];
    Map<String, String> opts = new HashMap<>();
    List<String> rest = new ArrayList<>();
    for (int i = 1; i < args.length; i++) {
      if (args[i].contains("=") && !args[i].startsWith("-")) {
        String[] kv = args[i].split("=", 2);
        opts.put(kv[0], kv[1]);
      } else {
        rest.add(args[i]);
      }
    }
    switch (mode) {
      case "jmh" -> org.openjdk.jmh.Main.main(Arrays.copyOfRange(args, 1, args.length));
      case "http" -> http(opts);
      case "burst" -> burst(opts);
      case "loop" -> LoopBenchmark.run(opts);
      default -> throw new IllegalArgumentException("modes: jmh, http, burst, loop");
    }
    System.exit(0);
  }

  private static int intOpt(Map<String, String> o, String k, int d) {
    return Integer.parseInt(o.getOrDefault(k, String.valueOf(d)));
  }

  // ---------------------------------------------------------------------------------------------------------- http

  private static void http(Map<String, String> o) throws Exception {
    int nodes = intOpt(o, "nodes", 5000);
    int perNode = intOpt(o, "podsPerNode", 10);
    int requests = intOpt(o, "requests", 300);
    int fullNodes = intOpt(o, "fullNodes", 500);
    SyntheticCluster cluster = SyntheticCluster.build(nodes, perNode, 42);
    Path file = Files.createTempFile("bench-cluster", ".json");
    file.toFile().deleteOnExit();
    HttpLoadDriver.writeClusterFile(cluster.objects(), file);
    System.out.printf(
        Locale.ROOT,
        "# %d nodes, %d pods, cluster file %d MB, service heap limit %s, %s GC%n",
        nodes,
        nodes * perNode,
        Files.size(file) / (1024 * 1024),
        o.getOrDefault("heap", "1g"),
        o.getOrDefault("gc", ImageJvmOptions.gc()));
    long t0 = System.nanoTime();
    Launched launched = startService(o, List.of("--extender.cluster.file=" + file));
    Process service = launched.process();
    HttpLoadDriver d = launched.driver();
    d.printSlowest(intOpt(o, "slowest", 0));
    try {
      awaitReady(d, service);
      System.out.printf(Locale.ROOT, "start to ready: %.1f s%n", (System.nanoTime() - t0) / 1e9);
      memory(d, service);
      List<String> all = cluster.nodes().stream().map(n -> n.getMetadata().getName()).toList();
      List<String> some = all.subList(0, Math.min(500, all.size()));
      List<SyntheticCluster.Kind> kinds =
          o.containsKey("kinds")
              ? Arrays.stream(o.get("kinds").split(","))
                  .map(SyntheticCluster.Kind::valueOf)
                  .toList()
              : List.of(SyntheticCluster.Kind.values());
      int warmup = intOpt(o, "warmup", 0);
      if (warmup > 0) {
        warmUp(d, kinds, all, some, warmup);
      }
      System.out.println();
      System.out.println(
          "| pod kind | mode | verb | candidates | p50 ms | p99 ms | max ms | server p50 ≤ "
              + "| server p99 ≤ | service CPU ms/call |");
      System.out.println("|---|---|---|---|---|---|---|---|---|---|");
      cpu = new ServiceCpu(service.pid());
      int warm = intOpt(o, "rowWarmup", Math.max(20, requests / 5));
      int podsPerRow = intOpt(o, "pods", 4);
      Set<String> scenarios =
          Set.of(o.getOrDefault("scenarios", "names,subset,explain,full").split(","));
      List<SyntheticCluster.Kind> runs = new ArrayList<>();
      for (int r = 0; r < intOpt(o, "repeat", 1); r++) {
        runs.addAll(kinds);
      }
      for (SyntheticCluster.Kind kind : runs) {
        Pod pod = SyntheticCluster.pending(kind, 0);
        // Several pods of the kind, taken in turn, so that no call sees the pod of the call before
        // it (kube-scheduler sends the same pod only to a cycle's filter and prioritize).
        byte[][] names = new byte[podsPerRow][];
        byte[][] subsets = new byte[podsPerRow][];
        for (int i = 0; i < podsPerRow; i++) {
          Pod p = SyntheticCluster.pending(kind, i);
          names[i] = HttpLoadDriver.namesBody(p, all);
          subsets[i] = HttpLoadDriver.namesBody(p, some);
        }
        if (scenarios.contains("floor")) {
          // The cost of the round trip itself: a filter with no candidates does no scheduling work.
          row(
              d,
              kind,
              "names",
              "filter (no nodes)",
              0,
              warm + requests,
              () ->
                  d.serial(
                      "/scheduler/filter",
                      HttpLoadDriver.namesBody(pod, List.of()),
                      warm,
                      requests));
        }
        if (scenarios.contains("names")) {
          row(
              d,
              kind,
              "names",
              "filter",
              all.size(),
              warm + requests,
              () -> d.serial("/scheduler/filter", names, warm, requests));
          row(
              d,
              kind,
              "names",
              "prioritize",
              all.size(),
              warm + requests,
              () -> d.serial("/scheduler/prioritize", names, warm, requests));
        }
        if (scenarios.contains("subset")) {
          // One pod's filter and then its prioritize, as in a scheduling cycle; the next pair is
          // another pod.
          long[] pair = new long[requests];
          long cpu0 = cpu.nanos();
          for (int i = 0; i < warm; i++) {
            byte[] subset = subsets[i % podsPerRow];
            d.post("/scheduler/filter", subset);
            d.post("/scheduler/prioritize", subset);
          }
          for (int i = 0; i < requests; i++) {
            byte[] subset = subsets[(warm + i) % podsPerRow];
            pair[i] = d.post("/scheduler/filter", subset) + d.post("/scheduler/prioritize", subset);
          }
          row(
              kind,
              "names",
              "filter+prioritize",
              some.size(),
              HttpLoadDriver.Stats.of(pair),
              "",
              "",
              (cpu.nanos() - cpu0) / 1e6 / (warm + requests));
        }
        if (scenarios.contains("concurrent")) {
          // Several schedulers (or profiles) calling at once: each client its own kept-alive
          // connection.
          int clients = intOpt(o, "clients", 4);
          d.concurrent("/scheduler/filter", names, clients, warm);
          long start = System.nanoTime();
          long cpuStart = cpu.nanos();
          HttpLoadDriver.Stats s = d.concurrent("/scheduler/filter", names, clients, requests);
          double seconds = (System.nanoTime() - start) / 1e9;
          row(
              kind,
              "names",
              String.format(
                  Locale.ROOT,
                  "filter, %d client%s (%.0f calls/s)",
                  clients,
                  clients == 1 ? "" : "s",
                  requests / seconds),
              all.size(),
              s,
              "",
              "",
              (cpu.nanos() - cpuStart) / 1e6 / requests);
        }
        if (scenarios.contains("explain")) {
          int explained = Math.max(10, requests / 10);
          row(
              d,
              kind,
              "names",
              "explain",
              all.size(),
              5 + explained,
              () -> d.serial("/scheduler/explain", names[0], 5, explained));
        }
        if (scenarios.contains("full")) {
          List<Node> full = cluster.nodes().subList(0, Math.min(fullNodes, cluster.nodes().size()));
          byte[] nodesBody = HttpLoadDriver.nodesBody(pod, full);
          row(
              d,
              kind,
              "full nodes",
              "filter",
              full.size(),
              warm + requests,
              () -> d.serial("/scheduler/filter", nodesBody, warm, requests));
          row(
              d,
              kind,
              "full nodes",
              "prioritize",
              full.size(),
              warm + requests,
              () -> d.serial("/scheduler/prioritize", nodesBody, warm, requests));
        }
      }
      System.out.println();
      memory(d, service);
    } finally {
      service.destroy();
      service.waitFor(10, TimeUnit.SECONDS);
    }
  }

  /** The extender's process and a driver that calls it. */
  record Launched(Process process, HttpLoadDriver driver) {}

  /**
   * Starts the extender as its own JVM (options {@code java}, {@code heap}, {@code gc}, {@code
   * jvm}, {@code jfr}, {@code serviceArgs}, {@code priorities}, {@code compiler}, {@code cp}) with
   * {@code sourceArgs} saying where its cluster comes from, on a free port. The JVM gets the
   * container image's collector unless {@code gc} names another, its memory options ({@link
   * ImageJvmOptions#memory()}), its thread-priority options ({@link EventThreads#JVM_OPTIONS})
   * unless {@code priorities=false}, and its inlining options ({@link ImageJvmOptions#compiler()})
   * unless {@code compiler=default}.
   */
  static Launched startService(Map<String, String> o, List<String> sourceArgs) throws IOException {
    int port = ControlPlane.freePort();
    List<String> jvm = new ArrayList<>();
    if (o.containsKey("jvm")) {
      jvm.addAll(List.of(o.get("jvm").split(";")));
    }
    if (o.containsKey("jfr")) {
      jvm.add("-XX:StartFlightRecording=filename=" + o.get("jfr") + ",settings=profile");
    }
    ServiceJvm service =
        new ServiceJvm(
            // java=: another JDK's launcher for the service (the image's, say), while the driver
            // stays on this one.
            o.getOrDefault("java", javaBin()),
            o.getOrDefault("heap", "1g"),
            o.getOrDefault("gc", ImageJvmOptions.gc()),
            !"false".equals(o.get("priorities")),
            !"default".equals(o.get("compiler")),
            jvm,
            // cp=: the service from other class files than the benchmark's own, such as the jar an
            // image ships (an AOT cache takes jars only).
            o.getOrDefault("cp", ServiceJvm.classPath()));
    List<String> args = new ArrayList<>(List.of("--logging.level.root=WARN"));
    args.addAll(sourceArgs);
    if (o.containsKey("serviceArgs")) {
      args.addAll(List.of(o.get("serviceArgs").split(";")));
    }
    Process process = new ProcessBuilder(service.command(port, args)).inheritIO().start();
    return new Launched(process, new HttpLoadDriver("http://127.0.0.1:" + port));
  }

  static void awaitReady(HttpLoadDriver d, Process service) throws InterruptedException {
    while (!d.ready()) {
      if (!service.isAlive()) {
        throw new IllegalStateException("the service exited with " + service.exitValue());
      }
      TimeUnit.MILLISECONDS.sleep(50);
    }
  }

  /**
   * Sends {@code calls} unmeasured calls — 5,000-name and 500-name filter and prioritize for each
   * pod kind in turn — so the measured rows see the JIT's steady state. HotSpot compiles a method
   * with its optimising compiler after about 5,000–15,000 invocations, so code that runs once per
   * request (the HTTP stack, decoding, the framework's per-call setup) is still being compiled
   * during the first several thousand calls, on the same two CPUs; a scheduler that calls the
   * extender for every pod leaves that phase within its first few thousand pods.
   */
  private static void warmUp(
      HttpLoadDriver d,
      List<SyntheticCluster.Kind> kinds,
      List<String> all,
      List<String> some,
      int calls) {
    long t0 = System.nanoTime();
    List<byte[]> bodies = new ArrayList<>();
    for (SyntheticCluster.Kind kind : kinds) {
      Pod pod = SyntheticCluster.pending(kind, 0);
      bodies.add(HttpLoadDriver.namesBody(pod, all));
      bodies.add(HttpLoadDriver.namesBody(pod, some));
    }
    for (int i = 0; i < calls; i++) {
      byte[] body = bodies.get((i / 2) % bodies.size());
      d.post(i % 2 == 0 ? "/scheduler/filter" : "/scheduler/prioritize", body);
    }
    System.out.printf(
        Locale.ROOT,
        "warm-up: %d unmeasured calls in %.1f s%n",
        calls,
        (System.nanoTime() - t0) / 1e9);
  }

  /** The service process, for CPU time per row. */
  private static ServiceCpu cpu;

  /**
   * The CPU time the service process used (every thread: request handling, GC, JIT), from {@code
   * /proc}; -1 where that is not available. Read before and after a row, it gives the row's CPU per
   * call, a figure less disturbed by the scheduling of two shared CPUs than latency is.
   */
  record ServiceCpu(long pid) {
    long nanos() {
      try {
        return ThreadGroupCpu.cpuNanos(Files.readString(Path.of("/proc/" + pid + "/stat")));
      } catch (IOException | RuntimeException e) {
        return -1;
      }
    }
  }

  /**
   * Runs one measured row of {@code sent} calls (warm-up included) and prints it with the service's
   * own view of the same calls: its request-duration histogram read before and after (warm-up
   * requests count there too; bucket bounds, not exact values) and its CPU time per call.
   */
  private static void row(
      HttpLoadDriver d,
      SyntheticCluster.Kind kind,
      String mode,
      String verb,
      int n,
      int sent,
      Supplier<HttpLoadDriver.Stats> run) {
    String path = verb.startsWith("filter") ? "filter" : verb;
    var before = d.serverHistogram(path);
    long cpu0 = cpu.nanos();
    HttpLoadDriver.Stats s = run.get();
    double cpuPerCall = (cpu.nanos() - cpu0) / 1e6 / sent;
    var after = d.serverHistogram(path);
    row(
        kind,
        mode,
        verb,
        n,
        s,
        String.format(Locale.ROOT, "%.1f", HttpLoadDriver.serverQuantile(before, after, 0.5)),
        String.format(Locale.ROOT, "%.1f", HttpLoadDriver.serverQuantile(before, after, 0.99)),
        cpuPerCall);
  }

  private static void row(
      SyntheticCluster.Kind kind,
      String mode,
      String verb,
      int n,
      HttpLoadDriver.Stats s,
      String serverP50,
      String serverP99,
      double cpuPerCall) {
    System.out.printf(
        Locale.ROOT,
        "| %s | %s | %s | %d | %.2f | %.2f | %.2f | %s | %s | %s |%n",
        kind,
        mode,
        verb,
        n,
        s.p50(),
        s.p99(),
        s.max(),
        serverP50,
        serverP99,
        cpuPerCall < 0 ? "" : String.format(Locale.ROOT, "%.2f", cpuPerCall));
  }

  private static void memory(HttpLoadDriver d, Process service) throws Exception {
    Process gc =
        new ProcessBuilder(jcmd(), String.valueOf(service.pid()), "GC.run")
            .redirectErrorStream(true)
            .start();
    gc.getInputStream().readAllBytes();
    gc.waitFor(30, TimeUnit.SECONDS);
    double heap =
        d.get("/actuator/metrics/jvm.memory.used?tag=area:heap")
            .path("measurements")
            .path(0)
            .path("value")
            .asDouble();
    long rssKb = 0;
    for (String line : Files.readAllLines(Path.of("/proc/" + service.pid() + "/status"))) {
      if (line.startsWith("VmRSS:")) {
        rssKb = Long.parseLong(line.replaceAll("[^0-9]", ""));
      }
    }
    System.out.printf(
        Locale.ROOT,
        "heap used after GC: %.0f MB, RSS: %d MB%n",
        heap / (1024 * 1024),
        rssKb / 1024);
  }

  // --------------------------------------------------------------------------------------------------------- burst

  private static void burst(Map<String, String> o) throws Exception {
    switch (o.getOrDefault("via", "watch")) {
      case "watch" -> burstOverWatch(o);
      case "cache" -> burstInProcess(o);
      default -> throw new IllegalArgumentException("via: watch (the default) or cache");
    }
  }

  /**
   * The service in its own JVM, its cluster from {@link FakeApiServer} through its informers, and
   * each burst sent as pod watch events: {@code events - 2} updates of running pods (a changed
   * label), then the previous burst's marker pod deleted and a new one added. The marker is a pod
   * that fills one node's CPU, so the first filter answer that lists that node as failed shows the
   * whole burst applied (one watch, delivered in order); the requests sent from the burst's first
   * write until that answer are its requests. Each round sends {@code settleCalls} unmeasured calls
   * after the previous burst, then {@code quietCalls} quiet ones, then the burst: quiet and burst
   * calls are measured alike, interleaved, in the same state of the JIT and the heap (a long quiet
   * phase measured apart lets the JIT recompile the request path for a cluster without events, and
   * the next burst then pays for deoptimisations).
   */
  private static void burstOverWatch(Map<String, String> o) throws Exception {
    int nodes = intOpt(o, "nodes", 1000);
    int events = intOpt(o, "events", 1000);
    int rounds = intOpt(o, "rounds", 10);
    int rate = intOpt(o, "rate", 0);
    int warmRounds = intOpt(o, "warmRounds", 5);
    int warmup = intOpt(o, "warmup", 2000);
    int quietCalls = intOpt(o, "quietCalls", 100);
    int settleCalls = intOpt(o, "settleCalls", 50);
    // Calls during bursts slower than this many ms are listed with their wall-clock time, to match
    // against the service's logs (e.g. jvm=-Xlog:gc:file=gc.log:timemillis).
    long slowNanos =
        TimeUnit.MILLISECONDS.toNanos(intOpt(o, "slow", Integer.MAX_VALUE / 1_000_000));
    if (rounds < 1 || warmRounds < 0 || events < 2 || quietCalls < 1) {
      throw new IllegalArgumentException(
          "rounds and quietCalls must be positive, warmRounds not negative, events at "
              + "least 2");
    }
    SyntheticCluster cluster = SyntheticCluster.build(nodes, 10, 42);
    List<Pod> pods = cluster.pods();
    List<String> all = cluster.nodes().stream().map(n -> n.getMetadata().getName()).toList();
    try (FakeApiServer api = new FakeApiServer(cluster.objects())) {
      Path kubeconfig = Files.createTempFile("bench-kubeconfig", ".yaml");
      kubeconfig.toFile().deleteOnExit();
      api.writeKubeconfig(kubeconfig);
      long t0 = System.nanoTime();
      Launched launched =
          startService(
              o,
              List.of(
                  "--extender.cluster.source=kubernetes",
                  "--extender.cluster.kubeconfig=" + kubeconfig));
      HttpLoadDriver d = launched.driver();
      try {
        awaitReady(d, launched.process());
        while (api.podWatches() == 0) {
          TimeUnit.MILLISECONDS.sleep(10);
        }
        System.out.printf(
            Locale.ROOT,
            "# %d nodes, %d pods from a watched API server, ready in %.1f s; %d bursts of "
                + "%d pod events%s, %d quiet calls before each%n",
            nodes,
            pods.size(),
            (System.nanoTime() - t0) / 1e9,
            rounds,
            events,
            rate > 0 ? " at " + rate + "/s" : ", unpaced",
            quietCalls);
        byte[] body =
            HttpLoadDriver.namesBody(SyntheticCluster.pending(SyntheticCluster.Kind.PLAIN, 0), all);
        for (int i = 0; i < warmup; i++) {
          d.post("/scheduler/filter", body);
        }
        long resourceVersion = 2;
        Pod marker = null;
        long[] quiet = new long[rounds * quietCalls];
        List<Long> during = new ArrayList<>();
        double windowMs = 0;
        for (int round = -warmRounds; round < rounds; round++) {
          for (int i = 0; i < settleCalls; i++) {
            d.post("/scheduler/filter", body);
          }
          for (int i = 0; i < quietCalls; i++) {
            long t = d.post("/scheduler/filter", body);
            if (round >= 0) {
              quiet[round * quietCalls + i] = t;
            }
          }
          int n = round + warmRounds;
          List<String> burst = new ArrayList<>(events);
          for (int i = 0; i < events - 2; i++) {
            Pod pod = pods.get((int) (((long) n * events + i) * 7919 % pods.size()));
            pod.getMetadata().getLabels().put("burst", n + "-" + i);
            pod.getMetadata().setResourceVersion(String.valueOf(resourceVersion++));
            burst.add(FakeApiServer.podEvent("MODIFIED", pod));
          }
          if (marker != null) {
            marker.getMetadata().setResourceVersion(String.valueOf(resourceVersion++));
            burst.add(FakeApiServer.podEvent("DELETED", marker));
          }
          // A node no taint keeps the pending pod from (every twentieth has one), a different one
          // each round.
          int node = (int) ((long) n * 7919 % nodes);
          node = node % 20 == 7 ? (node + 1) % nodes : node;
          marker =
              MakePod.pod()
                  .name("burst-marker-" + n)
                  .namespace("ns-0")
                  .uid("burst-marker-" + n)
                  .node(all.get(node))
                  .req(Map.of("cpu", "32", "memory", "1Gi"))
                  .obj();
          marker.getStatus().setPhase("Running");
          marker.getMetadata().setResourceVersion(String.valueOf(resourceVersion++));
          burst.add(FakeApiServer.podEvent("ADDED", marker));
          byte[] applied = ("\"" + all.get(node) + "\":").getBytes(StandardCharsets.UTF_8);

          Thread sender = new Thread(() -> api.sendPodEvents(burst, rate), "burst");
          long b0 = System.nanoTime();
          sender.start();
          boolean seen = false;
          while (!seen) {
            long sentAt = System.currentTimeMillis();
            long t = d.post("/scheduler/filter", body);
            if (round >= 0) {
              during.add(t);
              if (t > slowNanos) {
                System.out.printf(
                    Locale.ROOT, "slow call: sent at %d (epoch ms), %.2f ms%n", sentAt, t / 1e6);
              }
            }
            seen = d.lastAnswerContains(applied);
            if (!seen && System.nanoTime() - b0 > TimeUnit.SECONDS.toNanos(60)) {
              throw new IllegalStateException("the burst's marker pod was not seen within 60 s");
            }
          }
          if (round >= 0) {
            windowMs += (System.nanoTime() - b0) / 1e6;
          }
          sender.join();
        }
        // Quiet and burst calls are interleaved, so the service's histogram cannot tell them apart:
        // no server side.
        printBurst(
            HttpLoadDriver.Stats.of(quiet),
            HttpLoadDriver.Stats.of(during.stream().mapToLong(Long::longValue).toArray()),
            windowMs,
            null,
            null);
        System.out.printf(
            Locale.ROOT,
            "events that waited for a call in flight: %s, waits that ran out: %s%n",
            d.get("/actuator/metrics/extender.cache.delayed.events")
                .path("measurements")
                .path(0)
                .path("value"),
            d.get("/actuator/metrics/extender.cache.event.delay.timeouts")
                .path("measurements")
                .path(0)
                .path("value"));
      } finally {
        launched.process().destroy();
        launched.process().waitFor(10, TimeUnit.SECONDS);
      }
    }
  }

  /**
   * The burst result lines; the service's own view of the burst calls when its histogram was read
   * around them.
   */
  private static void printBurst(
      HttpLoadDriver.Stats quiet,
      HttpLoadDriver.Stats loaded,
      double windowMs,
      TreeMap<Double, Long> serverBefore,
      TreeMap<Double, Long> serverAfter) {
    System.out.println("filter, quiet:        " + quiet);
    System.out.println(
        "filter, during burst: "
            + loaded
            + String.format(Locale.ROOT, " (burst windows %.0f ms in all)", windowMs));
    if (serverBefore != null) {
      System.out.printf(
          Locale.ROOT,
          "service-side, during bursts: p50 <= %.1f ms, p99 <= %.1f ms%n",
          HttpLoadDriver.serverQuantile(serverBefore, serverAfter, 0.5),
          HttpLoadDriver.serverQuantile(serverBefore, serverAfter, 0.99));
    }
    System.out.printf(
        Locale.ROOT, "p99 during bursts / quiet p99: %.2f%n", loaded.p99() / quiet.p99());
  }

  /**
   * The service in this JVM, each burst applied to its cache directly by a thread that does what
   * the pod watch handler does (pass the event gate, build the pod's info, update the cache) with
   * updates built beforehand: the cache's own cost, without the watch and its decoding, but sharing
   * this JVM (its heap and collector) with the driver.
   */
  private static void burstInProcess(Map<String, String> o) throws Exception {
    int nodes = intOpt(o, "nodes", 1000);
    int events = intOpt(o, "events", 1000);
    int requests = intOpt(o, "requests", 1000);
    int rounds = intOpt(o, "rounds", 10);
    // Events per second the burst applies; 0 = as fast as the cache takes them.
    int rate = intOpt(o, "rate", 0);
    // Bursts run first and not measured, so the code they exercise (in the burst thread and in the
    // requests that absorb its changes) is compiled before anything is measured, as the request
    // path is by its warm-up calls.
    int warmRounds = intOpt(o, "warmRounds", 5);
    if (rounds < 1 || warmRounds < 0) {
      throw new IllegalArgumentException("rounds must be positive and warmRounds not negative");
    }
    SyntheticCluster cluster = SyntheticCluster.build(nodes, 10, 42);
    Path file = Files.createTempFile("bench-cluster", ".json");
    file.toFile().deleteOnExit();
    HttpLoadDriver.writeClusterFile(cluster.objects(), file);
    int port = ControlPlane.freePort();
    List<String> serviceArgs =
        new ArrayList<>(
            List.of(
                "--server.port=" + port,
                "--extender.cluster.file=" + file,
                "--logging.level.root=WARN"));
    if (o.containsKey("serviceArgs")) {
      serviceArgs.addAll(List.of(o.get("serviceArgs").split(";")));
    }
    ConfigurableApplicationContext ctx =
        new SpringApplicationBuilder(SchedulerExtenderApplication.class)
            .run(serviceArgs.toArray(new String[0]));
    try {
      SchedulerCache cache = ctx.getBean(SchedulerCache.class);
      EventGate gate = ctx.getBean(EventGate.class);
      HttpLoadDriver d = new HttpLoadDriver("http://127.0.0.1:" + port);
      List<String> all = cluster.nodes().stream().map(n -> n.getMetadata().getName()).toList();
      // Only the pods' UIDs stay: the service holds the cluster itself, and a second copy in this
      // JVM would double the heap the collector works on (the updates start from the service's own
      // objects).
      List<String> uids = cluster.pods().stream().map(p -> p.getMetadata().getUid()).toList();
      cluster = null;
      byte[] body =
          HttpLoadDriver.namesBody(SyntheticCluster.pending(SyntheticCluster.Kind.PLAIN, 0), all);
      List<Long> during = new ArrayList<>();
      double windowMs = 0;
      HttpLoadDriver.Stats quiet = null;
      var serverBefore = d.serverHistogram("filter");
      for (int round = -warmRounds; round < rounds; round++) {
        if (round == 0) {
          // Warm the JIT first (the warm-up bursts and calls), so quiet and burst rows compare the
          // same code.
          quiet = d.serial("/scheduler/filter", body, Math.max(2000, requests), requests);
          serverBefore = d.serverHistogram("filter");
        }
        boolean measured = round >= 0;
        // Prepare the updates first, so the burst itself costs what a watch handler does: decode is
        // excluded,
        // PodInfo construction and the cache update are included.
        List<Pod[]> updates = new ArrayList<>(events);
        for (int i = 0; i < events; i++) {
          String uid =
              uids.get((int) (((long) ((round + warmRounds) * events + i) * 7919) % uids.size()));
          Pod current = cache.getPod(uid).pod();
          Pod updated =
              new PodBuilder(current)
                  .editMetadata()
                  .addToLabels("burst", (round + warmRounds) + "-" + i)
                  .endMetadata()
                  .build();
          updates.add(new Pod[] {current, updated});
        }
        AtomicBoolean done = new AtomicBoolean();
        Thread burst =
            new Thread(
                () -> {
                  long t0 = System.nanoTime();
                  for (int i = 0; i < updates.size(); i++) {
                    if (rate > 0) {
                      long due = t0 + i * 1_000_000_000L / rate;
                      for (long wait = due - System.nanoTime();
                          wait > 0;
                          wait = due - System.nanoTime()) {
                        LockSupport.parkNanos(wait);
                      }
                    }
                    // As the pod watch handler does for an assigned pod's update: give way to a
                    // call being answered, then apply the event.
                    gate.awaitQuiet();
                    cache.addOrUpdatePod(PodInfo.of(updates.get(i)[1]));
                  }
                  done.set(true);
                },
                "burst");
        long b0 = System.nanoTime();
        burst.start();
        // Only requests sent while the burst runs count; the last one may finish after it.
        while (!done.get()) {
          long t = d.post("/scheduler/filter", body);
          if (measured) {
            during.add(t);
          }
        }
        if (measured) {
          windowMs += (System.nanoTime() - b0) / 1e6;
        }
        burst.join();
      }
      var serverAfter = d.serverHistogram("filter");
      System.out.printf(
          Locale.ROOT,
          "# %d nodes, %d pods; %d bursts of %d pod updates applied in this JVM%s%n",
          nodes,
          nodes * 10,
          rounds,
          events,
          rate > 0 ? " at " + rate + "/s" : ", unpaced");
      printBurst(
          quiet,
          HttpLoadDriver.Stats.of(during.stream().mapToLong(Long::longValue).toArray()),
          windowMs,
          serverBefore,
          serverAfter);
    } finally {
      ctx.close();
    }
  }

  static String javaBin() {
    return ServiceJvm.javaBin();
  }

  private static String jcmd() {
    Path p = Path.of(System.getProperty("java.home"), "bin", "jcmd");
    return Files.exists(p) ? p.toString() : "jcmd";
  }
}
