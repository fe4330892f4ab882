package io.schedext.testing.realcluster;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A real kube-scheduler against a {@link ControlPlane}, configured with one extender. It runs with
 * leader election off and no serving port, as the only scheduler of the cluster.
 */
public final class KubeScheduler implements AutoCloseable {

  private static final AtomicInteger SEQUENCE = new AtomicInteger();

  private final Daemon daemon;
  private final Path config;

  private KubeScheduler(Daemon daemon, Path config) {
    this.daemon = daemon;
    this.config = config;
  }

  /**
   * The extender entry of the configuration, as kube-scheduler's {@code extenders:} item.
   *
   * @param urlPrefix e.g. {@code http://127.0.0.1:8888/scheduler}
   * @param filter whether filterVerb is set
   * @param prioritize whether prioritizeVerb is set (weight 1)
   * @param preempt whether preemptVerb is set
   * @param bind whether bindVerb is set
   * @param nodeCacheCapable whether node names are sent instead of Node objects
   */
  public record Extender(
      String urlPrefix,
      boolean filter,
      boolean prioritize,
      boolean preempt,
      boolean bind,
      boolean nodeCacheCapable) {

    /** Filter and prioritize only, names mode: what most users register first. */
    public static Extender filterAndPrioritize(String urlPrefix) {
      return new Extender(urlPrefix, true, true, false, false, true);
    }

    /** The same with {@code nodeCacheCapable} set to {@code value}. */
    public Extender nodeCacheCapable(boolean value) {
      return new Extender(urlPrefix, filter, prioritize, preempt, bind, value);
    }

    /** The same with {@code preemptVerb} set. */
    public Extender withPreempt() {
      return new Extender(urlPrefix, filter, prioritize, true, bind, nodeCacheCapable);
    }

    /** The same with {@code bindVerb} set. */
    public Extender withBind() {
      return new Extender(urlPrefix, filter, prioritize, preempt, true, nodeCacheCapable);
    }

    String yaml() {
      StringBuilder b = new StringBuilder("- urlPrefix: \"" + urlPrefix + "\"\n");
      if (filter) {
        b.append("  filterVerb: filter\n");
      }
      if (prioritize) {
        b.append("  prioritizeVerb: prioritize\n  weight: 1\n");
      }
      if (preempt) {
        b.append("  preemptVerb: preempt\n");
      }
      if (bind) {
        b.append("  bindVerb: bind\n");
      }
      return b.append("  nodeCacheCapable: ")
          .append(nodeCacheCapable)
          .append('\n')
          .append("  enableHTTPS: false\n  httpTimeout: 10s\n  ignorable: false\n")
          .toString();
    }
  }

  /**
   * Which of kube-scheduler's own plugins stay on. The extender's decisions are only visible where
   * kube-scheduler's plugins do not already make them: with its resource filter off, only the
   * extender keeps a node from being over-committed; with its scorers off, every node ties and the
   * extender's scores decide.
   *
   * @param resourceFit whether kube-scheduler's NodeResourcesFit filter runs
   * @param scoring whether kube-scheduler's score plugins run
   * @param dynamicResources whether kube-scheduler's DynamicResources runs (1.34 and later have it
   *     in the default profile): with it off, only the extender allocates devices to claims, and
   *     only an extender that binds writes them
   */
  public record OwnPlugins(boolean resourceFit, boolean scoring, boolean dynamicResources) {

    /** The default profile's DynamicResources as it is. */
    public OwnPlugins(boolean resourceFit, boolean scoring) {
      this(resourceFit, scoring, true);
    }

    /** The same without kube-scheduler's DynamicResources. */
    public OwnPlugins withoutDynamicResources() {
      return new OwnPlugins(resourceFit, scoring, false);
    }

    /** kube-scheduler's default profile. */
    public static final OwnPlugins ALL = new OwnPlugins(true, true);

    /**
     * Neither the resource filter nor any scorer: the extender decides fit by resources and the
     * placement.
     */
    public static final OwnPlugins EXTENDER_DECIDES = new OwnPlugins(false, false);

    String yaml() {
      List<String> lines = new ArrayList<>();
      if (!resourceFit) {
        lines.add("    filter:\n      disabled:\n      - name: NodeResourcesFit");
        lines.add("    preFilter:\n      disabled:\n      - name: NodeResourcesFit");
      }
      if (!scoring) {
        lines.add("    score:\n      disabled:\n      - name: \"*\"");
      }
      if (!dynamicResources) {
        lines.add("    multiPoint:\n      disabled:\n      - name: DynamicResources");
      }
      return lines.isEmpty() ? "" : "  plugins:\n" + String.join("\n", lines) + "\n";
    }
  }

  /**
   * Starts kube-scheduler against {@code cp} with {@code extender}; {@code qps} is its client's
   * rate (raise it for throughput runs). Returns once the process runs; it schedules as soon as its
   * informers have synced (~1 s).
   */
  public static KubeScheduler start(ControlPlane cp, Extender extender, OwnPlugins own, int qps) {
    return start(cp, extender, own, qps, List.of());
  }

  /** The same with {@code flags} added to kube-scheduler's command line. */
  public static KubeScheduler start(
      ControlPlane cp, Extender extender, OwnPlugins own, int qps, List<String> flags) {
    int n = SEQUENCE.incrementAndGet();
    String yaml =
        """
        apiVersion: kubescheduler.config.k8s.io/v1
        kind: KubeSchedulerConfiguration
        leaderElection:
          leaderElect: false
        clientConnection:
          kubeconfig: "%s"
          qps: %d
          burst: %d
        profiles:
        - schedulerName: default-scheduler
        %s
        extenders:
        %s"""
            .formatted(
                cp.adminKubeconfig(), qps, qps * 2, own.yaml().stripTrailing(), extender.yaml());
    return start(cp, yaml.replace("\n\n", "\n"), n, flags);
  }

  /**
   * Starts kube-scheduler against {@code cp} with {@code yaml}, a whole KubeSchedulerConfiguration
   * (its {@code clientConnection.kubeconfig} must name a kubeconfig of {@code cp}).
   */
  public static KubeScheduler start(ControlPlane cp, String yaml) {
    return start(cp, yaml, SEQUENCE.incrementAndGet(), List.of());
  }

  private static KubeScheduler start(ControlPlane cp, String yaml, int n, List<String> flags) {
    Path config = cp.dir().resolve("kube-scheduler-" + n + ".yaml");
    try {
      Files.writeString(config, yaml);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    List<String> command =
        new ArrayList<>(
            List.of(
                cp.assets().program("kube-scheduler").toString(),
                "--config=" + config,
                "--bind-address=127.0.0.1",
                "--secure-port=0",
                "-v=2"));
    command.addAll(flags);
    Daemon d =
        Daemon.start("kube-scheduler", command, cp.dir().resolve("kube-scheduler-" + n + ".log"));
    // Running once it says so (its configuration accepted); callers wait for the effect they are
    // after (a pod bound). The whole log is searched: with pods already pending, it can log
    // hundreds of bindings within one look's 100 ms and push that line out of any tail.
    d.awaitReady(() -> d.logContains("Starting Kubernetes Scheduler"), Duration.ofSeconds(30));
    return new KubeScheduler(d, config);
  }

  /** The same with the default client rate. */
  public static KubeScheduler start(ControlPlane cp, Extender extender, OwnPlugins own) {
    return start(cp, extender, own, 100);
  }

  /** The configuration file it runs with. */
  public Path config() {
    return config;
  }

  /** The end of its log. */
  public String logTail(int lines) {
    return daemon.tail(lines);
  }

  /** Its whole log so far. */
  public String log() {
    try {
      return Files.readString(daemon.log());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** The process id. */
  public long pid() {
    return daemon.pid();
  }

  @Override
  public void close() {
    daemon.stop();
  }
}
