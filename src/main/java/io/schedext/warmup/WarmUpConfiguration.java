package io.schedext.warmup;

import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.schedext.cache.SchedulerCache;
import io.schedext.cluster.ClusterSource;
import io.schedext.cluster.ObjectStore;
import io.schedext.config.ExtenderConfiguration;
import io.schedext.config.ExtenderProperties;
import io.schedext.config.ReadinessCondition;
import io.schedext.extender.ExtenderMetrics;
import io.schedext.extender.NanoTime;
import io.schedext.extender.SeparateVerbs;
import io.schedext.framework.Registry;
import io.schedext.framework.parallelize.Parallelizer;
import io.schedext.framework.runtime.FrameworkServices;
import io.schedext.framework.runtime.Frameworks;
import io.schedext.framework.runtime.ScheduledTimers;
import io.schedext.framework.runtime.WaitingPodsMap;
import io.schedext.profiles.FrameworkBuilder;
import jakarta.servlet.Filter;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.time.Clock;
import java.util.List;
import java.util.function.Supplier;
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

/**
 * The warm-up before readiness, wired in this one place: the {@link WarmUp} itself, the condition
 * readiness waits on, the endpoint its calls are posted to, and its start once the application
 * context is refreshed. Nothing else in the service names it.
 */
@Configuration(proxyBeanMethods = false)
class WarmUpConfiguration {

  private static final Logger log = LoggerFactory.getLogger(WarmUpConfiguration.class);

  /**
   * The request path run before readiness: a private instance of every profile for each of its
   * instances in turn, over separate verbs whose metrics nobody reads and frameworks which cannot
   * bind or write volumes. It is started once the application context is refreshed and runs once
   * the cluster source is ready.
   */
  @Bean(destroyMethod = "close")
  WarmUp warmUp(
      Registry registry,
      ObjectStore store,
      ClusterSource source,
      SchedulerCache cache,
      Parallelizer parallelizer,
      Clock clock,
      ScheduledTimers timers,
      SeparateVerbs.Factory verbs,
      ExtenderProperties props) {
    ExtenderMetrics unread =
        new ExtenderMetrics(new PrometheusMeterRegistry(PrometheusConfig.DEFAULT));
    FrameworkServices services =
        new FrameworkServices(
            store,
            WarmUp.NO_BINDS,
            parallelizer,
            source.nominator(),
            clock,
            timers,
            new WaitingPodsMap(),
            unread);
    // Read and reported once; each of the warm-up's private instances is built again from it.
    Supplier<Frameworks> profiles =
        FrameworkBuilder.repeatable(
            props.config().file(),
            props.policy().file(),
            props.scheduling().defaultProfile(),
            registry,
            services);
    return new WarmUp(
        props.scheduling().warmUpCalls(),
        props.scheduling().warmUpSmallCalls(),
        source,
        cache,
        verbs,
        () -> ExtenderConfiguration.sampled(props, profiles.get()),
        unread,
        NanoTime.SYSTEM,
        Compilers.ofThisJvm(props.scheduling().warmUpCompilerWait()),
        System::gc);
  }

  /** Readiness waits for the warm-up ({@link WarmUp#progress()}). */
  @Bean
  ReadinessCondition warmedUp(WarmUp warmUp) {
    return warmUp::progress;
  }

  /**
   * The endpoint the warm-up posts its calls to: one for each of the warm-up's private instances,
   * answering filter and prioritize with the instance's verbs and frameworks, the warm-up's
   * snapshots and metrics, under the warm-up's unguessable path prefix, first in the filter chain
   * as the extender's own. Its watch events never wait for it.
   */
  @Bean
  FilterRegistrationBean<Filter> warmUpEndpointFirst(WarmUp warmUp) {
    warmUp.answerOverHttp();
    return warmUp
        .endpoint()
        .firstFilter("warmUpEndpointFirst", List.of(warmUp.pathPrefix() + "/*"));
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
      InetSocketAddress address = target(context, server.getIfAvailable());
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
  static InetSocketAddress target(ApplicationContext context, ServerProperties props) {
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
}
