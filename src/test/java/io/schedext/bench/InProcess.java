package io.schedext.bench;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Pod;
import io.schedext.cache.SchedulerCache;
import io.schedext.cluster.ClusterFile;
import io.schedext.cluster.ObjectStore;
import io.schedext.framework.FrameworkMetrics;
import io.schedext.framework.PodBinder;
import io.schedext.framework.PodInfo;
import io.schedext.framework.PodNominator;
import io.schedext.framework.parallelize.Parallelizer;
import io.schedext.framework.runtime.Framework;
import io.schedext.framework.runtime.FrameworkServices;
import io.schedext.framework.runtime.ScheduledTimers;
import io.schedext.framework.runtime.WaitingPodsMap;
import io.schedext.profiles.InTreeRegistry;
import io.schedext.profiles.ProfileDefaults;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;

/**
 * A synthetic cluster loaded into a cache, with the default profile built over it on a parallel
 * pool of the machine's CPUs: the in-process setting of the JMH benchmarks. Close it to release the
 * pools.
 *
 * @param cluster the cluster loaded
 * @param cache the cache holding its nodes and pods
 * @param framework the default profile
 * @param parallelizer the framework's parallel pool
 * @param timers the framework's timers
 */
record InProcess(
    SyntheticCluster cluster,
    SchedulerCache cache,
    Framework framework,
    Parallelizer parallelizer,
    ScheduledTimers timers)
    implements AutoCloseable {

  /**
   * Loads {@code cluster}: nodes and pods into a new cache, the other objects into the framework's
   * object store. The objects go through a cluster file and {@link ClusterFile#read} first, so they
   * are what the service holds: the builders' strings are interned literals, where decoded objects
   * have interned field names (label keys) but a fresh string for every value, and the per-node
   * lookups compare them as the service does.
   */
  static InProcess load(SyntheticCluster cluster) {
    SchedulerCache cache = new SchedulerCache(Clock.systemUTC(), Duration.ZERO);
    ObjectStore store = new ObjectStore();
    for (HasMetadata o : decoded(cluster.objects())) {
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
    PodBinder none = (p, n) -> {};
    FrameworkServices services =
        new FrameworkServices(
            store,
            none,
            parallelizer,
            PodNominator.NONE,
            Clock.systemUTC(),
            timers,
            new WaitingPodsMap(),
            FrameworkMetrics.NONE);
    var registry = InTreeRegistry.create();
    Framework framework =
        Framework.create(
            ProfileDefaults.profile(ProfileDefaults.NAME, registry.names()), registry, services);
    return new InProcess(cluster, cache, framework, parallelizer, timers);
  }

  private static List<HasMetadata> decoded(List<HasMetadata> objects) {
    try {
      Path file = Files.createTempFile("bench-cluster", ".json");
      try {
        HttpLoadDriver.writeClusterFile(objects, file);
        try (InputStream in = Files.newInputStream(file)) {
          return ClusterFile.read(file.toString(), in);
        }
      } finally {
        Files.deleteIfExists(file);
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** {@code pod} as a request body's decoding leaves it: every string a fresh instance. */
  static Pod decoded(Pod pod) {
    try {
      ObjectMapper mapper = new ObjectMapper();
      return mapper.readValue(mapper.writeValueAsBytes(pod), Pod.class);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  @Override
  public void close() {
    parallelizer.close();
    timers.close();
  }
}
