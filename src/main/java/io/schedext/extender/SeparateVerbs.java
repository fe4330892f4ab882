package io.schedext.extender;

import io.schedext.cache.EventGate;
import io.schedext.cache.Snapshot;
import io.schedext.cluster.ClusterSource;
import io.schedext.extender.wire.ExtenderArgs;
import io.schedext.extender.wire.ReplyBuffer;
import io.schedext.framework.runtime.Framework;
import io.schedext.framework.runtime.Frameworks;
import io.schedext.scheduler.SchedulingCycle;
import jakarta.servlet.http.HttpServlet;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.function.LongSupplier;
import java.util.function.Supplier;
import org.springframework.web.util.UriUtils;

/**
 * The filter and prioritize verbs apart from the live ones: services of their own (their PreFilter
 * hand-off, their memory of the pods they were sent, their decisions not logged) over frameworks of
 * their own, with metrics of their own, answering in process ({@link #pair}) or over HTTP ({@link
 * #endpoint}) on the snapshots their owner gives. The code they run is the live verbs' own, from
 * the HTTP server's first byte to the reply's last, on state no caller of the service sees: what
 * exercises the request path before readiness uses them. Made by a {@link Factory}. Thread-safe as
 * the verbs are.
 */
public final class SeparateVerbs {

  /**
   * Makes separate verbs over the service's codec, explain service, cluster source and bind workers
   * (the extender's wiring provides one). Thread-safe.
   */
  public static final class Factory {
    private final WireCodec codec;
    private final ExplainService explain;
    private final ClusterSource source;
    private final BindWorkers bindWorkers;

    Factory(
        WireCodec codec, ExplainService explain, ClusterSource source, BindWorkers bindWorkers) {
      this.codec = codec;
      this.explain = explain;
      this.source = source;
      this.bindWorkers = bindWorkers;
    }

    /**
     * New verbs over {@code frameworks}, timing into {@code metrics}, remembering the last {@code
     * keptPods} pods they were sent (for a minute, by {@code nanoTime}).
     */
    public SeparateVerbs create(
        Frameworks frameworks, ExtenderMetrics metrics, int keptPods, LongSupplier nanoTime) {
      return new SeparateVerbs(this, frameworks, metrics, keptPods, nanoTime);
    }

    /** The codec requests are decoded and replies encoded with. */
    public WireCodec codec() {
      return codec;
    }
  }

  private final Factory factory;
  private final Frameworks frameworks;
  private final ExtenderMetrics metrics;
  private final SeenPods seen;
  private final FilterService filter;
  private final PrioritizeService prioritize;
  private volatile SnapshotNames nameIndexes = new SnapshotNames();

  private SeparateVerbs(
      Factory factory,
      Frameworks frameworks,
      ExtenderMetrics metrics,
      int keptPods,
      LongSupplier nanoTime) {
    this.factory = factory;
    this.frameworks = frameworks;
    this.metrics = metrics;
    this.seen = new SeenPods(keptPods, Duration.ofMinutes(1), nanoTime);
    IncomingPods pods = new IncomingPods(seen);
    SchedulingCycle cycle = new SchedulingCycle();
    this.filter = new FilterService(pods, cycle, factory.codec.recentNames(), metrics, false);
    this.prioritize = new PrioritizeService(pods, cycle, metrics, false);
  }

  /** Their frameworks, one per profile. */
  public Frameworks frameworks() {
    return frameworks;
  }

  /** The pods they remember (by UID), as the live verbs remember the pods of recent calls. */
  public SeenPods seenPods() {
    return seen;
  }

  /**
   * Starts a new index of node names for the in-process calls that follow, as a new endpoint builds
   * its own: the names of the next call's snapshot are indexed again.
   */
  public void newNameIndex() {
    nameIndexes = new SnapshotNames();
  }

  /**
   * A filter-then-prioritize pair on {@code framework} over one snapshot, taken from {@code
   * snapshots} on first use and kept for both calls.
   */
  public Pair pair(Framework framework, Supplier<Snapshot> snapshots) {
    return new Pair(new Call(framework, snapshots, nameIndexes));
  }

  /** One pair of calls in process; confined to one thread. */
  public final class Pair {
    private final Call call;

    private Pair(Call call) {
      this.call = call;
    }

    /** The snapshot both calls run on. */
    public Snapshot snapshot() {
      return call.snapshot();
    }

    /** Answers a filter request body as the endpoint would, its reply encoded into {@code into}. */
    public void filter(byte[] body, ReplyBuffer into) {
      factory.codec.encode(filter.filter(call, decode(body)), into);
    }

    /**
     * Answers a prioritize request body as the endpoint would, its reply encoded into {@code into}.
     */
    public void prioritize(byte[] body, ReplyBuffer into) {
      factory.codec.encode(prioritize.prioritize(call, decode(body)), into);
    }

    private ExtenderArgs decode(byte[] body) {
      return factory.codec.decodeSchedulingArgs(
          new ByteArrayInputStream(body), body.length, call.names());
    }
  }

  /**
   * The path, after an endpoint's prefix, under which {@code framework}'s verbs are served, ending
   * in a slash: {@code /scheduler/} for the default profile of {@code frameworks}, {@code
   * /profiles/<name>/} for another.
   */
  public static String verbsPath(Frameworks frameworks, Framework framework) {
    return (framework == frameworks.defaultFramework()
            ? ExtenderEndpoint.DEFAULT_PROFILE_PREFIX
            : ExtenderEndpoint.NAMED_PROFILE_PREFIX
                + "/"
                + UriUtils.encodePathSegment(framework.profileName(), StandardCharsets.UTF_8))
        + "/";
  }

  /**
   * A servlet answering filter and prioritize over HTTP with these verbs, under {@code pathPrefix}
   * (after the servlet context path), each call on a snapshot from {@code snapshots}; watch events
   * never wait for it.
   */
  public HttpServlet endpoint(Supplier<Snapshot> snapshots, String pathPrefix) {
    return new ExtenderEndpoint(
        Verbs.scheduling(factory.codec, filter, prioritize),
        factory.explain,
        frameworks,
        snapshots,
        factory.codec,
        factory.source,
        metrics,
        EventGate.off(),
        factory.bindWorkers,
        pathPrefix);
  }
}
