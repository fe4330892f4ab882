package io.schedext.testing;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.schedext.cache.Snapshot;
import io.schedext.cluster.ObjectStore;
import io.schedext.framework.CycleState;
import io.schedext.framework.FrameworkException;
import io.schedext.framework.FrameworkMetrics;
import io.schedext.framework.Handle;
import io.schedext.framework.NodeInfo;
import io.schedext.framework.PodBinder;
import io.schedext.framework.PodNominator;
import io.schedext.framework.Profile;
import io.schedext.framework.Registry;
import io.schedext.framework.VolumeWriter;
import io.schedext.framework.parallelize.Parallelizer;
import io.schedext.framework.runtime.Framework;
import io.schedext.framework.runtime.FrameworkServices;
import io.schedext.framework.runtime.ScheduledTimers;
import io.schedext.framework.runtime.WaitingPodsMap;
import java.time.Clock;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** Builds frameworks, handles and cycle states for plugin tests. */
public final class TestFrameworks {

  private static final Parallelizer PARALLELIZER = new Parallelizer(2);
  private static final ScheduledTimers TIMERS = new ScheduledTimers();
  private static final ObjectMapper MAPPER = new ObjectMapper();

  private TestFrameworks() {}

  /** Services over {@code store} with a binder that refuses to bind and no volume writes. */
  public static FrameworkServices services(ObjectStore store) {
    return services(store, VolumeWriter.NONE);
  }

  /**
   * Services over {@code store} writing volumes through {@code volumeWriter}, with a binder that
   * refuses to bind.
   */
  public static FrameworkServices services(ObjectStore store, VolumeWriter volumeWriter) {
    PodBinder refusing =
        (pod, node) -> {
          throw new FrameworkException("binding is not available in this test");
        };
    return new FrameworkServices(
        store,
        refusing,
        PARALLELIZER,
        PodNominator.NONE,
        Clock.systemUTC(),
        TIMERS,
        new WaitingPodsMap(),
        FrameworkMetrics.NONE,
        volumeWriter);
  }

  /**
   * A framework running exactly {@code plugins} (multiPoint, in order, weight 1) from {@code
   * registry}, with {@code args} per plugin (JSON strings).
   */
  public static Framework framework(
      Registry registry, ObjectStore store, List<String> plugins, Map<String, String> args) {
    return framework(registry, services(store), plugins, args);
  }

  /** Like {@link #framework(Registry, ObjectStore, List, Map)}, over the given services. */
  public static Framework framework(
      Registry registry,
      FrameworkServices services,
      List<String> plugins,
      Map<String, String> args) {
    Map<String, JsonNode> parsed = new HashMap<>();
    args.forEach(
        (k, v) -> {
          try {
            parsed.put(k, MAPPER.readTree(v));
          } catch (Exception e) {
            throw new IllegalArgumentException(e);
          }
        });
    Profile profile =
        new Profile("test", plugins.stream().map(Profile.PluginRef::of).toList(), Map.of(), parsed);
    return Framework.create(profile, registry, services);
  }

  /** A handle over {@code store} (for building one plugin directly). */
  public static Handle handle(ObjectStore store) {
    return framework(new Registry(), store, List.of(), Map.of()).handle();
  }

  /** A cycle state over a snapshot of exactly {@code nodes}. */
  public static CycleState cycleState(List<NodeInfo> nodes) {
    return new CycleState(Snapshot.of(nodes));
  }

  /** The JSON text parsed into a tree (for PluginArgs). */
  public static JsonNode json(String text) {
    try {
      return MAPPER.readTree(text);
    } catch (Exception e) {
      throw new IllegalArgumentException(e);
    }
  }
}
