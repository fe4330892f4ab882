package io.schedext.extender;

import jakarta.servlet.DispatcherType;
import jakarta.servlet.Filter;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.util.List;
import org.springframework.boot.web.servlet.FilterRegistrationBean;
import org.springframework.core.Ordered;

/**
 * The endpoint a servlet filter first in the chain hands its requests to ({@link #firstFilter}):
 * the extender's own for its paths, never changed; the current one of separate verbs for theirs
 * ({@link SeparateVerbs#endpoint}), changed as their owner makes new ones. One class for both, so
 * that the filter's call to it meets one class whoever calls: code compiled on calls to separate
 * verbs alone would otherwise be thrown away at the first live one. Thread-safe.
 */
public final class EndpointRef {

  private volatile ExtenderEndpoint endpoint;

  /** A reference to no endpoint yet. */
  public EndpointRef() {
    this(null);
  }

  /** A reference to {@code endpoint}. */
  EndpointRef(ExtenderEndpoint endpoint) {
    this.endpoint = endpoint;
  }

  /** The endpoint requests go to now, or null when there is none yet. */
  ExtenderEndpoint get() {
    return endpoint;
  }

  /** Has requests go to {@code endpoint}, one {@link SeparateVerbs#endpoint} made, from now on. */
  public void set(HttpServlet endpoint) {
    this.endpoint = (ExtenderEndpoint) endpoint;
  }

  /**
   * A filter named {@code name} handing every request to {@code urlPatterns} to the endpoint this
   * reference holds, first in the chain, so that none of the filters Spring Boot puts before every
   * servlet runs on those requests (one filter class for every endpoint instance).
   */
  public FilterRegistrationBean<Filter> firstFilter(String name, List<String> urlPatterns) {
    Filter first =
        (request, response, chain) ->
            get().service((HttpServletRequest) request, (HttpServletResponse) response);
    FilterRegistrationBean<Filter> registration = new FilterRegistrationBean<>(first);
    registration.setName(name);
    registration.setUrlPatterns(urlPatterns);
    registration.setOrder(Ordered.HIGHEST_PRECEDENCE);
    registration.setDispatcherTypes(DispatcherType.REQUEST);
    registration.setAsyncSupported(true);
    return registration;
  }
}
