package io.schedext.framework.runtime;

import io.schedext.cluster.ObjectStore;
import io.schedext.framework.CycleState;
import io.schedext.framework.ExtensionPoint;
import io.schedext.framework.FrameworkException;
import io.schedext.framework.FrameworkMetrics;
import io.schedext.framework.NodeInfo;
import io.schedext.framework.Plugin;
import io.schedext.framework.PodBinder;
import io.schedext.framework.PodNominator;
import io.schedext.framework.Profile;
import io.schedext.framework.Registry;
import io.schedext.framework.Timers;
import io.schedext.framework.parallelize.Parallelizer;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;

/** Frameworks over fake plugins, for the runtime tests. */
final class Fixtures {

  static final Parallelizer PARALLELIZER = new Parallelizer(2);
  static final Clock CLOCK = Clock.fixed(Instant.parse("2026-01-01T00:00:00Z"), ZoneOffset.UTC);

  private Fixtures() {}

  static FrameworkServices services(PodNominator nominator, Timers timers) {
    PodBinder refusing =
        (pod, node) -> {
          throw new FrameworkException("binding is not available in this test");
        };
    return new FrameworkServices(
        new ObjectStore(),
        refusing,
        PARALLELIZER,
        nominator,
        CLOCK,
        timers,
        new WaitingPodsMap(),
        FrameworkMetrics.NONE);
  }

  static FrameworkServices services() {
    return services(PodNominator.NONE, new FakeTimers());
  }

  /** A registry returning exactly these plugin instances. */
  static Registry registry(Plugin... plugins) {
    Registry r = new Registry();
    for (Plugin p : plugins) {
      r.register(p.name(), (args, handle) -> p);
    }
    return r;
  }

  /** A framework enabling {@code plugins} at {@code point} only, in order. */
  static Framework at(ExtensionPoint point, FrameworkServices services, Plugin... plugins) {
    List<Profile.PluginRef> refs = new ArrayList<>();
    for (Plugin p : plugins) {
      refs.add(Profile.PluginRef.of(p.name()));
    }
    Map<ExtensionPoint, Profile.PluginSet> points = new EnumMap<>(ExtensionPoint.class);
    points.put(point, new Profile.PluginSet(refs, null));
    return Framework.create(new Profile("test", null, points, null), registry(plugins), services);
  }

  static Framework at(ExtensionPoint point, Plugin... plugins) {
    return at(point, services(), plugins);
  }

  /** A framework enabling {@code plugins} at every point they implement (multiPoint), weight 1. */
  static Framework multiPoint(FrameworkServices services, Plugin... plugins) {
    List<Profile.PluginRef> refs = new ArrayList<>();
    for (Plugin p : plugins) {
      refs.add(Profile.PluginRef.of(p.name()));
    }
    return Framework.create(new Profile("test", refs, null, null), registry(plugins), services);
  }

  static CycleState state(NodeInfo... nodes) {
    return new CycleState(io.schedext.cache.Snapshot.of(List.of(nodes)));
  }
}
