package io.schedext.config;

import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.util.unit.DataSize;

/**
 * Every {@code extender.*} property, with its default. Bound by Spring Boot at start-up: a value
 * that does not convert to its type (a duration, a size, an enum) stops start-up naming the
 * property.
 *
 * @param cluster where the cluster state comes from
 * @param cache scheduler cache settings
 * @param http request handling limits, and the drain at shutdown
 * @param scheduling framework runtime settings
 * @param bind binding settings
 * @param config the scheduler configuration file the profiles come from
 * @param policy the legacy Policy file a profile is translated from
 */
@ConfigurationProperties("extender")
public record ExtenderProperties(
    @DefaultValue Cluster cluster,
    @DefaultValue Cache cache,
    @DefaultValue Http http,
    @DefaultValue Scheduling scheduling,
    @DefaultValue Bind bind,
    @DefaultValue SchedulerConfig config,
    @DefaultValue Policy policy) {

  /** Cluster sources. */
  public enum Source {
    /** An in-memory cluster loaded from a file (the bundled demo cluster by default). */
    EMBEDDED,
    /** A real cluster through the API server, kept in sync by watches. */
    KUBERNETES
  }

  /**
   * Where the cluster state comes from.
   *
   * @param source embedded (default) or kubernetes
   * @param file the embedded cluster file (JSON v1 List or multi-document YAML); empty = the
   *     bundled demo cluster
   * @param kubeconfig for the kubernetes source: a kubeconfig path; empty = in-cluster
   *     configuration
   * @param syncGrace for the kubernetes source: how long a watch may be down before the extender
   *     reports not ready and filter answers Error
   * @param requestTimeout for the kubernetes source: how long an API read a request waits on (the
   *     pod lookup of bind) may take; never retried
   */
  public record Cluster(
      @DefaultValue("embedded") Source source,
      @DefaultValue("") String file,
      @DefaultValue("") String kubeconfig,
      @DefaultValue("30s") Duration syncGrace,
      @DefaultValue("1s") Duration requestTimeout) {}

  /**
   * Scheduler cache settings.
   *
   * @param assumedPodTtl how long an assumed pod whose binding finished may wait for its watch
   *     event before it is dropped (0 = never)
   * @param cleanupPeriod how often expired assumed pods are looked for
   * @param evictedPodTtl how long the victims the preempt verb agreed to for a preemptor count as
   *     gone when that pod is filtered on the node it is then nominated to, before the watch shows
   *     them deleted (zero: never)
   * @param eventMaxDelay how long a node or pod watch event may wait for the filter, prioritize or
   *     preempt calls being answered before it is applied anyway (0 = events never wait)
   */
  public record Cache(
      @DefaultValue("30s") Duration assumedPodTtl,
      @DefaultValue("1s") Duration cleanupPeriod,
      @DefaultValue("5ms") Duration eventMaxDelay,
      @DefaultValue("30s") Duration evictedPodTtl) {}

  /**
   * Request handling limits.
   *
   * @param maxRequestBytes the largest request body accepted (large enough for 5,000 full Node
   *     objects)
   * @param bodyReadTimeout how long the reads of one request body may wait for the client in all;
   *     longer gets 408
   * @param drain at shutdown, how long calls may go on being answered (with {@code Connection:
   *     close}) before the server stops; 0 = not at all
   * @param drainQuiet at shutdown, the drain ends once no scheduling call has come for this long
   */
  public record Http(
      @DefaultValue("256MB") DataSize maxRequestBytes,
      @DefaultValue("2s") Duration bodyReadTimeout,
      @DefaultValue("10s") Duration drain,
      @DefaultValue("1s") Duration drainQuiet) {}

  /**
   * Framework runtime settings.
   *
   * @param parallelism threads used per request for Filter and Score (0 = the number of CPUs)
   * @param defaultProfile the profile served at {@code /scheduler/*}; empty = the first configured
   *     profile (without a configuration file: the name of the built-in or Policy profile, {@code
   *     default-scheduler} when empty)
   * @param pluginMetricsSamplePercent the share of cycles whose per-plugin durations are recorded
   * @param warmUpCalls filter and prioritize pairs run on the live cluster before readiness reports
   *     UP, so the first calls are not interpreted (0 = none); half over every node, half over as
   *     many as kube-scheduler sends by default; above 1,000 nodes fewer, in proportion
   * @param warmUpSmallCalls filter and prioritize pairs over 8 nodes each run after those, so that
   *     what runs once per call (the HTTP server, the decoders, the verbs) is called often enough
   *     to be optimised before readiness (0 = none)
   * @param warmUpCompilerWait how long readiness waits at most, after the warm-up's calls, for the
   *     compilers to finish compiling what they ran; never longer than the calls took (0 = not at
   *     all)
   */
  public record Scheduling(
      @DefaultValue("0") int parallelism,
      @DefaultValue("") String defaultProfile,
      @DefaultValue("10") double pluginMetricsSamplePercent,
      @DefaultValue("400") int warmUpCalls,
      @DefaultValue("2500") int warmUpSmallCalls,
      @DefaultValue("5s") Duration warmUpCompilerWait) {}

  /**
   * Binding settings.
   *
   * @param timeout how long one Binding API call may take; past it the outcome is unknown and the
   *     pod stays assumed
   * @param workers how many binds run at once, on their own threads; a bind beyond them is refused
   *     at once
   */
  public record Bind(@DefaultValue("3s") Duration timeout, @DefaultValue("16") int workers) {}

  /**
   * The scheduler configuration file.
   *
   * @param file a KubeSchedulerConfiguration (kubescheduler.config.k8s.io/v1 or v1beta3) whose
   *     {@code profiles} the extender serves; a {@code classpath:} prefix reads a resource; empty =
   *     upstream's default profile
   */
  public record SchedulerConfig(@DefaultValue("") String file) {}

  /**
   * The legacy Policy file.
   *
   * @param file a scheduler Policy (kind Policy, apiVersion v1; JSON or YAML) translated into one
   *     profile as v1.22 did; a {@code classpath:} prefix reads a resource; empty = none. Not
   *     together with {@code config.file}
   */
  public record Policy(@DefaultValue("") String file) {}
}
