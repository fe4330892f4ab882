package io.schedext.realcluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.schedext.testing.StallingProxy;
import io.schedext.testing.TcpBalancer;
import io.schedext.testing.realcluster.ControlPlane;
import io.schedext.testing.realcluster.ControlPlane.AuditedRequest;
import io.schedext.testing.realcluster.ExtenderProcess;
import io.schedext.testing.realcluster.KubeScheduler.OwnPlugins;
import io.schedext.testing.realcluster.RealCluster;
import io.schedext.testing.realcluster.RealClusterExtension;
import io.schedext.testing.realcluster.RealClusterTest;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Faults in the middle of work: a real kube-scheduler binds a few hundred pods through the extender
 * (filter, prioritize, preempt and bind, {@code nodeCacheCapable: true}) onto nodes that a
 * double-booking would over-commit, and one fault is injected per case while the run is under way:
 * the extender killed, the API server restarted over a compacted etcd, the extender's path to the
 * API server stalled, a flood of pods created and deleted, two extender instances rolled. After
 * each case every pod that fits is bound by exactly one Binding, no node holds more than it can,
 * and the extender's cache equals the API without a hand on it ({@link FaultRun#verify}).
 *
 * <p>The extender runs as processes of its own ({@link ExtenderProcess}), so that it can be killed
 * and rolled. Unless a case says otherwise kube-scheduler's own resource filter and scorers are
 * off: only the extender keeps a node from being over-committed. Each case prints a line of its
 * figures ({@code scheduling fault [...]}), which docs/troubleshooting.md quotes. The class takes
 * four to six minutes per Kubernetes version on two shared CPUs, the flood one to two of them.
 */
@RealCluster
class SchedulingFaultsTest {

  /**
   * The first try as a new user: 20 nodes of 2 CPU, 40 pods of 1 CPU that fill them exactly
   * and 5 that fit nowhere. The extender is killed after 10 binds and started again, then
   * kube-apiserver is restarted: nothing is lost.
   */
  @RealClusterTest
  void aNewUsersRunLosesNothingWhenTheExtenderIsKilledOrTheApiServerRestarts() {
    try (FaultRun run = FaultRun.start("first-try", 20, "2", 1, List.of())) {
      ExtenderProcess ext = run.extenders.get(0);
      run.schedule(ext.urlPrefix(), OwnPlugins.EXTENDER_DECIDES);
      run.w.createAll(run.pods(40, "1", 5, "3"));

      run.awaitBound(10);
      int boundAtKill = run.bound.count();
      Instant killed = Instant.now();
      ext.kill();
      ext.restart();
      Duration back = run.inStepAfter(ext, killed);

      run.awaitBound(25);
      int boundAtStop = run.bound.count();
      Instant stopped = Instant.now();
      run.cp.stopApiServer(Duration.ofSeconds(5));
      run.cp.startApiServer();
      Instant apiUp = Instant.now();
      Duration apiBack = run.inStepAfter(ext, apiUp);

      Ledger ledger = run.verify(40, 5);
      // The killed process answered nothing after it died, the new one nothing in its first second.
      FaultRun.BindCalls calls = run.assertBindsAccounted(ext, killed.plusSeconds(1));
      run.report(
          "first try: 20 nodes of 2 CPU, 40+5 pods",
          ledger,
          String.format(
              Locale.ROOT,
              "killed at %d bound, in step %d s later; API server restarted at %d bound (away %d"
                  + " s), in step %d s later, %s; after the restart"
                  + " %s",
              boundAtKill,
              back.toSeconds(),
              boundAtStop,
              Duration.between(stopped, apiUp).toSeconds(),
              apiBack.toSeconds(),
              run.allBound(apiUp),
              calls.summary()));
    }
  }

  /**
   * The extender is killed (SIGKILL) while binds are in flight, and started again at once, as
   * kubelet restarts a container. kube-scheduler meanwhile fails each scheduling cycle that calls
   * it (the extender is not ignorable) and puts the pod back in its queue; a bind call cut off has
   * no answer, so kube-scheduler retries that pod too. Each such pod ends up bound once: either its
   * Binding had landed (the retry finds it bound), or the retry binds it. So that binds are surely
   * in flight at the kill, the API server's answers to the extender reach it 250 ms late from just
   * before (a proxy in between): each Binding has landed a while before its answer arrives.
   */
  @RealClusterTest
  void anExtenderKilledWithBindsInFlightBindsEveryPodOnce() {
    ControlPlane cp = RealClusterExtension.get();
    try (StallingProxy proxy = new StallingProxy(new InetSocketAddress("127.0.0.1", cp.port()))) {
      Path kubeconfig = FaultRun.kubeconfigThrough(cp, proxy);
      try (FaultRun run = FaultRun.start(cp, "killed", 50, "4", 1, kubeconfig, List.of())) {
        ExtenderProcess ext = run.extenders.get(0);
        run.schedule(ext.urlPrefix(), OwnPlugins.EXTENDER_DECIDES);
        run.w.createAll(run.pods(200, "1", 5, "5"));

        run.awaitBound(70);
        proxy.delayFromServer(Duration.ofMillis(250));
        await()
            .atMost(FaultRun.PATIENCE)
            .pollInterval(Duration.ofMillis(20))
            .ignoreExceptions()
            .until(() -> ext.meter("extender.bind.busy.workers") > 0);
        int boundAtKill = run.bound.count();
        Instant killed = Instant.now();
        ext.kill();
        proxy.delayFromServer(Duration.ZERO);
        ext.restart();
        Duration back = run.inStepAfter(ext, killed);

        Ledger ledger = run.verify(200, 5);
        FaultRun.BindCalls calls = run.assertBindsAccounted(ext, killed.plusSeconds(1));
        List<String> cut = run.bindsWithoutAnswer();
        assertThat(cut).as("binds cut off by the kill").isNotEmpty();
        List<AuditedRequest> bindings = run.bindings();
        long landedBefore =
            cut.stream()
                .filter(
                    p ->
                        bindings.stream()
                            .anyMatch(
                                b ->
                                    b.code() == 201
                                        && b.uri().contains("/pods/" + p + "/")
                                        && b.received().isBefore(killed)))
                .count();
        run.report(
            "extender killed: 50 nodes of 4 CPU, 200+5 pods of 1 CPU (5 of 5 CPU)",
            ledger,
            String.format(
                Locale.ROOT,
                "killed at %d bound with binds in flight: %d bind calls cut off (%d had landed, %d"
                    + " bound by a retry); in step %d s after the kill, %s;"
                    + " after the restart %s",
                boundAtKill,
                cut.size(),
                landedBefore,
                cut.size() - landedBefore,
                back.toSeconds(),
                run.allBound(killed),
                calls.summary()));
      }
    }
  }

  /**
   * kube-apiserver is stopped while binds are in flight, etcd's history is compacted while it is
   * away, and it is started again: every watch resumes from a revision the API server no longer has
   * (410 Gone) and must list again. The extender's binds meanwhile fail (nothing is bound) or have
   * an unknown outcome (the pod stays assumed); its cache ends equal to the API.
   */
  @RealClusterTest
  void anApiServerRestartOverACompactedHistoryLosesNothing() {
    try (FaultRun run = FaultRun.start("apiserver", 50, "4", 1, List.of())) {
      ExtenderProcess ext = run.extenders.get(0);
      run.schedule(ext.urlPrefix(), OwnPlugins.EXTENDER_DECIDES);
      run.w.createAll(run.pods(200, "1", 5, "5"));

      run.awaitBound(70);
      int boundAtStop = run.bound.count();
      Instant stopped = Instant.now();
      run.cp.stopApiServer(Duration.ofSeconds(5));
      long revision = run.cp.compactEtcd();
      run.cp.startApiServer();
      Instant restarted = Instant.now();
      Duration back = run.inStepAfter(ext, restarted);

      Ledger ledger = run.verify(200, 5);
      FaultRun.BindCalls calls = run.assertBindsAccounted(ext, run.started);
      assertThat(ext.metric("extender_informer_errors"))
          .as("the watches' outage, counted")
          .isGreaterThan(0);
      List<AuditedRequest> relists =
          run.cp.audited(FaultRun.EXTENDER_USER).stream()
              .filter(r -> r.verb().equals("list") && r.received().isAfter(stopped))
              .toList();
      assertThat(relists)
          .as("the extender's lists after the restart (its watches were answered 410)")
          .extracting(AuditedRequest::resource)
          .contains("pods", "nodes");
      run.report(
          "API server restarted over a compacted etcd: 50 nodes of 4 CPU, 200+5 pods",
          ledger,
          String.format(
              Locale.ROOT,
              "stopped at %d bound, away %d s, etcd compacted at revision %d; %d lists after;"
                  + " in step %d s after the API server was back,"
                  + " %s; %s",
              boundAtStop,
              Duration.between(stopped, restarted).toSeconds(),
              revision,
              relists.size(),
              back.toSeconds(),
              run.allBound(restarted),
              calls.summary()));
    }
  }

  /**
   * The extender's connection to the API server stalls (every byte held, both ways) for longer than
   * {@code extender.cluster.sync-grace}, while kube-scheduler's stays fine; then it is restored.
   * Readiness goes DOWN, kube-scheduler's calls are answered with the cluster state not ready
   * (filter's Error, prioritize's 503) so it retries instead of scheduling on stale data;
   * afterwards the cache equals the API and scheduling resumes by itself.
   */
  @RealClusterTest
  void aStalledPathToTheApiServerTurnsReadinessDownAndSchedulingResumes() {
    ControlPlane cp = RealClusterExtension.get();
    try (StallingProxy proxy = new StallingProxy(new InetSocketAddress("127.0.0.1", cp.port()))) {
      Path kubeconfig = FaultRun.kubeconfigThrough(cp, proxy);
      try (FaultRun run =
          FaultRun.start(
              cp, "stalled", 50, "4", 1, kubeconfig, List.of("--extender.cluster.sync-grace=5s"))) {
        ExtenderProcess ext = run.extenders.get(0);
        run.schedule(ext.urlPrefix(), OwnPlugins.EXTENDER_DECIDES);
        run.w.createAll(run.pods(200, "1", 5, "5"));

        run.awaitBound(70);
        int boundAtStall = run.bound.count();
        Instant stalled = Instant.now();
        proxy.stall();
        Duration down;
        try {
          await().atMost(Duration.ofSeconds(30)).until(() -> !ext.ready());
          down = Duration.between(stalled, Instant.now());
          // It stays DOWN while the stall lasts, and kube-scheduler meets the not-ready answers.
          await()
              .during(Duration.ofSeconds(3))
              .atMost(Duration.ofSeconds(30))
              .until(() -> !ext.ready());
          await()
              .atMost(Duration.ofSeconds(30))
              .until(() -> run.schedulerErrors().containsKey("not ready"));
        } finally {
          proxy.resume();
        }
        Instant resumed = Instant.now();
        Duration back = run.inStepAfter(ext, resumed);

        Ledger ledger = run.verify(200, 5);
        FaultRun.BindCalls calls = run.assertBindsAccounted(ext, run.started);
        assertThat(
                ext.metric(
                    "extender_request_duration_seconds_count",
                    "verb=\"filter\"",
                    "outcome=\"unavailable\""))
            .as("filter calls answered not ready, counted")
            .isGreaterThan(0);
        run.report(
            "extender's path to the API server stalled: 50 nodes of 4 CPU, 200+5 pods,"
                + " sync-grace 5s",
            ledger,
            String.format(
                Locale.ROOT,
                "stalled at %d bound for %d s; readiness DOWN %d s into it; in step %d s after"
                    + " the restore, %s; %s",
                boundAtStall,
                Duration.between(stalled, resumed).toSeconds(),
                down.toSeconds(),
                back.toSeconds(),
                run.allBound(resumed),
                calls.summary()));
      }
    }
  }

  /**
   * A flood, at the size: 5,000 pods created at once on 1,000 nodes, and 2,000 of them
   * deleted while the rest are scheduled. The extender runs with the heap its container limit gives
   * it, which it must never outgrow, and its cache ends equal to the API. On two shared CPUs the
   * case takes about a minute.
   */
  @RealClusterTest
  void aFloodOfPodsKeepsTheHeapWithinItsLimitAndTheCacheInStep() {
    int nodes = 1000;
    int pods = 5000;
    int deleted = 2000;
    try (FaultRun run = FaultRun.start("flood", nodes, "4", 1, List.of())) {
      ExtenderProcess ext = run.extenders.get(0);
      AtomicLong heapPeak = new AtomicLong();
      AtomicLong rssPeak = new AtomicLong();
      ScheduledExecutorService sampler = Executors.newSingleThreadScheduledExecutor();
      sampler.scheduleWithFixedDelay(
          () -> {
            try {
              heapPeak.accumulateAndGet(
                  (long)
                      ext.get("/actuator/metrics/jvm.memory.used?tag=area:heap")
                          .path("measurements")
                          .path(0)
                          .path("value")
                          .asDouble(),
                  Math::max);
              rssPeak.accumulateAndGet(ext.rssBytes(), Math::max);
            } catch (RuntimeException e) {
              // A sample missed under load; the next one counts.
            }
          },
          0,
          500,
          TimeUnit.MILLISECONDS);
      try {
        run.schedule(ext.urlPrefix(), OwnPlugins.EXTENDER_DECIDES);
        List<PodBuilder> all = run.pods(pods, "1", 0, "1");
        Instant created0 = Instant.now();
        run.w.createAll(all);
        Duration creating = Duration.between(created0, Instant.now());
        List<String> names =
            new ArrayList<>(all.stream().map(p -> p.buildMetadata().getName()).toList());
        Collections.shuffle(names, new Random(42));
        List<String> doomed = names.subList(0, deleted);
        int boundAtDelete = run.bound.count();
        run.w.deleteAll(doomed);

        Ledger ledger = run.verify(pods - deleted, 0);
        FaultRun.BindCalls calls = run.assertBindsAccounted(ext, run.started);
        assertThat(ext.isAlive())
            .as("the extender is still running (it exits on running out of heap)")
            .isTrue();
        assertThat(rssPeak.get())
            .as("resident set, against the container's limit")
            .isLessThan(FaultRun.DEPLOYMENT_MEMORY_LIMIT);
        run.report(
            String.format(
                Locale.ROOT,
                "flood: %d pods created at once on %d nodes of 4 CPU, %d deleted",
                pods,
                nodes,
                deleted),
            ledger,
            String.format(
                Locale.ROOT,
                "created in %d s, deletion started at %d bound; heap peak %d MiB of %s, RSS peak"
                    + " %d MiB; %s",
                creating.toSeconds(),
                boundAtDelete,
                heapPeak.get() >> 20,
                FaultRun.DEPLOYMENT_HEAP,
                rssPeak.get() >> 20,
                calls.summary()));
      } finally {
        sampler.shutdownNow();
      }
    }
  }

  /**
   * The standalone layout's rolling update: two instances behind one address (a balancer of
   * connections, as a Service's virtual IP, whose endpoints follow each instance's readiness:
   * {@link Endpoints}), each replaced in turn by a new one: the new one ready and in service before
   * the old one gets SIGTERM, as {@code maxUnavailable: 0} and {@code maxSurge: 1} do, while pods
   * keep arriving, ten a second. No call of kube-scheduler fails while an instance drains, and no
   * pod is bound twice. kube-scheduler keeps its own default plugins here, as the layout's
   * kube-scheduler does.
   */
  @RealClusterTest
  void aRollingUpdateOfTwoInstancesFailsNoCallAndBindsNoPodTwice() throws InterruptedException {
    try (FaultRun run = FaultRun.start("rolling", 50, "8", 2, List.of());
        TcpBalancer service = new TcpBalancer(List.of());
        Endpoints endpoints = new Endpoints(service, run.extenders)) {
      ExtenderProcess a = run.extenders.get(0);
      ExtenderProcess b = run.extenders.get(1);
      run.schedule("http://127.0.0.1:" + service.port() + "/scheduler", OwnPlugins.ALL);
      run.w.createAll(run.pods(0, "1", 5, "9"));
      // Pods keep arriving through the whole roll, ten a second, up to what the nodes hold.
      int capacity = 50 * 8;
      AtomicInteger created = new AtomicInteger();
      ScheduledExecutorService feeder = Executors.newSingleThreadScheduledExecutor();
      feeder.scheduleAtFixedRate(
          () -> {
            if (created.get() < capacity) {
              try {
                run.w.create(
                    run.w.pod(String.format(Locale.ROOT, "p-%04d", created.get() + 1), "1"));
                created.incrementAndGet();
              } catch (KubernetesClientException e) {
                // Created although the answer was lost: the next tick goes on with the next pod.
                if (e.getCode() == 409) {
                  created.incrementAndGet();
                }
              }
            }
          },
          0,
          100,
          TimeUnit.MILLISECONDS);
      Path kubeconfig = Workloads.installExtenderIdentity(run.cp);
      List<String> steps = new ArrayList<>();
      try {
        // Both new instances start at once, to spare the suite a start: a rollout starts the second
        // when the first is ready; each old one still goes only once its successor is in service.
        ExtenderProcess c = FaultRun.extender(run.cp, run.w.id() + "-c", kubeconfig, List.of());
        ExtenderProcess d = FaultRun.extender(run.cp, run.w.id() + "-d", kubeconfig, List.of());
        run.extenders.add(c);
        run.extenders.add(d);
        run.awaitBound(20);
        for (ExtenderProcess old : List.of(a, b)) {
          ExtenderProcess fresh = old == a ? c : d;
          run.awaitInStep(fresh);
          endpoints.add(fresh);
          int boundBefore = run.bound.count();
          Instant drain = Instant.now();
          endpoints.terminate(old);
          old.stop(Duration.ofSeconds(60));
          steps.add(
              String.format(
                  Locale.ROOT,
                  "%s stopped %d ms after SIGTERM at %d bound (%d pods created), %s",
                  old.name(),
                  Duration.between(drain, Instant.now()).toMillis(),
                  boundBefore,
                  created.get(),
                  drained(old)));
        }
        // Some pods are scheduled through the new instances alone.
        int after = run.bound.count();
        run.awaitBound(Math.min(after + 20, capacity));
      } finally {
        feeder.shutdown();
      }
      assertThat(feeder.awaitTermination(30, TimeUnit.SECONDS)).isTrue();
      int fitting =
          (int)
              run.w.pods().stream().filter(p -> p.getMetadata().getName().startsWith("p-")).count();
      Ledger ledger = run.verify(fitting, 5);
      List<String> connections = new ArrayList<>();
      for (ExtenderProcess e : run.extenders) {
        connections.add(e.name() + " " + service.accepted(e.port()));
      }
      run.report(
          "rolling update of two instances: 50 nodes of 8 CPU, " + fitting + "+5 pods",
          ledger,
          String.format(
              Locale.ROOT,
              "%s; connections per instance %s, refused %d",
              String.join(", ", steps),
              connections,
              service.dropped()));
      assertThat(run.schedulerErrors()).as("kube-scheduler's calls that failed").isEmpty();
      assertThat(service.dropped()).as("connections refused by the balancer").isZero();
    }
  }

  /** What the stopped instance {@code e}'s log says it drained: its {@code Drained: ...} line. */
  private static String drained(ExtenderProcess e) {
    return e.log()
        .lines()
        .filter(l -> l.contains("Drained: "))
        .map(l -> l.substring(l.indexOf("Drained: ")))
        .findFirst()
        .orElse("no call to drain");
  }

  /**
   * A Service's endpoints over the instances of the rolling update, as the EndpointSlice controller
   * and kube-proxy keep them: every 500 ms each instance's readiness is asked; one that failed
   * three looks in a row (the layout's readinessProbe has {@code failureThreshold: 3}) is taken out
   * of the balancer and put back once it answers ready again; one that is terminating is taken out
   * at once, for good, as a terminating pod's endpoint is. The lag before kube-proxy learns of that
   * is left out: a replica that had no call for a second ({@code extender.http.drain-quiet}) stops
   * at once, and a new connection sent to it within the lag would be refused, which only a pause
   * before SIGTERM (a preStop hook) would cover.
   */
  private static final class Endpoints implements AutoCloseable {

    private final TcpBalancer service;
    private final Map<ExtenderProcess, Integer> failures = new ConcurrentHashMap<>();
    private final Set<ExtenderProcess> terminating = ConcurrentHashMap.newKeySet();
    private final ScheduledExecutorService looks = Executors.newSingleThreadScheduledExecutor();

    /** Puts {@code ready} in service, and starts looking. */
    Endpoints(TcpBalancer service, List<ExtenderProcess> ready) {
      this.service = service;
      ready.forEach(this::add);
      looks.scheduleWithFixedDelay(this::look, 500, 500, TimeUnit.MILLISECONDS);
    }

    /** Puts {@code e}, which is ready, in service, and follows its readiness from now on. */
    void add(ExtenderProcess e) {
      failures.put(e, 0);
      service.add(e.port());
    }

    /** Marks {@code e} terminating: out of service now, for good. */
    synchronized void terminate(ExtenderProcess e) {
      terminating.add(e);
      service.remove(e.port());
    }

    private void look() {
      for (ExtenderProcess e : failures.keySet()) {
        if (terminating.contains(e)) {
          service.remove(e.port());
          failures.remove(e);
        } else if (e.ready()) {
          failures.put(e, 0);
          putBack(e);
        } else if (failures.merge(e, 1, Integer::sum) >= 3) {
          service.remove(e.port());
        }
      }
    }

    /** Puts {@code e} back in service, unless it was marked terminating meanwhile. */
    private synchronized void putBack(ExtenderProcess e) {
      if (!terminating.contains(e)) {
        service.add(e.port());
      }
    }

    @Override
    public void close() {
      looks.shutdownNow();
    }
  }
}
