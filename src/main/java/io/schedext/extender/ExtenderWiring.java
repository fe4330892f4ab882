package io.schedext.extender;

import io.schedext.cache.EventGate;
import io.schedext.cache.SchedulerCache;
import io.schedext.cache.VictimsInFlight;
import io.schedext.cluster.ClusterSource;
import io.schedext.framework.parallelize.Parallelizer;
import io.schedext.framework.runtime.Frameworks;
import io.schedext.scheduler.BindingCycle;
import io.schedext.scheduler.PodsInDoubt;
import io.schedext.scheduler.SchedulingCycle;
import jakarta.servlet.Filter;
import java.time.Duration;
import org.springframework.boot.web.servlet.FilterRegistrationBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * Wires the endpoint, the verbs and the services behind them from the core the application
 * configuration provides.
 */
@Configuration(proxyBeanMethods = false)
class ExtenderWiring {

  /**
   * The pods of recent calls, for a bind the cluster source cannot answer yet: 10,000 pods for 10
   * minutes.
   */
  @Bean
  SeenPods seenPods() {
    return new SeenPods(10_000, Duration.ofMinutes(10), NanoTime.SYSTEM);
  }

  /** Reads the pods of requests and remembers them in {@code seenPods}. */
  @Bean
  IncomingPods incomingPods(SeenPods seenPods) {
    return new IncomingPods(seenPods);
  }

  /** Explains decisions, for the explain verb and the explain-by-name route. */
  @Bean
  ExplainService explainService(
      SchedulerCache cache, ClusterSource source, IncomingPods pods, Parallelizer parallelizer) {
    return new ExplainService(cache, source, pods, parallelizer);
  }

  /** The extender's endpoint: the verbs on the live frameworks and cache. */
  @Bean
  ExtenderEndpoint extenderEndpoint(
      Verbs verbs,
      ExplainService explain,
      Frameworks frameworks,
      SchedulerCache cache,
      WireCodec codec,
      ClusterSource source,
      ExtenderMetrics metrics,
      EventGate gate,
      BindWorkers bindWorkers) {
    return new ExtenderEndpoint(
        verbs, explain, frameworks, cache::snapshot, codec, source, metrics, gate, bindWorkers, "");
  }

  /**
   * Hands the endpoint's requests straight to it, first in the filter chain, so that none of the
   * filters Spring Boot puts before every servlet runs on the scheduler's critical path: request
   * character encoding, form content, request context, the websocket upgrade check and Spring's
   * HTTP observation. The endpoint needs none of them (it reads bytes, writes JSON with its length,
   * and times each verb itself, {@code extender_request_duration_seconds}); together they were a
   * twentieth of a scheduling call's CPU (docs/performance.md). The rest of the service keeps them.
   */
  @Bean
  FilterRegistrationBean<Filter> extenderEndpointFirst(ExtenderEndpoint endpoint) {
    return new EndpointRef(endpoint)
        .firstFilter("extenderEndpointFirst", ExtenderEndpoint.URL_PATTERNS);
  }

  /**
   * Makes separate instances of the filter and prioritize verbs ({@link SeparateVerbs}), over this
   * service's codec, explain service, cluster source and bind workers.
   */
  @Bean
  SeparateVerbs.Factory separateVerbs(
      WireCodec codec, ExplainService explain, ClusterSource source, BindWorkers bindWorkers) {
    return new SeparateVerbs.Factory(codec, explain, source, bindWorkers);
  }

  /** The verb table the endpoint serves. */
  @Bean
  Verbs verbs(
      SchedulerCache cache,
      ClusterSource source,
      IncomingPods pods,
      SeenPods seenPods,
      ExtenderMetrics metrics,
      WireCodec codec,
      ExplainService explain,
      VictimsInFlight victims) {
    PodsInDoubt inDoubt = new PodsInDoubt(cache);
    SchedulingCycle cycle = new SchedulingCycle(inDoubt);
    return Verbs.of(
        codec,
        new FilterService(pods, cycle, codec.recentNames(), metrics),
        new PrioritizeService(pods, cycle, metrics),
        new PreemptionService(pods, metrics, victims),
        new BindService(new BindingCycle(cache, victims, inDoubt), source, seenPods, metrics),
        explain);
  }
}
