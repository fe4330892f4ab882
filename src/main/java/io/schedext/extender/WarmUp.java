package io.schedext.extender;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeList;
import io.fabric8.kubernetes.api.model.Pod;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.schedext.cache.SchedulerCache;
import io.schedext.cluster.EmbeddedCluster;
import io.schedext.cluster.ObjectStore;
import io.schedext.extender.wire.ExtenderArgs;
import io.schedext.extender.wire.ReplyBuffer;
import io.schedext.framework.Framework;
import io.schedext.framework.FrameworkServices;
import io.schedext.framework.Frameworks;
import io.schedext.framework.NodeInfo;
import io.schedext.framework.Parallelizer;
import io.schedext.framework.Registry;
import io.schedext.framework.ScheduledTimers;
import io.schedext.framework.WaitingPods;
import java.io.ByteArrayInputStream;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Compiles the request path before kube-scheduler's first pods. HotSpot compiles a method with its optimising
 * compiler only after thousands of calls; code that runs once per request reaches that after thousands of requests,
 * and until then every call costs several times its warm CPU, plus the compiling itself (measured in the real loop:
 * half the extender's CPU over its first 2,000 pods went to the JIT). So before readiness reports UP this runs
 * filter and prioritize calls — each body decoded by the same codec, answered by the same service and plugin code,
 * and encoded — against a private copy of the bundled demo cluster, with every profile's plugins created anew over
 * it. Nothing here touches the live cache, the object store the informers feed, the metrics or the pods a bind may
 * look up; only the compiled code is shared.
 */
public final class WarmUp {

  private static final Logger log = LoggerFactory.getLogger(WarmUp.class);

  private final int calls;
  private final AtomicInteger done = new AtomicInteger();
  private volatile boolean finished;
  private volatile String failure = "";

  private WarmUp(int calls) {
    this.calls = calls;
    this.finished = calls <= 0;
  }

  /**
   * Starts {@code calls} warm-up calls on a daemon thread over new instances of {@code live}'s profiles; with 0 calls
   * it is finished at once.
   */
  public static WarmUp start(int calls, Frameworks live, Registry registry, Parallelizer parallelizer,
      WireCodec codec) {
    WarmUp w = new WarmUp(calls);
    if (calls > 0) {
      Thread t = new Thread(() -> w.run(live, registry, parallelizer, codec), "warm-up");
      t.setDaemon(true);
      t.start();
    }
    return w;
  }

  /** Whether every warm-up call has been made (or the warm-up gave up, which it logs). */
  public boolean finished() {
    return finished;
  }

  /** Calls made so far. */
  public int done() {
    return done.get();
  }

  /** Calls planned. */
  public int calls() {
    return calls;
  }

  /** Why the warm-up stopped early; empty when it did not. */
  public String failure() {
    return failure;
  }

  private void run(Frameworks live, Registry registry, Parallelizer parallelizer, WireCodec codec) {
    long start = System.nanoTime();
    Clock clock = Clock.systemUTC();
    try (ScheduledTimers timers = new ScheduledTimers()) {
      SchedulerCache cache = new SchedulerCache(clock, Duration.ZERO);
      ObjectStore store = new ObjectStore();
      EmbeddedCluster demo = new EmbeddedCluster(cache, store, "").quiet();
      demo.start();
      ExtenderMetrics metrics = new ExtenderMetrics(new SimpleMeterRegistry());
      FrameworkServices services = new FrameworkServices(store, demo.binder(), parallelizer, demo.nominator(), clock,
          timers, new WaitingPods(), metrics, demo.volumeWriter());
      Map<String, Framework> byName = new LinkedHashMap<>();
      for (Framework f : live.all()) {
        byName.put(f.profileName(), f.recreate(registry, services));
      }
      ExtenderService service = new ExtenderService(cache, demo, new Frameworks(byName, live.defaultName()),
          parallelizer, new SeenPods(100, Duration.ofMinutes(1), com.github.benmanes.caffeine.cache.Ticker.systemTicker()),
          metrics);
      List<byte[]> bodies = bodies(codec, demo.pendingPods(), cache.snapshot().list());
      List<String> profiles = new ArrayList<>(byName.keySet());
      ReplyBuffer buf = codec.borrowBuffer();
      try {
        for (int i = 0; i < calls; i++) {
          byte[] body = bodies.get((i / 2) % bodies.size());
          String profile = profiles.get((i / (2 * bodies.size())) % profiles.size());
          ExtenderArgs args = codec.decode(new ByteArrayInputStream(body), ExtenderArgs.class, service.nodeNames());
          Object reply = i % 2 == 0 ? service.filter(profile, args) : service.prioritize(profile, args);
          codec.encode(reply, buf);
          done.incrementAndGet();
        }
      } finally {
        codec.release(buf);
      }
      log.info("Warm-up: {} filter and prioritize calls against a private demo cluster in {} ms", calls,
          (System.nanoTime() - start) / 1_000_000);
    } catch (RuntimeException e) {
      failure = e.toString();
      log.warn("Warm-up stopped after {} of {} calls (readiness no longer waits for it): {}", done.get(), calls,
          e.toString());
    } finally {
      finished = true;
    }
  }

  /** Request bodies for every pending pod of the demo cluster: names mode, and Node objects. */
  private static List<byte[]> bodies(WireCodec codec, List<Pod> pods, List<NodeInfo> nodes) {
    List<String> names = nodes.stream().map(NodeInfo::name).toList();
    NodeList objects = new NodeList();
    objects.setItems(nodes.stream().map(NodeInfo::node).map(Node.class::cast).toList());
    List<byte[]> out = new ArrayList<>();
    for (Pod pod : pods) {
      out.add(codec.encode(new ExtenderArgs(pod, null, names)));
    }
    for (Pod pod : pods) {
      out.add(codec.encode(new ExtenderArgs(pod, objects, null)));
    }
    return out;
  }
}
