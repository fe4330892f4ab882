package io.schedext.extender;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Pod;
import io.schedext.bench.SyntheticCluster;
import io.schedext.cache.SchedulerCache;
import io.schedext.cache.Snapshot;
import io.schedext.cluster.ClusterSource;
import io.schedext.cluster.ObjectStore;
import io.schedext.extender.wire.ExtenderArgs;
import io.schedext.extender.wire.ExtenderFilterResult;
import io.schedext.extender.wire.HostPriority;
import io.schedext.framework.CycleState;
import io.schedext.framework.NodeInfo;
import io.schedext.framework.PodInfo;
import io.schedext.framework.PreFilterResult;
import io.schedext.framework.Status;
import io.schedext.framework.runtime.Framework;
import io.schedext.framework.runtime.Frameworks;
import io.schedext.profiles.InTreeRegistry;
import io.schedext.profiles.ProfileDefaults;
import io.schedext.testing.FixedSource;
import io.schedext.testing.TestFrameworks;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * For generated clusters and pods: every plugin's verdict agrees across filter, prioritize and
 * explain, and the PreFilter extensions (AddPod/RemovePod) followed by Filter agree with
 * recomputing PreFilter on a snapshot that really holds, or lacks, that pod.
 */
class RandomizedConsistencyTest {

  static Stream<Long> seeds() {
    return IntStream.range(0, 6).mapToObj(i -> 1000L + i);
  }

  private record World(
      SchedulerCache cache,
      ObjectStore store,
      Framework framework,
      VerbHarness service,
      List<String> nodeNames,
      SyntheticCluster cluster) {}

  private static World world(long seed) {
    SyntheticCluster cluster = SyntheticCluster.build(24, 6, seed);
    SchedulerCache cache = new SchedulerCache(Clock.systemUTC(), Duration.ZERO);
    ObjectStore store = new ObjectStore();
    List<String> names = new ArrayList<>();
    for (HasMetadata o : cluster.objects()) {
      if (o instanceof Node n) {
        cache.addNode(n);
        names.add(n.getMetadata().getName());
      } else if (o instanceof Pod p) {
        cache.addPod(PodInfo.of(p));
      } else {
        store.put(o);
      }
    }
    var registry = InTreeRegistry.create();
    Framework fw =
        Framework.create(
            ProfileDefaults.profile(ProfileDefaults.NAME, registry.names()),
            registry,
            TestFrameworks.services(store));
    ClusterSource source = FixedSource.ready();
    VerbHarness service =
        new VerbHarness(
            cache,
            source,
            new Frameworks(Map.of(fw.profileName(), fw), fw.profileName()),
            TestFrameworks.services(store).parallelizer(),
            new SeenPods(100, Duration.ofMinutes(1), System::nanoTime),
            new ExtenderMetrics(new io.micrometer.core.instrument.simple.SimpleMeterRegistry()));
    return new World(cache, store, fw, service, names, cluster);
  }

  private static List<Pod> pods(long seed) {
    Random r = new Random(seed);
    List<Pod> out = new ArrayList<>();
    for (SyntheticCluster.Kind k : SyntheticCluster.Kind.values()) {
      out.add(SyntheticCluster.pending(k, r.nextInt(1000)));
    }
    return out;
  }

  @ParameterizedTest(name = "seed {0}")
  @MethodSource("seeds")
  void filterPrioritizeAndExplainAgreeOnEveryNode(long seed) {
    World w = world(seed);
    for (Pod pod : pods(seed)) {
      ExtenderArgs args = new ExtenderArgs(pod, null, w.nodeNames());
      ExtenderFilterResult f = w.service().filter(null, args);
      Explanation e = w.service().explain(null, args);
      assertThat(f.error()).isEmpty();
      assertThat(e.feasibleNodes())
          .as("feasible nodes of " + pod.getMetadata().getName())
          .containsExactlyElementsOf(f.nodeNames());
      for (Explanation.NodeVerdict v : e.nodes()) {
        if (v.feasible()) {
          continue;
        }
        // filter stops at a node's first rejection; explain lists them all in the same order.
        Explanation.PluginStatus first =
            v.filters().stream().filter(s -> !s.code().equals("Success")).findFirst().orElseThrow();
        String message = String.join(", ", first.reasons());
        String got =
            first.code().equals("Unschedulable")
                ? f.failedNodes().get(v.node())
                : f.failedAndUnresolvableNodes().get(v.node());
        assertThat(got).as(pod.getMetadata().getName() + " on " + v.node()).isEqualTo(message);
      }
      if (f.nodeNames().isEmpty()) {
        continue;
      }
      List<HostPriority> p =
          w.service().prioritize(null, new ExtenderArgs(pod, null, f.nodeNames()));
      Map<String, Long> byNode = new HashMap<>();
      e.nodes().stream()
          .filter(Explanation.NodeVerdict::feasible)
          .forEach(v -> byNode.put(v.node(), v.extenderScore()));
      for (HostPriority h : p) {
        assertThat(h.score())
            .as("score of " + h.host() + " for " + pod.getMetadata().getName())
            .isEqualTo(byNode.get(h.host()));
      }
    }
  }

  @ParameterizedTest(name = "seed {0}")
  @MethodSource("seeds")
  void removePodThenFilterEqualsASnapshotWithoutThePod(long seed) {
    World w = world(seed);
    Random r = new Random(seed);
    List<Pod> running = w.cluster().pods();
    for (Pod incoming : pods(seed)) {
      PodInfo pod = PodInfo.of(incoming);
      PodInfo victim = PodInfo.of(running.get(r.nextInt(running.size())));
      Snapshot with = w.cache().snapshot();
      CycleState state = w.framework().newCycleState(with);
      PreFilterResult pre = w.framework().runPreFilterPlugins(state, pod);
      Map<String, Status> simulated = new HashMap<>();
      if (pre.status().isSuccess()) {
        for (NodeInfo n : with.list()) {
          CycleState copy = state.copy();
          NodeInfo node = n.snapshotCopy();
          if (node.name().equals(victim.nodeName())) {
            node.removePod(victim.uid());
          }
          assertThat(
                  w.framework()
                      .runPreFilterExtensionRemovePod(
                          copy, pod, victim, with.get(victim.nodeName()))
                      .isSuccess())
              .isTrue();
          simulated.put(n.name(), w.framework().runFilterPlugins(copy, pod, node));
        }
      }
      w.cache().removePod(victim);
      Map<String, Status> real = filterAll(w, pod);
      w.cache().addPod(victim);
      if (pre.status().isSuccess()) {
        assertThat(simulated).as("removing " + victim + " before filtering " + pod).isEqualTo(real);
      }
    }
  }

  @ParameterizedTest(name = "seed {0}")
  @MethodSource("seeds")
  void addPodThenFilterEqualsASnapshotWithThePod(long seed) {
    World w = world(seed);
    Random r = new Random(seed + 7);
    for (Pod incoming : pods(seed)) {
      PodInfo pod = PodInfo.of(incoming);
      String target = w.nodeNames().get(r.nextInt(w.nodeNames().size()));
      Pod extra =
          SyntheticCluster.pending(
              SyntheticCluster.Kind.values()[r.nextInt(4)], 5000 + r.nextInt(1000));
      extra.getSpec().setNodeName(target);
      PodInfo added = PodInfo.of(extra);
      Snapshot without = w.cache().snapshot();
      CycleState state = w.framework().newCycleState(without);
      PreFilterResult pre = w.framework().runPreFilterPlugins(state, pod);
      Map<String, Status> simulated = new HashMap<>();
      if (pre.status().isSuccess()) {
        for (NodeInfo n : without.list()) {
          CycleState copy = state.copy();
          NodeInfo node = n.snapshotCopy();
          if (node.name().equals(target)) {
            node.addPod(added);
          }
          NodeInfo targetInfo = without.get(target).snapshotCopy();
          targetInfo.addPod(added);
          assertThat(
                  w.framework()
                      .runPreFilterExtensionAddPod(copy, pod, added, targetInfo)
                      .isSuccess())
              .isTrue();
          simulated.put(n.name(), w.framework().runFilterPlugins(copy, pod, node));
        }
      }
      w.cache().addPod(added);
      Map<String, Status> real = filterAll(w, pod);
      Map<String, Status> skipped = filterAll(w, pod, state.skipFilterPlugins());
      w.cache().removePod(added);
      if (pre.status().isSuccess()) {
        for (String node : real.keySet()) {
          Status sim = simulated.get(node);
          Status want = real.get(node);
          if (want.equals(sim)) {
            continue;
          }
          // Upstream's rule: a plugin whose PreFilter said Skip gets no AddPod either, so a
          // nominated pod cannot make it reject (e.g. InterPodAffinity skipped because no existing
          // pod's anti-affinity mattered yet).
          assertThat(state.skipFilterPlugins())
              .as(
                  "adding "
                      + added
                      + " before filtering "
                      + pod
                      + " on "
                      + node
                      + ": "
                      + sim
                      + " vs "
                      + want)
              .contains(want.plugin());
          // Past the skipped plugin, the node's verdict is the rest's (e.g. a later plugin's
          // rejection).
          assertThat(sim)
              .as("adding " + added + " before filtering " + pod + " on " + node)
              .isEqualTo(skipped.get(node));
        }
      }
    }
  }

  private static Map<String, Status> filterAll(World w, PodInfo pod) {
    return filterAll(w, pod, Set.of());
  }

  /** Filters {@code pod} on every node of a fresh snapshot, without the plugins {@code skip}. */
  private static Map<String, Status> filterAll(World w, PodInfo pod, Set<String> skip) {
    Snapshot s = w.cache().snapshot();
    CycleState state = w.framework().newCycleState(s);
    PreFilterResult pre = w.framework().runPreFilterPlugins(state, pod);
    state.skipFilterPlugins().addAll(skip);
    Map<String, Status> out = new HashMap<>();
    for (NodeInfo n : s.list()) {
      out.put(
          n.name(),
          pre.status().isSuccess() ? w.framework().runFilterPlugins(state, pod, n) : pre.status());
    }
    return out;
  }
}
