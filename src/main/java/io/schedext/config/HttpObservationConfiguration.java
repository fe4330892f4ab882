package io.schedext.config;

import io.micrometer.observation.ObservationRegistry;
import jakarta.servlet.DispatcherType;
import jakarta.servlet.http.HttpServletRequest;
import org.springframework.boot.web.servlet.FilterRegistrationBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.Ordered;
import org.springframework.web.filter.ServerHttpObservationFilter;

/**
 * Spring's HTTP server observation ({@code http_server_requests_seconds}) for every endpoint but
 * the scheduling calls. kube-scheduler makes those for every pod, and the extender times them
 * itself ({@code extender_request_duration_seconds}, by verb and outcome); observing them twice
 * cost a context, tags and a timer per call on the scheduler's critical path. This replaces the
 * filter Spring Boot would register.
 */
@Configuration(proxyBeanMethods = false)
public class HttpObservationConfiguration {

  /**
   * Whether a request is one of the scheduling calls ({@code /scheduler/*} or {@code
   * /profiles/{p}/*}).
   */
  static boolean isSchedulingCall(HttpServletRequest request) {
    String uri = request.getRequestURI();
    return uri.startsWith("/scheduler/") || uri.startsWith("/profiles/");
  }

  @Bean
  FilterRegistrationBean<ServerHttpObservationFilter> webMvcObservationFilter(
      ObservationRegistry registry) {
    ServerHttpObservationFilter filter =
        new ServerHttpObservationFilter(registry) {
          @Override
          protected boolean shouldNotFilter(HttpServletRequest request) {
            return isSchedulingCall(request);
          }
        };
    FilterRegistrationBean<ServerHttpObservationFilter> registration =
        new FilterRegistrationBean<>(filter);
    // Where Spring Boot puts its own: first, for requests and async dispatches.
    registration.setOrder(Ordered.HIGHEST_PRECEDENCE + 1);
    registration.setDispatcherTypes(DispatcherType.REQUEST, DispatcherType.ASYNC);
    return registration;
  }
}
