package io.schedext.bench;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Pod;
import io.schedext.cache.SchedulerCache;
import io.schedext.cluster.ObjectStore;
import io.schedext.framework.Framework;
import io.schedext.framework.FrameworkMetrics;
import io.schedext.framework.FrameworkServices;
import io.schedext.framework.Parallelizer;
import io.schedext.framework.PodBinder;
import io.schedext.framework.PodInfo;
import io.schedext.framework.PodNominator;
import io.schedext.framework.ScheduledTimers;
import io.schedext.framework.WaitingPods;
import io.schedext.plugins.DefaultProfile;
import io.schedext.plugins.InTreeRegistry;
import java.time.Clock;
import java.time.Duration;

/**
 * A synthetic cluster loaded into a cache, with the default profile built over it on a parallel pool of the machine's
 * CPUs: the in-process setting of the JMH benchmarks. Close it to release the pools.
 *
 * @param cluster the cluster loaded
 * @param cache the cache holding its nodes and pods
 * @param framework the default profile
 * @param parallelizer the framework's parallel pool
 * @param timers the framework's timers
 */
record InProcess(SyntheticCluster cluster, SchedulerCache cache, Framework framework, Parallelizer parallelizer,
    ScheduledTimers timers) implements AutoCloseable {

  /** Loads {@code cluster}: nodes and pods into a new cache, the other objects into the framework's object store. */
  static InProcess load(SyntheticCluster cluster) {
    SchedulerCache cache = new SchedulerCache(Clock.systemUTC(), Duration.ZERO);
    ObjectStore store = new ObjectStore();
    for (HasMetadata o : cluster.objects()) {
      if (o instanceof Node n) {
        cache.addNode(n);
      } else if (o instanceof Pod p) {
        cache.addPod(PodInfo.of(p));
      } else {
        store.put(o);
      }
    }
    Parallelizer parallelizer = new Parallelizer(Runtime.getRuntime().availableProcessors());
    ScheduledTimers timers = new ScheduledTimers();
    PodBinder none = (p, n) -> { };
    FrameworkServices services = new FrameworkServices(store, none, parallelizer, PodNominator.NONE,
        Clock.systemUTC(), timers, new WaitingPods(), FrameworkMetrics.NONE);
    var registry = InTreeRegistry.create();
    Framework framework =
        Framework.create(DefaultProfile.create(DefaultProfile.NAME, registry.names()), registry, services);
    return new InProcess(cluster, cache, framework, parallelizer, timers);
  }

  @Override
  public void close() {
    parallelizer.close();
    timers.close();
  }
}
