package io.schedext.config;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.schedext.cache.CacheDebugger;
import io.schedext.cache.EventGate;
import io.schedext.cache.SchedulerCache;
import io.schedext.cache.VictimsInFlight;
import io.schedext.cluster.ClusterSource;
import io.schedext.cluster.EmbeddedCluster;
import io.schedext.cluster.EventThreads;
import io.schedext.cluster.KubernetesClients;
import io.schedext.cluster.KubernetesCluster;
import io.schedext.cluster.ObjectStore;
import io.schedext.extender.BindWorkers;
import io.schedext.extender.ExtenderMetrics;
import io.schedext.extender.NanoTime;
import io.schedext.extender.WireCodec;
import io.schedext.framework.Registry;
import io.schedext.framework.parallelize.Parallelizer;
import io.schedext.framework.runtime.FrameworkServices;
import io.schedext.framework.runtime.Frameworks;
import io.schedext.framework.runtime.ScheduledTimers;
import io.schedext.framework.runtime.WaitingPodsMap;
import io.schedext.profiles.FrameworkBuilder;
import io.schedext.profiles.InTreeRegistry;
import java.time.Clock;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.LoggerFactory;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * Wires the core: the cache, the cluster source, the plugin registry and the profiles' frameworks.
 */
@Configuration(proxyBeanMethods = false)
public class ExtenderConfiguration {

  private final AtomicLong inconsistencies = new AtomicLong();

  /** The clock everything time-dependent uses. */
  @Bean
  Clock clock() {
    return Clock.systemUTC();
  }

  /** The victims the preempt verb agreed to, per preemptor and node. */
  @Bean
  VictimsInFlight victimsInFlight(Clock clock, ExtenderProperties props) {
    return new VictimsInFlight(clock, props.cache().evictedPodTtl());
  }

  @Bean
  SchedulerCache schedulerCache(Clock clock, ExtenderProperties props, MeterRegistry registry) {
    SchedulerCache cache = new SchedulerCache(clock, props.cache().assumedPodTtl());
    Gauge.builder("scheduler.cache.size", cache, SchedulerCache::nodeCount)
        .tag("type", "nodes")
        .description("Number of nodes, pods, and assumed (bound) pods in the scheduler cache.")
        .register(registry);
    Gauge.builder("scheduler.cache.size", cache, SchedulerCache::podCount)
        .tag("type", "pods")
        .register(registry);
    Gauge.builder("scheduler.cache.size", cache, SchedulerCache::assumedPodCount)
        .tag("type", "assumed_pods")
        .register(registry);
    Gauge.builder("extender.cache.corruptions", cache, SchedulerCache::corruptions)
        .description("Inconsistent cache entries repaired from watch events.")
        .register(registry);
    Gauge.builder("extender.cache.inconsistencies", inconsistencies, AtomicLong::get)
        .description("Problems the last periodic cache self-check found (0 when consistent).")
        .register(registry);
    Gauge.builder("extender.cache.expired.assumed.pods", cache, SchedulerCache::expiredCount)
        .description("Assumed pods dropped because no watch event confirmed them within the TTL.")
        .register(registry);
    return cache;
  }

  /** Holds watch events back while filter, prioritize and preempt calls are answered (bounded). */
  @Bean
  EventGate eventGate(ExtenderProperties props, MeterRegistry registry) {
    EventGate gate = new EventGate(props.cache().eventMaxDelay());
    Gauge.builder("extender.cache.delayed.events", gate, EventGate::delayedEvents)
        .description("Node and pod watch events that waited for a scheduling call in flight.")
        .register(registry);
    Gauge.builder("extender.cache.event.delay.seconds", gate, EventGate::delaySeconds)
        .description("Time node and pod watch events spent waiting for scheduling calls in flight.")
        .register(registry);
    Gauge.builder("extender.cache.event.delay.timeouts", gate, EventGate::timedOut)
        .description("Waits of watch events that ran out of extender.cache.event-max-delay.")
        .register(registry);
    return gate;
  }

  /** Runs the expiry of assumed pods, and the cache's check of itself, on one daemon thread. */
  @Bean(destroyMethod = "shutdownNow")
  ScheduledExecutorService cacheCleanup(SchedulerCache cache, ExtenderProperties props) {
    CacheDebugger debugger = new CacheDebugger(cache);
    ScheduledExecutorService ses =
        Executors.newSingleThreadScheduledExecutor(
            r -> {
              Thread t = new Thread(r, "cache-cleanup");
              t.setDaemon(true);
              return t;
            });
    long period = Math.max(1, props.cache().cleanupPeriod().toMillis());
    ses.scheduleWithFixedDelay(
        cache::cleanupExpiredAssumedPods, period, period, TimeUnit.MILLISECONDS);
    ses.scheduleWithFixedDelay(
        () -> {
          List<String> problems = debugger.checkConsistency();
          inconsistencies.set(problems.size());
          if (!problems.isEmpty()) {
            LoggerFactory.getLogger(SchedulerCache.class)
                .error(
                    "Cache self-check found {} problem(s): {}",
                    problems.size(),
                    problems.subList(0, Math.min(10, problems.size())));
          }
        },
        1,
        1,
        TimeUnit.MINUTES);
    return ses;
  }

  @Bean
  ObjectStore objectStore() {
    return new ObjectStore();
  }

  /** The cluster source; started here, so a broken cluster file stops start-up. */
  @Bean(destroyMethod = "close")
  ClusterSource clusterSource(
      ExtenderProperties props,
      SchedulerCache cache,
      ObjectStore store,
      Clock clock,
      MeterRegistry registry,
      EventGate gate) {
    ClusterSource source =
        switch (props.cluster().source()) {
          case EMBEDDED -> new EmbeddedCluster(cache, store, props.cluster().file());
          case KUBERNETES -> {
            EventThreads threads = new EventThreads();
            KubernetesCluster k =
                new KubernetesCluster(
                    KubernetesClients.create(props.cluster().kubeconfig(), threads),
                    cache,
                    store,
                    clock,
                    props.cluster().syncGrace(),
                    props.bind().timeout(),
                    props.cluster().requestTimeout(),
                    gate);
            // The initial lists are read at full speed; once they are in, the client's threads
            // yield to the calls.
            k.whenSynced(threads::yieldToCalls);
            Gauge.builder("extender.informer.events", k, KubernetesCluster::events)
                .description("Watch events handled since start.")
                .register(registry);
            Gauge.builder("extender.informer.handler.errors", k, KubernetesCluster::handlerErrors)
                .description("Watch events the cache refused (logged and repaired) since start.")
                .register(registry);
            Gauge.builder("extender.informer.errors", k, KubernetesCluster::informerErrors)
                .description("List/watch failures the informers retried since start.")
                .register(registry);
            yield k;
          }
        };
    source.start();
    Gauge.builder("extender.cluster.ready", source, s -> s.isReady() ? 1 : 0)
        .description("1 when the cluster state is complete and in sync.")
        .register(registry);
    return source;
  }

  @Bean(destroyMethod = "close")
  Parallelizer parallelizer(ExtenderProperties props) {
    int p = props.scheduling().parallelism();
    return new Parallelizer(p > 0 ? p : Runtime.getRuntime().availableProcessors());
  }

  @Bean(destroyMethod = "close")
  ScheduledTimers timers() {
    return new ScheduledTimers();
  }

  @Bean
  WaitingPodsMap waitingPods() {
    return new WaitingPodsMap();
  }

  /** The live metrics; private ones of separate verbs leave their bind counters out. */
  @Bean
  ExtenderMetrics extenderMetrics(MeterRegistry registry) {
    return new ExtenderMetrics(registry).withBindCountersAtZero();
  }

  /**
   * Every plugin factory available to profiles: the in-tree ones and those of PluginProviders on
   * the classpath.
   */
  @Bean
  Registry pluginRegistry() {
    return InTreeRegistry.withProviders(Thread.currentThread().getContextClassLoader());
  }

  /**
   * One framework per profile of {@code extender.config.file}, of the profile translated from
   * {@code extender.policy.file}, or of the built-in default profile; a configuration error stops
   * start-up.
   */
  @Bean
  Frameworks frameworks(
      Registry registry,
      ObjectStore store,
      ClusterSource source,
      Parallelizer parallelizer,
      Clock clock,
      ScheduledTimers timers,
      WaitingPodsMap waitingPods,
      ExtenderMetrics metrics,
      VictimsInFlight victims,
      ExtenderProperties props) {
    FrameworkServices services =
        new FrameworkServices(
            store,
            source.binder(),
            parallelizer,
            victims.over(source.nominator()),
            clock,
            timers,
            waitingPods,
            metrics,
            source.volumeWriter());
    return profiles(props, registry, services);
  }

  /** Every profile the configuration names, as frameworks over {@code services}. */
  private static Frameworks profiles(
      ExtenderProperties props, Registry registry, FrameworkServices services) {
    return sampled(
        props,
        FrameworkBuilder.build(
            props.config().file(),
            props.policy().file(),
            props.scheduling().defaultProfile(),
            registry,
            services));
  }

  /** {@code frameworks}, each timing its plugins in the configured share of cycles. */
  public static Frameworks sampled(ExtenderProperties props, Frameworks frameworks) {
    frameworks
        .all()
        .forEach(
            f -> f.setPluginMetricsSamplePercent(props.scheduling().pluginMetricsSamplePercent()));
    return frameworks;
  }

  @Bean
  WireCodec wireCodec(ExtenderProperties props) {
    return new WireCodec(
        props.http().maxRequestBytes().toBytes(), props.http().bodyReadTimeout(), NanoTime.SYSTEM);
  }

  /** The threads binds run on, apart from the HTTP workers. */
  @Bean(destroyMethod = "close")
  BindWorkers bindWorkers(ExtenderProperties props, MeterRegistry registry) {
    BindWorkers workers = new BindWorkers(props.bind().workers());
    Gauge.builder("extender.bind.busy.workers", workers, BindWorkers::busy)
        .description("Binds in progress (at most extender.bind.workers).")
        .register(registry);
    return workers;
  }

  /**
   * Readiness: UP only when the cluster state is loaded (or synced) and not lost, and every other
   * condition readiness waits for is met ({@link ReadinessCondition}), the first unmet one giving
   * the reason.
   */
  @Bean
  HealthIndicator clusterState(
      ClusterSource source, SchedulerCache cache, List<ReadinessCondition> conditions) {
    return () -> {
      String reason = source.isReady() ? null : source.notReadyReason();
      for (int i = 0; reason == null && i < conditions.size(); i++) {
        reason = conditions.get(i).notReadyReason();
      }
      return reason == null
          ? Health.up()
              .withDetail("source", source.describe())
              .withDetail("nodes", cache.nodeCount())
              .withDetail("pods", cache.podCount())
              .build()
          : Health.outOfService()
              .withDetail("source", source.describe())
              .withDetail("reason", reason)
              .build();
    };
  }
}
