package io.schedext.realcluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.schedext.testing.ServiceJvm;
import io.schedext.testing.StallingProxy;
import io.schedext.testing.realcluster.ControlPlane;
import io.schedext.testing.realcluster.ControlPlane.AuditedRequest;
import io.schedext.testing.realcluster.ExtenderProcess;
import io.schedext.testing.realcluster.KubeScheduler;
import io.schedext.testing.realcluster.KubeScheduler.Extender;
import io.schedext.testing.realcluster.KubeScheduler.OwnPlugins;
import io.schedext.testing.realcluster.RealClusterExtension;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.Year;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.IntStream;

/**
 * One case of {@link SchedulingFaultsTest}: a scope with its nodes, the extender processes it
 * starts (as the image runs the service, each with a log of its own), a kube-scheduler calling them
 * for filter, prioritize, preempt and bind ({@code nodeCacheCapable: true}), a watch of the test's
 * own on the scope's pods, and what the case found afterwards ({@link #verify}). Closing stops
 * kube-scheduler, the watch and every extender process.
 */
final class FaultRun implements AutoCloseable {

  static final String EXTENDER_USER =
      ControlPlane.serviceAccountUser(Workloads.EXTENDER_NAMESPACE, Workloads.EXTENDER_ACCOUNT);

  /** How long any one step of a case may take on two busy CPUs. */
  static final Duration PATIENCE = Duration.ofMinutes(3);

  /**
   * The deployment's memory limit (2Gi) times the image's {@code MaxRAMPercentage} (75): the heap
   * the service gets in its container.
   */
  static final String DEPLOYMENT_HEAP = "1536m";

  /**
   * Every process runs with the image's options (and, as the image, exits on running out of heap)
   * but C1 only: these cases are about what is lost under faults, not about speed, and on two
   * shared CPUs the service is ready in a third of the time without the optimising compiler.
   */
  static final ServiceJvm JVM =
      ServiceJvm.asImage(DEPLOYMENT_HEAP)
          .withJvm(List.of("-XX:+ExitOnOutOfMemoryError", "-XX:TieredStopAtLevel=1"));

  /** The deployment's memory limit, which the process's resident set must stay under. */
  static final long DEPLOYMENT_MEMORY_LIMIT = 2L << 30;

  /** Properties every extender process of a case gets (a short warm-up, as the surefire runs). */
  static final List<String> ARGS =
      List.of(
          "--extender.scheduling.warm-up-calls=2",
          "--extender.scheduling.warm-up-small-calls=0",
          "--extender.scheduling.warm-up-compiler-wait=0");

  /**
   * kube-scheduler v1.26 puts a pod whose cycle failed with an error (the extender unreachable, or
   * not ready) among the unschedulable pods, where it waits for a cluster event or five minutes,
   * unless something moved pods during that cycle: after an outage with no pod bound, nothing did
   * (seen on v1.26.5 in this class's runs, not on v1.34.9). This flag (deprecated, still in v1.26)
   * shortens the five minutes, as docs/troubleshooting.md recommends there; pods are flushed every
   * 30 s.
   */
  static final String PARKED_PODS_FLAG = "--pod-max-in-unschedulable-pods-duration=10s";

  /**
   * kube-scheduler's error for a pod, quoted, or on lines of its own between {@code <} and {@code
   * >}.
   */
  private static final Pattern SCHEDULER_ERROR =
      Pattern.compile(
          "\"Error scheduling pod; retrying\" err=(?:\"((?:[^\"\\\\]|\\\\.)*)\"|<\\s*(.*?)\\s*>)");

  final ControlPlane cp;
  final Workloads w;
  final List<String> nodes;
  final List<ExtenderProcess> extenders = new ArrayList<>();
  final Instant started = Instant.now();
  BoundPods bound;
  KubeScheduler ks;

  private FaultRun(ControlPlane cp, Workloads w, List<String> nodes) {
    this.cp = cp;
    this.w = w;
    this.nodes = nodes;
  }

  /**
   * A case named {@code name} on the control plane of the run: a scope of its own and {@code nodes}
   * nodes of {@code cpu} each; {@code extenders} extender processes are started meanwhile (named
   * after the scope, {@code -a}, {@code -b}, ...) with {@code args} and awaited ready with every
   * node in their cache.
   */
  static FaultRun start(String name, int nodes, String cpu, int extenders, List<String> args) {
    ControlPlane cp = RealClusterExtension.get();
    Path kubeconfig = Workloads.installExtenderIdentity(cp);
    return start(cp, name, nodes, cpu, extenders, kubeconfig, args);
  }

  /** The same, the extenders reaching the API server with {@code kubeconfig}. */
  static FaultRun start(
      ControlPlane cp,
      String name,
      int nodes,
      String cpu,
      int extenders,
      Path kubeconfig,
      List<String> args) {
    Workloads w = Workloads.scope(cp.client(), name);
    List<ExtenderProcess> started = new ArrayList<>();
    try {
      // The processes start while the nodes are created.
      for (int i = 0; i < extenders; i++) {
        started.add(extender(cp, w.id() + "-" + (char) ('a' + i), kubeconfig, args));
      }
      FaultRun run = new FaultRun(cp, w, w.nodes("n", nodes, cpu));
      run.extenders.addAll(started);
      started.forEach(run::awaitInStep);
      return run;
    } catch (RuntimeException | Error e) {
      started.forEach(ExtenderProcess::close);
      throw e;
    }
  }

  /**
   * The extender's identity installed ({@link Workloads#installExtenderIdentity}) and a kubeconfig
   * of it reaching the API server through {@code proxy}.
   */
  static Path kubeconfigThrough(ControlPlane cp, StallingProxy proxy) {
    Workloads.installExtenderIdentity(cp);
    return cp.serviceAccountKubeconfig(
        Workloads.EXTENDER_NAMESPACE,
        Workloads.EXTENDER_ACCOUNT,
        "https://127.0.0.1:" + proxy.port());
  }

  /** Starts one more extender process, not awaited. */
  static ExtenderProcess extender(
      ControlPlane cp, String name, Path kubeconfig, List<String> args) {
    List<String> all = new ArrayList<>(ARGS);
    all.addAll(args);
    return ExtenderProcess.start(cp, name, kubeconfig, JVM, all);
  }

  /** Waits until {@code e} is ready and its cache equals the API. */
  void awaitInStep(ExtenderProcess e) {
    e.awaitReady(PATIENCE);
    // A look that times out on two busy CPUs is only a look: the next one counts.
    await()
        .atMost(PATIENCE)
        .pollInterval(Duration.ofMillis(250))
        .ignoreExceptions()
        .untilAsserted(
            () -> {
              JsonNode compare = e.compare();
              assertThat(compare.path("equal").asBoolean()).as("%s: %s", e, compare).isTrue();
            });
  }

  /**
   * Starts kube-scheduler calling {@code urlPrefix} for every verb, with {@code own} of its own
   * plugins, and the test's watch on the scope's pods.
   */
  void schedule(String urlPrefix, OwnPlugins own) {
    bound = new BoundPods(cp.client(), w.id());
    ks =
        KubeScheduler.start(
            cp,
            new Extender(urlPrefix, true, true, true, true, true),
            own,
            200,
            cp.assets().minor() < 28 ? List.of(PARKED_PODS_FLAG) : List.of());
  }

  /**
   * {@code fit} pods of {@code cpu} ({@code p-0001}, ...) and {@code unfit} pods of {@code bigCpu}
   * ({@code big-1}, ...), not created yet.
   */
  List<PodBuilder> pods(int fit, String cpu, int unfit, String bigCpu) {
    List<PodBuilder> pods = new ArrayList<>();
    IntStream.rangeClosed(1, fit)
        .forEach(i -> pods.add(w.pod(String.format(Locale.ROOT, "p-%04d", i), cpu)));
    IntStream.rangeClosed(1, unfit).forEach(i -> pods.add(w.pod("big-" + i, bigCpu)));
    return pods;
  }

  /** Waits until at least {@code n} of the scope's pods are bound. */
  void awaitBound(int n) {
    await().atMost(PATIENCE).pollInterval(Duration.ofMillis(50)).until(() -> bound.count() >= n);
  }

  /**
   * How long from {@code from} until {@code e} was ready with a cache equal to the API (polled
   * every 250 ms).
   */
  Duration inStepAfter(ExtenderProcess e, Instant from) {
    awaitInStep(e);
    return Duration.between(from, Instant.now());
  }

  /**
   * The checks after every case: {@code fitting} pods bound, each by exactly one Binding answered
   * 201, none of the {@code unfit} ones; no node over its allocatable CPU; every live extender's
   * cache equal to the API; no stack trace in any extender's log. Returns the ledger.
   */
  Ledger verify(int fitting, int unfit) {
    await()
        .atMost(PATIENCE)
        .pollInterval(Duration.ofMillis(200))
        .until(() -> bound.count() >= fitting);
    for (ExtenderProcess e : extenders) {
      if (e.isAlive()) {
        awaitInStep(e);
      }
    }
    Ledger ledger = Ledger.read(cp, w, EXTENDER_USER);
    assertThat(ledger.boundTwice()).as("pods bound by two Bindings").isEmpty();
    assertThat(ledger.boundWithoutBinding())
        .as("pods bound without the extender's Binding")
        .isEmpty();
    assertThat(ledger.overCommitted()).as("nodes over their allocatable CPU").isEmpty();
    assertThat(ledger.bound()).as("pods bound").isEqualTo(fitting);
    assertThat(ledger.pending()).as("pods that fit nowhere, pending").isEqualTo(unfit);
    for (ExtenderProcess e : extenders) {
      assertThat(stackTraces(e.log())).as("stack traces in the log of %s", e).isEmpty();
    }
    return ledger;
  }

  /** The lines of {@code log} that belong to a stack trace. */
  static List<String> stackTraces(String log) {
    return log.lines()
        .filter(l -> l.startsWith("\tat ") || l.startsWith("Caused by: "))
        .limit(20)
        .toList();
  }

  /**
   * kube-scheduler's log so far, one entry per message: klog writes a value with a line break on
   * lines of its own (after {@code err=<}, each starting with a tab, closed by {@code " >"}),
   * joined here to their message.
   */
  List<String> schedulerLog() {
    List<String> out = new ArrayList<>();
    for (String line : ks.log().lines().toList()) {
      if ((line.startsWith("\t") || line.startsWith(" >")) && !out.isEmpty()) {
        out.set(out.size() - 1, out.get(out.size() - 1) + " " + line.strip());
      } else {
        out.add(line);
      }
    }
    return out;
  }

  /** kube-scheduler's "Error scheduling pod; retrying" errors so far, counted by kind. */
  Map<String, Integer> schedulerErrors() {
    Map<String, Integer> out = new LinkedHashMap<>();
    for (String entry : schedulerLog()) {
      Matcher m = SCHEDULER_ERROR.matcher(entry);
      if (m.find()) {
        out.merge(errorKind(m.group(1) != null ? m.group(1) : m.group(2)), 1, Integer::sum);
      }
    }
    return out;
  }

  /**
   * The pods whose bind call failed on the way (no answer from the extender), from kube-scheduler's
   * log.
   */
  List<String> bindsWithoutAnswer() {
    List<String> out = new ArrayList<>();
    for (String entry : schedulerLog()) {
      if (entry.contains("\"Error scheduling pod; retrying\" err=\"Post \\\"")
          && entry.contains("/bind\\\": ")) {
        String pod = podOf(entry);
        out.add(pod.substring(pod.indexOf('/') + 1));
      }
    }
    return out;
  }

  /**
   * kube-scheduler's bind calls from {@code from} on, from its log: answered bound ("Successfully
   * bound pod to node"), answered with an error (the extender's {@code Error}), or without an
   * answer (the call itself failed: {@code Post ".../bind": EOF}, connection refused).
   *
   * @param bound answered bound
   * @param refused answered with an error
   * @param unanswered failed on the way
   */
  record BindCalls(int bound, int refused, int unanswered) {

    /** The figures, for the case's line. */
    String summary() {
      return String.format(
          Locale.ROOT,
          "kube-scheduler's bind calls: %d answered bound, %d answered with an error, %d without"
              + " answer",
          bound,
          refused,
          unanswered);
    }
  }

  /** kube-scheduler's bind calls logged at or after {@code from}. */
  BindCalls bindCalls(Instant from) {
    int bound = 0;
    int refused = 0;
    int unanswered = 0;
    // Binding goroutines run in parallel: a pod's "Failed to bind" and its error need not be
    // adjacent lines.
    Map<String, Integer> failed = new HashMap<>();
    for (String line : schedulerLog()) {
      if (line.contains("\"Successfully bound pod to node\"")) {
        bound += loggedAt(line).isBefore(from) ? 0 : 1;
      } else if (line.contains("\"Failed to bind pod\"")) {
        if (!loggedAt(line).isBefore(from)) {
          failed.merge(podOf(line), 1, Integer::sum);
        }
      } else if (line.contains("\"Error scheduling pod; retrying\"")) {
        String pod = podOf(line);
        Integer n = failed.get(pod);
        if (n != null) {
          if (n == 1) {
            failed.remove(pod);
          } else {
            failed.put(pod, n - 1);
          }
          if (line.contains("err=\"Post \\\"")) {
            unanswered++;
          } else {
            refused++;
          }
        }
      }
    }
    return new BindCalls(bound, refused, unanswered);
  }

  /** The pod a kube-scheduler log line is about: its last {@code pod="ns/name"}. */
  private static String podOf(String line) {
    int at = line.lastIndexOf(" pod=\"");
    return at < 0 ? "" : line.substring(at + 6, line.indexOf('"', at + 6));
  }

  /** When kube-scheduler logged {@code line} ({@code I1128 10:20:43.852165 ...}, local time). */
  private static Instant loggedAt(String line) {
    LocalDateTime t =
        LocalDateTime.of(
            Year.now().getValue(),
            Integer.parseInt(line.substring(1, 3)),
            Integer.parseInt(line.substring(3, 5)),
            Integer.parseInt(line.substring(6, 8)),
            Integer.parseInt(line.substring(9, 11)),
            Integer.parseInt(line.substring(12, 14)),
            Integer.parseInt(line.substring(15, 21)) * 1000);
    return t.atZone(ZoneId.systemDefault()).toInstant();
  }

  /**
   * The extender's metrics account for the bind calls kube-scheduler logged since {@code from}
   * (when {@code e} started): each answered bound counted {@code
   * extender_bind_total{result="bound"}}, each answered with an error counted failed, unknown or
   * refused, or among the calls answered while not ready. Returns the calls.
   */
  BindCalls assertBindsAccounted(ExtenderProcess e, Instant from) {
    BindCalls calls = bindCalls(from);
    double bound = e.metric("extender_bind_total", "result=\"bound\"");
    double refused =
        e.metric("extender_bind_total", "result=\"failed\"")
            + e.metric("extender_bind_total", "result=\"unknown\"")
            + e.metric("extender_bind_total", "result=\"refused\"")
            + e.metric(
                "extender_request_duration_seconds_count",
                "verb=\"bind\"",
                "outcome=\"unavailable\"");
    assertThat(bound).as("%s: binds answered bound, by its metrics", e).isEqualTo(calls.bound());
    assertThat(refused)
        .as("%s: binds answered with an error, by its metrics", e)
        .isEqualTo(calls.refused());
    return calls;
  }

  /** The Bindings the extender posted for the scope's pods so far, from the audit log. */
  List<AuditedRequest> bindings() {
    return cp.audited(EXTENDER_USER).stream()
        .filter(
            r ->
                r.verb().equals("create")
                    && r.subresource().equals("binding")
                    && r.uri().contains("/namespaces/" + w.id() + "/"))
        .toList();
  }

  /** A short name for the kind of one of kube-scheduler's errors. */
  static String errorKind(String err) {
    String verb =
        err.contains("/filter")
            ? "filter"
            : err.contains("/prioritize")
                ? "prioritize"
                : err.contains("/preempt") ? "preempt" : err.contains("/bind") ? "bind" : "";
    Matcher code = Pattern.compile("code (\\d+)").matcher(err);
    if (err.startsWith("failed ") && code.find()) {
      return verb + ": HTTP " + code.group(1);
    }
    if (err.contains("connection refused")) {
      return verb + ": connection refused";
    }
    if (err.contains("EOF") || err.contains("connection reset")) {
      return verb + ": connection lost";
    }
    if (err.contains("Client.Timeout") || err.contains("deadline exceeded")) {
      return verb + ": timeout";
    }
    if (err.contains("cluster state is not ready")) {
      return "not ready";
    }
    if (err.contains("bind workers")) {
      return "bind refused: workers busy";
    }
    if (err.contains("does not fit node")) {
      return "bind: no longer fits";
    }
    if (err.contains("outcome is unknown")) {
      return "bind: outcome unknown";
    }
    if (err.contains("stays assumed")) {
      return "bind: in doubt elsewhere";
    }
    if (err.contains("already bound")) {
      return "bind: already bound";
    }
    Matcher refused = Pattern.compile("failed: HTTP (\\d+)").matcher(err);
    if (refused.find()) {
      return "bind: Binding answered " + refused.group(1);
    }
    if (err.contains("not found by the API server") || err.contains("deleted and re-created")) {
      return "bind: pod deleted";
    }
    if (err.contains("not known to the extender")) {
      return "bind: pod unknown";
    }
    if (err.contains("cannot be reached")) {
      return "bind: API unreachable";
    }
    return err.length() > 80 ? err.substring(0, 80) : err;
  }

  /**
   * When the last pod was seen bound, against {@code t}: "all bound N s after it", or "all bound
   * before it" when the run was over by then.
   */
  String allBound(Instant t) {
    Instant last = bound.last().orElse(t);
    return last.isBefore(t)
        ? "all bound before it"
        : "all bound " + Duration.between(t, last).toSeconds() + " s after it";
  }

  /** Prints one line of the case's figures, for docs/troubleshooting.md. */
  void report(String what, Ledger ledger, String details) {
    System.out.printf(
        Locale.ROOT,
        "scheduling fault [%s] %s: %s; %s; kube-scheduler errors %s; case took %d s%n",
        cp.assets().version(),
        what,
        ledger.summary(),
        details,
        schedulerErrors(),
        Duration.between(started, Instant.now()).toSeconds());
  }

  /**
   * Stops kube-scheduler, the watch and the extender processes, and deletes the scope's pods and
   * nodes.
   */
  @Override
  public void close() {
    if (ks != null) {
      ks.close();
    }
    if (bound != null) {
      bound.close();
    }
    extenders.forEach(ExtenderProcess::close);
    w.clear();
  }
}
