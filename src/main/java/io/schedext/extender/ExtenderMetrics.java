package io.schedext.extender;

import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.schedext.framework.Code;
import io.schedext.framework.ExtensionPoint;
import io.schedext.framework.FrameworkMetrics;
import java.time.Duration;
import java.util.Collection;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * Micrometer timers with upstream's metric names and buckets ({@code
 * scheduler_framework_extension_point_duration_seconds}, {@code
 * scheduler_plugin_execution_duration_seconds}) plus one per extender verb ({@code
 * extender_request_duration_seconds{verb,outcome}}). Timers are created once per tag set and found
 * again without building a key per call: every scheduling call records several. Thread-safe.
 */
public final class ExtenderMetrics implements FrameworkMetrics {

  /** Every result {@link #bind} counts. */
  public static final List<String> BIND_RESULTS = List.of("bound", "failed", "unknown", "refused");

  private final MeterRegistry registry;
  private final ByKey<String, ByKey<ExtensionPoint, ByKey<Code, Timer>>> extensionPointTimers =
      new ByKey<>(
          profile ->
              new ByKey<>(
                  point ->
                      new ByKey<>(status -> createExtensionPointTimer(profile, point, status))));
  private final ByKey<String, ByKey<String, Timer>> requestTimers =
      new ByKey<>(verb -> new ByKey<>(outcome -> createRequestTimer(verb, outcome)));
  private final ByKey<String, DistributionSummary> nodeSummaries = new ByKey<>(this::nodeSummary);
  private final ByKey<String, ByKey<String, ByKey<Code, Timer>>> pluginTimers =
      new ByKey<>(
          plugin ->
              new ByKey<>(
                  point -> new ByKey<>(status -> createPluginTimer(plugin, point, status))));
  private final ConcurrentHashMap<String, DistributionSummary> summaries =
      new ConcurrentHashMap<>();

  /**
   * Meters found by a key, each made at its key's first use. Its one lookup has no branch of its
   * own for a first use: the branch is {@link ConcurrentHashMap#computeIfAbsent}'s, which the whole
   * process takes both ways. A branch here would be taken only at each meter's first use, and
   * separate verbs ({@link SeparateVerbs}) use meters of their own: the live instance's first call
   * would take it in code compiled without it, and throw away the compiled request path it is
   * inlined into (the whole filter and prioritize path, for the request timer).
   */
  private static final class ByKey<K, V> {
    private final ConcurrentHashMap<K, V> made = new ConcurrentHashMap<>();
    private final Function<K, V> make;

    ByKey(Function<K, V> make) {
      this.make = make;
    }

    V get(K key) {
      return made.computeIfAbsent(key, make);
    }
  }

  /** Metrics registered in {@code registry}. */
  public ExtenderMetrics(MeterRegistry registry) {
    this.registry = registry;
  }

  /** The registry these metrics are registered in. */
  public MeterRegistry registry() {
    return registry;
  }

  @Override
  public void extensionPoint(String profile, ExtensionPoint point, Code status, long nanos) {
    // Profile names are few and their hashes cached, points and codes are constants: no key built
    // per call.
    extensionPointTimers.get(profile).get(point).get(status).record(nanos, TimeUnit.NANOSECONDS);
  }

  private Timer createExtensionPointTimer(String profile, ExtensionPoint point, Code status) {
    return Timer.builder("scheduler.framework.extension.point.duration")
        .description("Latency for running all plugins of a specific extension point.")
        .tag("extension_point", point.upstreamName())
        .tag("status", status.upstreamName())
        .tag("profile", profile)
        .serviceLevelObjectives(exponential(0.0001, 2, 12))
        .register(registry);
  }

  @Override
  public void plugin(String plugin, String extensionPoint, Code status, long nanos) {
    // Plugin and extension point names are constants (their hashes are cached): no allocation per
    // call.
    pluginTimers.get(plugin).get(extensionPoint).get(status).record(nanos, TimeUnit.NANOSECONDS);
  }

  private Timer createPluginTimer(String plugin, String extensionPoint, Code status) {
    return Timer.builder("scheduler.plugin.execution.duration")
        .description("Duration for running a plugin at a specific extension point.")
        .tag("plugin", plugin)
        .tag("extension_point", extensionPoint)
        .tag("status", status.upstreamName())
        .serviceLevelObjectives(exponential(0.00001, 1.5, 20))
        .register(registry);
  }

  /** Records one extender request. */
  public void request(String verb, String outcome, long nanos) {
    requestTimers.get(verb).get(outcome).record(nanos, TimeUnit.NANOSECONDS);
  }

  private Timer createRequestTimer(String verb, String outcome) {
    return Timer.builder("extender.request.duration")
        .description("Latency of extender requests by verb and outcome.")
        .tag("verb", verb)
        .tag("outcome", outcome)
        .serviceLevelObjectives(exponential(0.0001, 2, 16))
        .register(registry);
  }

  /** Records how many candidate nodes one request carried. */
  public void nodes(String verb, int count) {
    nodeSummaries.get(verb).record(count);
  }

  private DistributionSummary nodeSummary(String verb) {
    return DistributionSummary.builder("extender.request.nodes")
        .description("Candidate nodes per extender request.")
        .tag("verb", verb)
        .serviceLevelObjectives(10, 50, 100, 500, 1000, 5000, 10000)
        .register(registry);
  }

  /** Records one preempt call and the victims kept on each node it answered with. */
  public void preemption(Collection<Integer> victimsPerNode) {
    registry.counter("scheduler.preemption.attempts").increment();
    for (int v : victimsPerNode) {
      summary(
              "pv",
              () ->
                  DistributionSummary.builder("scheduler.preemption.victims")
                      .description(
                          "Number of selected preemption victims (per node the preempt verb keeps).")
                      .serviceLevelObjectives(1, 2, 4, 8, 16, 32, 64)
                      .register(registry))
          .record(v);
    }
  }

  private DistributionSummary summary(String key, Supplier<DistributionSummary> create) {
    DistributionSummary s = summaries.get(key);
    if (s == null) {
      s = summaries.computeIfAbsent(key, k -> create.get());
    }
    return s;
  }

  /**
   * Counts one bind by result: {@code bound}, {@code failed}, {@code unknown} (outcome unknown) or
   * {@code refused}.
   */
  public void bind(String result) {
    registry.counter("extender.bind", "result", result).increment();
  }

  /**
   * Registers the bind counter of every result at zero. A counter that first appears at 1 shows no
   * increase to Prometheus's {@code rate} and {@code increase}, so without this the first failed or
   * unknown bind of a process would never reach an alert. Returns this.
   */
  public ExtenderMetrics withBindCountersAtZero() {
    for (String result : BIND_RESULTS) {
      registry.counter("extender.bind", "result", result);
    }
    return this;
  }

  private static Duration[] exponential(double startSeconds, double factor, int count) {
    Duration[] out = new Duration[count];
    double v = startSeconds;
    for (int i = 0; i < count; i++) {
      out[i] = Duration.ofNanos((long) (v * 1e9));
      v *= factor;
    }
    return out;
  }
}
