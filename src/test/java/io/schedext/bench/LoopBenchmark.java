package io.schedext.bench;

import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.Watch;
import io.fabric8.kubernetes.client.Watcher;
import io.fabric8.kubernetes.client.WatcherException;
import io.schedext.testing.realcluster.Assets;
import io.schedext.testing.realcluster.ControlPlane;
import io.schedext.testing.realcluster.KubeScheduler;
import io.schedext.testing.realcluster.KubeScheduler.Extender;
import io.schedext.testing.realcluster.KubeScheduler.OwnPlugins;
import io.schedext.testing.realcluster.Nodes;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.function.IntConsumer;

/**
 * The real loop: N nodes and P pending pods in a real API server, a real kube-scheduler calling an
 * extender for {@code filter} and {@code prioritize} in names mode, with kube-scheduler's own
 * default plugins on, every process sharing the machine's CPUs as a sidecar does. Run once with a
 * no-op extender (the HTTP floor every extender pays, {@link NoopExtender}) and once with this one
 * watching the same API server.
 *
 * <p>Each extender process serves {@code rounds} rounds. A round creates P pods while no scheduler
 * runs, then starts kube-scheduler and waits for every pod to be bound; its rate is pods per second
 * between the first and the last binding (kube-scheduler's own start is not counted), and its CPU
 * is the extender process's CPU time (every thread: requests, watches, GC, JIT) from before the
 * pods were created until the last was bound, per pod. The first round after the extender reports
 * ready is the cold one; later rounds on the same process are warm. The round's pods are then
 * deleted.
 *
 * <p>With {@code devices=N} (claims mode) every node also publishes a ResourceSlice of N devices of
 * a made-up driver (no kubelet, no driver: the objects alone), and every pod claims one device of
 * its DeviceClass through a ResourceClaim of its own, created just before it; kube-scheduler's own
 * DynamicResources allocates and writes the claims when it binds, the extender's filters and scores
 * with its copy. After a round the claims are deleted with their finalizer removed (there is no
 * controller-manager to do it), so the devices are free for the next.
 *
 * <p>Options: {@code nodes=1000 pods=2000 rounds=2 extenders=noop,ours qps=1000 podCpu=100m
 * devices=0 version=v1.34.9} (the Kubernetes version of the control plane and kube-scheduler: the
 * directory of that version named in {@code KUBEBUILDER_ASSETS}, else {@code
 * ../shared/k8s/VERSION/bin}), plus the service options of {@link Bench} ({@code heap}, {@code gc},
 * {@code jvm}, {@code jfr}, {@code priorities}, {@code compiler}).
 */
final class LoopBenchmark {

  /** The version the loop runs on unless told otherwise: the kube-scheduler deployment/ ships. */
  static final String DEFAULT_VERSION = "v1.34.9";

  private LoopBenchmark() {}

  /**
   * One round's figures.
   *
   * @param extender which extender served it
   * @param round 1 for the cold round
   * @param pods pods bound
   * @param podsPerSecond pods per second between the first and last binding
   * @param extenderCpuMs the extender's CPU time per pod
   * @param schedulerCpuMs kube-scheduler's CPU time per pod
   * @param byGroup the extender's CPU time per pod by thread group (ms)
   */
  record Round(
      String extender,
      int round,
      int pods,
      double podsPerSecond,
      double extenderCpuMs,
      double schedulerCpuMs,
      String byGroup) {}

  static void run(Map<String, String> o) throws Exception {
    String version = o.getOrDefault("version", DEFAULT_VERSION);
    Assets assets =
        Assets.find(version)
            .orElseThrow(
                () ->
                    new IllegalStateException(
                        "no programs of "
                            + version
                            + ": name their directory in "
                            + Assets.VARIABLE
                            + " or keep them in ../shared/k8s/"
                            + version
                            + "/bin"));
    int nodes = Integer.parseInt(o.getOrDefault("nodes", "1000"));
    int pods = Integer.parseInt(o.getOrDefault("pods", "2000"));
    int rounds = Integer.parseInt(o.getOrDefault("rounds", "2"));
    int qps = Integer.parseInt(o.getOrDefault("qps", "1000"));
    String podCpu = o.getOrDefault("podCpu", "100m");
    int devices = Integer.parseInt(o.getOrDefault("devices", "0"));
    List<String> extenders = List.of(o.getOrDefault("extenders", "noop,ours").split(","));
    List<Round> results = new ArrayList<>();
    try (ControlPlane cp = ControlPlane.start(assets)) {
      long t0 = System.nanoTime();
      parallel(
          nodes,
          i ->
              Nodes.createReady(
                  cp.client(),
                  String.format(Locale.ROOT, "node-%05d", i),
                  "4",
                  "16Gi",
                  Map.of("topology.kubernetes.io/zone", "zone-" + (i % 3))));
      if (devices > 0) {
        Claims.deviceClass(cp.client());
        parallel(
            nodes,
            i -> Claims.publish(cp.client(), String.format(Locale.ROOT, "node-%05d", i), devices));
        System.out.printf(
            Locale.ROOT,
            "# claims mode: %d devices per node, one claim of one device per pod%n",
            devices);
      }
      System.out.printf(
          Locale.ROOT,
          "# %d nodes created in %.1f s; %d pods of %s per round, %d rounds per extender,"
              + " kube-scheduler qps %d%n",
          nodes,
          (System.nanoTime() - t0) / 1e9,
          pods,
          podCpu,
          rounds,
          qps);
      for (String extender : extenders) {
        try (Served served = serve(extender, cp, o)) {
          for (int r = 1; r <= rounds; r++) {
            java.time.Instant started = java.time.Instant.now();
            Round round = round(cp, served, extender, r, pods, podCpu, qps, devices > 0);
            System.out.printf(
                Locale.ROOT,
                "%s round %d: from %s to %s (wall clock, to match a flight recording)%n",
                extender,
                r,
                started,
                java.time.Instant.now());
            results.add(round);
            System.out.printf(
                Locale.ROOT,
                "%s round %d: %.1f pods/s, extender %.2f ms CPU/pod (%s), kube-scheduler"
                    + " %.2f ms CPU/pod%n",
                extender,
                r,
                round.podsPerSecond(),
                round.extenderCpuMs(),
                round.byGroup(),
                round.schedulerCpuMs());
          }
        }
      }
    }
    print(results);
  }

  /** An extender process under test. */
  private record Served(Process process, String urlPrefix, HttpLoadDriver driver)
      implements AutoCloseable {
    @Override
    public void close() throws InterruptedException {
      process.destroy();
      if (!process.waitFor(15, TimeUnit.SECONDS)) {
        process.destroyForcibly();
      }
    }
  }

  private static Served serve(String extender, ControlPlane cp, Map<String, String> o)
      throws Exception {
    long t0 = System.nanoTime();
    Served served;
    if (extender.equals("noop")) {
      int port = ControlPlane.freePort();
      Process p =
          new ProcessBuilder(
                  Bench.javaBin(),
                  "-Xmx256m",
                  "-cp",
                  System.getProperty("java.class.path"),
                  NoopExtender.class.getName(),
                  String.valueOf(port))
              .inheritIO()
              .start();
      served = new Served(p, "http://127.0.0.1:" + port + "/scheduler", null);
      HttpClient http = HttpClient.newHttpClient();
      URI ready = URI.create("http://127.0.0.1:" + port + "/ready");
      while (!answers(http, ready)) {
        if (!p.isAlive()) {
          throw new IllegalStateException("the no-op extender exited with " + p.exitValue());
        }
        TimeUnit.MILLISECONDS.sleep(20);
      }
    } else if (extender.equals("ours")) {
      Bench.Launched launched =
          Bench.startService(
              o,
              List.of(
                  "--extender.cluster.source=kubernetes",
                  "--extender.cluster.kubeconfig=" + cp.adminKubeconfig()));
      Bench.awaitReady(launched.driver(), launched.process());
      served =
          new Served(
              launched.process(), launched.driver().base() + "/scheduler", launched.driver());
    } else {
      throw new IllegalArgumentException("extenders: noop, ours");
    }
    System.out.printf(
        Locale.ROOT, "%s: ready in %.1f s%n", extender, (System.nanoTime() - t0) / 1e9);
    return served;
  }

  /**
   * The watch events the extender has handled since it started ({@code extender_informer_events}),
   * or NaN for an extender that does not say (the no-op one).
   */
  private static double informerEvents(Served served) {
    if (served.driver() == null) {
      return Double.NaN;
    }
    try {
      return served
          .driver()
          .get("/actuator/metrics/extender.informer.events")
          .path("measurements")
          .path(0)
          .path("value")
          .asDouble(Double.NaN);
    } catch (Exception e) {
      return Double.NaN;
    }
  }

  private static boolean answers(HttpClient http, URI uri) {
    try {
      return http.send(HttpRequest.newBuilder(uri).build(), HttpResponse.BodyHandlers.discarding())
              .statusCode()
          == 200;
    } catch (Exception e) {
      return false;
    }
  }

  private static Round round(
      ControlPlane cp,
      Served served,
      String extender,
      int round,
      int pods,
      String podCpu,
      int qps,
      boolean claims)
      throws Exception {
    KubernetesClient api = cp.client();
    String ns = "loop-" + extender + "-" + round;
    api.namespaces()
        .resource(new NamespaceBuilder().withNewMetadata().withName(ns).endMetadata().build())
        .create();
    Bench.ServiceCpu extenderCpu = new Bench.ServiceCpu(served.process().pid());
    long cpu0 = extenderCpu.nanos();
    Map<String, Long> groups0 = ThreadGroupCpu.read(served.process().pid());
    double events0 = informerEvents(served);
    parallel(
        pods,
        i -> {
          String name = String.format(Locale.ROOT, "pod-%05d", i);
          PodBuilder pod =
              new PodBuilder()
                  .withNewMetadata()
                  .withName(name)
                  .endMetadata()
                  .withNewSpec()
                  .withTerminationGracePeriodSeconds(0L)
                  .addNewContainer()
                  .withName("c")
                  .withImage("registry.k8s.io/pause:3.9")
                  .withNewResources()
                  .withRequests(Map.of("cpu", new Quantity(podCpu)))
                  .endResources()
                  .endContainer()
                  .endSpec();
          if (claims) {
            Claims.claim(api, ns, name);
            pod.editSpec()
                .addNewResourceClaim()
                .withName("gpu")
                .withResourceClaimName(name)
                .endResourceClaim()
                .endSpec();
          }
          api.pods().inNamespace(ns).resource(pod.build()).create();
        });
    Map<String, Long> boundAt = new ConcurrentHashMap<>();
    try (Watch watch =
        api.pods()
            .inNamespace(ns)
            .watch(
                new Watcher<>() {
                  @Override
                  public void eventReceived(Action action, Pod pod) {
                    if (pod.getSpec().getNodeName() != null) {
                      boundAt.putIfAbsent(pod.getMetadata().getName(), System.nanoTime());
                    }
                  }

                  @Override
                  public void onClose(WatcherException cause) {}
                })) {
      long schedulerCpu;
      try (KubeScheduler ks =
          KubeScheduler.start(
              cp, Extender.filterAndPrioritize(served.urlPrefix()), OwnPlugins.ALL, qps)) {
        Bench.ServiceCpu ksCpu = new Bench.ServiceCpu(ks.pid());
        long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(10);
        while (boundAt.size() < pods) {
          if (System.nanoTime() > deadline) {
            throw new IllegalStateException(
                boundAt.size()
                    + "/"
                    + pods
                    + " bound after 10 minutes; kube-scheduler:\n"
                    + ks.logTail(30));
          }
          TimeUnit.MILLISECONDS.sleep(20);
        }
        schedulerCpu = ksCpu.nanos();
      }
      long cpu1 = extenderCpu.nanos();
      Map<String, Long> groups1 = ThreadGroupCpu.read(served.process().pid());
      double events1 = informerEvents(served);
      long first = boundAt.values().stream().mapToLong(Long::longValue).min().orElseThrow();
      long last = boundAt.values().stream().mapToLong(Long::longValue).max().orElseThrow();
      api.pods().inNamespace(ns).withGracePeriod(0).delete();
      long gone = System.nanoTime() + TimeUnit.MINUTES.toNanos(2);
      while (!api.pods().inNamespace(ns).list().getItems().isEmpty() && System.nanoTime() < gone) {
        TimeUnit.MILLISECONDS.sleep(200);
      }
      if (claims) {
        Claims.deleteAll(api, ns);
      }
      return new Round(
          extender,
          round,
          pods,
          (pods - 1) / ((last - first) / 1e9),
          (cpu1 - cpu0) / 1e6 / pods,
          schedulerCpu / 1e6 / pods,
          ThreadGroupCpu.perUnit(groups0, groups1, pods)
              + (Double.isNaN(events0)
                  ? ""
                  : String.format(
                      Locale.ROOT, "; watch events %.2f/pod", (events1 - events0) / pods)));
    }
  }

  private static void print(List<Round> results) {
    System.out.println();
    System.out.println(
        "| extender | round | pods/s | ratio to no-op | extender CPU ms/pod | kube-scheduler CPU ms/pod |");
    System.out.println("|---|---|---|---|---|---|");
    for (Round r : results) {
      String ratio =
          results.stream()
              .filter(n -> n.extender().equals("noop") && n.round() == r.round())
              .findFirst()
              .map(n -> String.format(Locale.ROOT, "%.2f", r.podsPerSecond() / n.podsPerSecond()))
              .orElse("—");
      System.out.printf(
          Locale.ROOT,
          "| %s | %s | %.1f | %s | %.2f | %.2f |%n",
          r.extender(),
          r.round() == 1 ? "1 (cold)" : r.round() + " (warm)",
          r.podsPerSecond(),
          ratio,
          r.extenderCpuMs(),
          r.schedulerCpuMs());
    }
  }

  /**
   * Runs {@code work(0..n-1)} on 8 threads and waits for all of it, failing on the first failure.
   */
  static void parallel(int n, IntConsumer work) throws Exception {
    ExecutorService pool = Executors.newFixedThreadPool(8);
    try {
      List<Future<?>> all = new ArrayList<>();
      for (int i = 0; i < n; i++) {
        int index = i;
        all.add(pool.submit(() -> work.accept(index)));
      }
      for (Future<?> f : all) {
        f.get();
      }
    } finally {
      pool.shutdown();
    }
  }
}
