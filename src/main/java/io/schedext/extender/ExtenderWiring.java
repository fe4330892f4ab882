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
import jakarta.servlet.DispatcherType;
import jakarta.servlet.Filter;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.web.server.Ssl;
import org.springframework.boot.web.server.WebServer;
import org.springframework.boot.web.server.autoconfigure.ServerProperties;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.boot.web.servlet.FilterRegistrationBean;
import org.springframework.context.ApplicationContext;
import org.springframework.context.ApplicationListener;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.event.ContextRefreshedEvent;
import org.springframework.core.Ordered;

/**
 * Wires the endpoint, the verbs and the services behind them from the core the application
 * configuration provides.
 */
@Configuration(proxyBeanMethods = false)
class ExtenderWiring {

  private static final Logger log = LoggerFactory.getLogger(ExtenderWiring.class);

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
    return first("extenderEndpointFirst", new EndpointRef(endpoint), ExtenderEndpoint.URL_PATTERNS);
  }

  /**
   * The endpoint the warm-up posts its calls to ({@link WarmUp}): another endpoint for each of the
   * warm-up's private instances, answering filter and prioritize with the instance's services and
   * frameworks, the warm-up's snapshots and metrics, under the warm-up's unguessable path prefix,
   * first in the filter chain as the extender's own. Its gate never holds watch events back.
   */
  @Bean
  FilterRegistrationBean<Filter> warmUpEndpointFirst(
      WarmUp warmUp,
      ExplainService explain,
      WireCodec codec,
      ClusterSource source,
      BindWorkers bindWorkers) {
    warmUp.answerOverHttpWith(
        instance ->
            new ExtenderEndpoint(
                Verbs.scheduling(codec, instance.filter(), instance.prioritize()),
                explain,
                instance.frameworks(),
                warmUp::snapshot,
                codec,
                source,
                warmUp.metrics(),
                EventGate.off(),
                bindWorkers,
                warmUp.pathPrefix()));
    return first("warmUpEndpointFirst", warmUp.endpoint(), List.of(warmUp.pathPrefix() + "/*"));
  }

  /**
   * A filter named {@code name} handing every request to {@code urlPatterns} to the endpoint {@code
   * endpoint} holds, first in the chain (one filter class for every endpoint instance).
   */
  private static FilterRegistrationBean<Filter> first(
      String name, EndpointRef endpoint, List<String> urlPatterns) {
    Filter first =
        (request, response, chain) ->
            endpoint.get().service((HttpServletRequest) request, (HttpServletResponse) response);
    FilterRegistrationBean<Filter> registration = new FilterRegistrationBean<>(first);
    registration.setName(name);
    registration.setUrlPatterns(urlPatterns);
    registration.setOrder(Ordered.HIGHEST_PRECEDENCE);
    registration.setDispatcherTypes(DispatcherType.REQUEST);
    registration.setAsyncSupported(true);
    return registration;
  }

  /**
   * Starts the warm-up once the application context is refreshed, by when the web server, if there
   * is one, listens: its calls are posted to this service when it serves plain HTTP on a port, and
   * made in process otherwise (a TLS server, which may demand client certificates; no server).
   */
  @Bean
  ApplicationListener<ContextRefreshedEvent> warmUpStarter(
      WarmUp warmUp, ApplicationContext context, ObjectProvider<ServerProperties> server) {
    return event -> {
      // A child context (a management server of its own) publishes its refresh here too.
      if (event.getApplicationContext() != context) {
        return;
      }
      InetSocketAddress address = warmUpTarget(context, server.getIfAvailable());
      if (address == null) {
        warmUp.start();
      } else {
        ServerProperties props = server.getIfAvailable();
        warmUp.start(address, props == null ? "" : props.getServlet().getContextPath());
      }
    };
  }

  /**
   * Where the warm-up can post to this service: its port on the address it listens on (loopback
   * when it listens on every interface), or null when there is no server listening, or it serves
   * TLS.
   */
  static InetSocketAddress warmUpTarget(ApplicationContext context, ServerProperties props) {
    WebServer web = context instanceof WebServerApplicationContext w ? w.getWebServer() : null;
    if (web == null || web.getPort() <= 0) {
      return null;
    }
    if (props != null && Ssl.isEnabled(props.getSsl())) {
      log.info("Warm-up calls are made in process: the server serves TLS");
      return null;
    }
    InetAddress bound = props == null ? null : props.getAddress();
    return new InetSocketAddress(
        bound == null || bound.isAnyLocalAddress() ? InetAddress.getLoopbackAddress() : bound,
        web.getPort());
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
