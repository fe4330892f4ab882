package io.schedext.extender;

import static org.mockito.Mockito.mock;
import static org.mockito.Mockito.when;

import io.schedext.cache.EventGate;
import io.schedext.cache.SchedulerCache;
import io.schedext.cache.VictimsInFlight;
import io.schedext.cluster.ClusterSource;
import io.schedext.extender.wire.ExtenderArgs;
import io.schedext.extender.wire.ExtenderBindingArgs;
import io.schedext.extender.wire.ExtenderBindingResult;
import io.schedext.extender.wire.ExtenderFilterResult;
import io.schedext.extender.wire.ExtenderPreemptionArgs;
import io.schedext.extender.wire.ExtenderPreemptionResult;
import io.schedext.extender.wire.HostPriority;
import io.schedext.framework.parallelize.Parallelizer;
import io.schedext.framework.runtime.Framework;
import io.schedext.framework.runtime.Frameworks;
import io.schedext.scheduler.BindingCycle;
import io.schedext.scheduler.SchedulingCycle;
import jakarta.servlet.ServletException;
import java.io.IOException;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.awaitility.Awaitility;
import org.springframework.mock.web.MockHttpServletRequest;
import org.springframework.mock.web.MockHttpServletResponse;

/**
 * The extender's services wired as the application wires them, over a given cache, source and
 * frameworks, and called as the endpoint calls them (profile resolved, one call per request): for
 * tests below the HTTP layer, and for endpoints over the same services.
 */
final class VerbHarness {

  private final SchedulerCache cache;
  private final ClusterSource source;
  private final Frameworks frameworks;
  private final ExtenderMetrics metrics;
  private final WireCodec codec = new WireCodec(1 << 20);
  private final SnapshotNames nameIndexes = new SnapshotNames();
  private final FilterService filter;
  private final PrioritizeService prioritize;
  private final PreemptionService preemption;
  private final BindService bind;
  private final ExplainService explain;

  VerbHarness(
      SchedulerCache cache,
      ClusterSource source,
      Frameworks frameworks,
      Parallelizer parallelizer,
      SeenPods seen,
      ExtenderMetrics metrics) {
    this.cache = cache;
    this.source = source;
    this.frameworks = frameworks;
    this.metrics = metrics;
    IncomingPods pods = new IncomingPods(seen);
    SchedulingCycle cycle = new SchedulingCycle();
    this.filter = new FilterService(pods, cycle, codec.recentNames(), metrics);
    this.prioritize = new PrioritizeService(pods, cycle, metrics);
    VictimsInFlight none = new VictimsInFlight(Clock.systemUTC(), Duration.ZERO);
    this.preemption = new PreemptionService(pods, metrics, none);
    this.bind = new BindService(new BindingCycle(cache, none), source, seen, metrics);
    this.explain = new ExplainService(cache, source, pods, parallelizer);
  }

  /** A call to {@code profile} (null = default) on the cache's current snapshot. */
  Call call(String profile) {
    Framework fw = profile == null ? frameworks.defaultFramework() : frameworks.get(profile);
    if (fw == null) {
      throw new IllegalArgumentException("no profile " + profile);
    }
    return new Call(fw, cache::snapshot, nameIndexes);
  }

  ExtenderFilterResult filter(String profile, ExtenderArgs args) {
    return filter.filter(call(profile), args);
  }

  List<HostPriority> prioritize(String profile, ExtenderArgs args) {
    return prioritize.prioritize(call(profile), args);
  }

  ExtenderPreemptionResult preempt(String profile, ExtenderPreemptionArgs args) {
    return preemption.preempt(call(profile), args);
  }

  ExtenderBindingResult bind(String profile, ExtenderBindingArgs args) {
    return bind.bind(call(profile).framework(), args);
  }

  Explanation explain(String profile, ExtenderArgs args) {
    return explain.explain(call(profile), args);
  }

  /** The verb table over these services. */
  Verbs verbs() {
    return Verbs.of(codec, filter, prioritize, preemption, bind, explain);
  }

  /** An endpoint serving these services with {@code gate} and {@code workers}. */
  ExtenderEndpoint endpoint(EventGate gate, BindWorkers workers) {
    return endpoint(verbs(), gate, workers);
  }

  /** An endpoint serving {@code verbs} with {@code gate} and {@code workers}. */
  ExtenderEndpoint endpoint(Verbs verbs, EventGate gate, BindWorkers workers) {
    return new ExtenderEndpoint(
        verbs, explain, frameworks, cache::snapshot, codec, source, metrics, gate, workers, "");
  }

  /**
   * An endpoint serving {@code verbs} (whose services a test stubs) over an empty cache, with one
   * profile whose framework is a mock.
   */
  static ExtenderEndpoint endpoint(
      Verbs verbs, ClusterSource source, ExtenderMetrics metrics, EventGate gate) {
    Framework fw = mock(Framework.class);
    when(fw.profileName()).thenReturn("default-scheduler");
    return new ExtenderEndpoint(
        verbs,
        mock(ExplainService.class),
        new Frameworks(Map.of("default-scheduler", fw), "default-scheduler"),
        new SchedulerCache(Clock.systemUTC(), Duration.ZERO)::snapshot,
        new WireCodec(1 << 20),
        source,
        metrics,
        gate,
        new BindWorkers(1),
        "");
  }

  /**
   * Serves {@code request} on {@code endpoint} as the servlet container would, waiting for an
   * asynchronous reply (bind's) to complete; the response holds the whole reply.
   */
  static MockHttpServletResponse serve(ExtenderEndpoint endpoint, MockHttpServletRequest request)
      throws IOException, ServletException {
    request.setAsyncSupported(true);
    MockHttpServletResponse response = new MockHttpServletResponse();
    endpoint.service(request, response);
    if (request.getAsyncContext() != null) {
      Awaitility.await().until(() -> !request.isAsyncStarted());
    }
    return response;
  }

  /** Serves a POST of {@code body} to {@code path} on {@code endpoint}, as {@link #serve} does. */
  static MockHttpServletResponse post(ExtenderEndpoint endpoint, String path, byte[] body)
      throws IOException, ServletException {
    MockHttpServletRequest request = new MockHttpServletRequest("POST", path);
    request.setContent(body);
    return serve(endpoint, request);
  }
}
