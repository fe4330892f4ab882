package io.schedext.extender;

import io.schedext.cache.SchedulerCache;
import io.schedext.cluster.ClusterSource;
import io.schedext.framework.parallelize.Parallelizer;
import jakarta.servlet.DispatcherType;
import jakarta.servlet.Filter;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.time.Duration;
import org.springframework.boot.web.servlet.FilterRegistrationBean;
import org.springframework.boot.web.servlet.ServletRegistrationBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.Ordered;

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
    return new SeenPods(10_000, Duration.ofMinutes(10), System::nanoTime);
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

  /**
   * The extender's endpoint, a servlet of its own for every path under {@code /scheduler/} and
   * {@code /profiles/} (see {@link ExtenderEndpoint} for why it is not behind Spring MVC).
   */
  @Bean
  ServletRegistrationBean<ExtenderEndpoint> extenderEndpointRegistration(
      ExtenderEndpoint endpoint) {
    ServletRegistrationBean<ExtenderEndpoint> registration =
        new ServletRegistrationBean<>(
            endpoint, ExtenderEndpoint.URL_PATTERNS.toArray(String[]::new));
    registration.setName("extender");
    registration.setAsyncSupported(true);
    // Ready before the first call rather than initialised by it.
    registration.setLoadOnStartup(1);
    return registration;
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
    Filter first =
        (request, response, chain) ->
            endpoint.service((HttpServletRequest) request, (HttpServletResponse) response);
    FilterRegistrationBean<Filter> registration = new FilterRegistrationBean<>(first);
    registration.setName("extenderEndpointFirst");
    registration.setUrlPatterns(ExtenderEndpoint.URL_PATTERNS);
    registration.setOrder(Ordered.HIGHEST_PRECEDENCE);
    registration.setDispatcherTypes(DispatcherType.REQUEST);
    registration.setAsyncSupported(true);
    return registration;
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
      ExplainService explain) {
    PreFilterHandoff handoff = new PreFilterHandoff();
    return Verbs.of(
        codec,
        new FilterService(pods, handoff, metrics),
        new PrioritizeService(pods, handoff, metrics),
        new PreemptionService(pods, metrics),
        new BindService(cache, source, seenPods, metrics),
        explain);
  }
}
