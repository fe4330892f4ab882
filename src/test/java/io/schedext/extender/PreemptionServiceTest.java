package io.schedext.extender;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.LabelSelector;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.policy.v1.PodDisruptionBudget;
import io.fabric8.kubernetes.api.model.policy.v1.PodDisruptionBudgetSpec;
import io.fabric8.kubernetes.api.model.policy.v1.PodDisruptionBudgetStatus;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.schedext.cache.SchedulerCache;
import io.schedext.cache.VictimsInFlight;
import io.schedext.cluster.ObjectStore;
import io.schedext.extender.wire.ExtenderPreemptionArgs;
import io.schedext.extender.wire.MetaPod;
import io.schedext.extender.wire.MetaVictims;
import io.schedext.extender.wire.Victims;
import io.schedext.framework.FrameworkException;
import io.schedext.framework.FrameworkMetrics;
import io.schedext.framework.PodInfo;
import io.schedext.framework.PodNominator;
import io.schedext.framework.Registry;
import io.schedext.framework.parallelize.Parallelizer;
import io.schedext.framework.runtime.Framework;
import io.schedext.framework.runtime.FrameworkServices;
import io.schedext.framework.runtime.ScheduledTimers;
import io.schedext.framework.runtime.WaitingPodsMap;
import io.schedext.profiles.InTreeRegistry;
import io.schedext.profiles.ProfileDefaults;
import io.schedext.testing.MakeNode;
import io.schedext.testing.MakePod;
import io.schedext.testing.PodWrapper;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The preempt verb over the default profile: kube-scheduler proposes victims per node, the service
 * answers the nodes where those victims make room, with only the victims really needed (reprieved
 * as DefaultPreemption does), by UID. Nodes offer 1 cpu, 1Gi and 10 pods unless a case says
 * otherwise; the preemptor has priority 1000.
 */
class PreemptionServiceTest {

  private static final int LOW = 0;
  private static final int MID = 100;
  private static final int HIGH = 1000;
  private static final Instant NOW = Instant.parse("2026-01-01T00:00:00Z");

  record Case(
      String name,
      PodWrapper preemptor,
      List<Node> nodes,
      List<Pod> pods,
      List<PodDisruptionBudget> pdbs,
      List<Pod> nominated,
      Map<String, List<String>> proposed,
      boolean fullPods,
      Map<String, MetaVictims> want) {
    @Override
    public String toString() {
      return name;
    }
  }

  private static Node node(String name) {
    return MakeNode.node()
        .name(name)
        .label("hostname", name)
        .capacity(Map.of("cpu", "1", "memory", "1Gi", "pods", "10"))
        .obj();
  }

  private static PodWrapper pod(String name, int priority, String node, String cpu) {
    return MakePod.pod()
        .name(name)
        .uid("uid-" + name)
        .priority(priority)
        .node(node)
        .req(Map.of("cpu", cpu));
  }

  private static PodWrapper preemptor(String cpu) {
    return MakePod.pod().name("p").uid("uid-p").priority(HIGH).req(Map.of("cpu", cpu));
  }

  private static MetaVictims victims(int pdbViolations, String... names) {
    List<MetaPod> pods = new ArrayList<>();
    for (String n : names) {
      pods.add(new MetaPod("uid-" + n));
    }
    return new MetaVictims(pods, pdbViolations);
  }

  private static Map<String, List<String>> propose(String node, String... names) {
    Map<String, List<String>> m = new LinkedHashMap<>();
    m.put(node, List.of(names));
    return m;
  }

  private static PodDisruptionBudget pdb(String app, int allowed) {
    PodDisruptionBudget b = new PodDisruptionBudget();
    b.setMetadata(new ObjectMeta());
    b.getMetadata().setName("pdb-" + app);
    b.getMetadata().setNamespace("default");
    b.setSpec(new PodDisruptionBudgetSpec());
    b.getSpec().setSelector(new LabelSelector(null, Map.of("app", app)));
    b.setStatus(new PodDisruptionBudgetStatus());
    b.getStatus().setDisruptionsAllowed(allowed);
    return b;
  }

  private static Case simple(
      String name,
      PodWrapper preemptor,
      List<Pod> pods,
      Map<String, List<String>> proposed,
      Map<String, MetaVictims> want) {
    return new Case(
        name,
        preemptor,
        List.of(node("n1"), node("n2")),
        pods,
        List.of(),
        List.of(),
        proposed,
        false,
        want);
  }

  static Stream<Case> cases() {
    List<Pod> n1Full =
        List.of(pod("a", LOW, "n1", "600m").obj(), pod("b", LOW, "n1", "300m").obj());
    Map<String, List<String>> both = new LinkedHashMap<>(propose("n1", "a"));
    both.put("n2", List.of("c"));
    Map<String, List<String>> withUnknownNode = new LinkedHashMap<>(propose("n1", "a"));
    withUnknownNode.put("ghost", List.of("a"));
    return Stream.of(
        simple(
            "the one victim needed is answered as proposed",
            preemptor("500m"),
            n1Full,
            propose("n1", "a"),
            Map.of("n1", victims(0, "a"))),
        simple(
            "a proposed victim the pod does not need is reprieved: only the bigger pod goes",
            preemptor("500m"),
            n1Full,
            propose("n1", "a", "b"),
            Map.of("n1", victims(0, "a"))),
        simple(
            "victims are answered most important first",
            preemptor("1"),
            List.of(pod("a", LOW, "n1", "600m").obj(), pod("b", MID, "n1", "300m").obj()),
            propose("n1", "a", "b"),
            Map.of("n1", victims(0, "b", "a"))),
        simple(
            "a node where the pod fits without evicting anything is left out",
            preemptor("100m"),
            n1Full,
            propose("n1", "b"),
            Map.of()),
        simple(
            "a node where the proposed victims do not make enough room is left out",
            preemptor("500m"),
            n1Full,
            propose("n1", "b"),
            Map.of()),
        simple(
            "a proposed UID running on another node is ignored, leaving the node without victims",
            preemptor("500m"),
            List.of(pod("a", LOW, "n1", "600m").obj(), pod("c", LOW, "n2", "600m").obj()),
            propose("n1", "c"),
            Map.of()),
        simple(
            "an unknown UID next to a real victim is dropped from the answer",
            preemptor("500m"),
            n1Full,
            propose("n1", "a", "nobody"),
            Map.of("n1", victims(0, "a"))),
        simple(
            "a node the cache does not know is left out",
            preemptor("500m"),
            n1Full,
            withUnknownNode,
            Map.of("n1", victims(0, "a"))),
        simple(
            "every proposed node is checked on its own",
            preemptor("500m"),
            List.of(pod("a", LOW, "n1", "600m").obj(), pod("c", LOW, "n2", "900m").obj()),
            both,
            Map.of("n1", victims(0, "a"), "n2", victims(0, "c"))),
        new Case(
            "victims sent as full pods are matched by UID",
            preemptor("500m"),
            List.of(node("n1")),
            n1Full,
            List.of(),
            List.of(),
            propose("n1", "a", "b"),
            true,
            Map.of("n1", victims(0, "a"))),
        new Case(
            "PDB violations are recounted: both pods must go, the budget covers a (counted first) but not b, "
                + "which is tried first and answered first",
            preemptor("1"),
            List.of(node("n1")),
            List.of(
                pod("a", LOW, "n1", "600m").label("app", "db").obj(),
                pod("b", LOW, "n1", "300m").label("app", "db").obj()),
            List.of(pdb("db", 1)),
            List.of(),
            propose("n1", "a", "b"),
            false,
            Map.of("n1", victims(1, "b", "a"))),
        new Case(
            "a PDB-protected pod is reprieved before more important unprotected ones, so the last of those goes",
            preemptor("400m"),
            List.of(node("n1")),
            List.of(
                pod("a", LOW, "n1", "300m").label("app", "db").obj(),
                pod("b", MID, "n1", "300m").startTime("2025-01-01T00:00:00Z").obj(),
                pod("c", MID, "n1", "300m").startTime("2025-06-01T00:00:00Z").obj()),
            List.of(pdb("db", 0)),
            List.of(),
            propose("n1", "a", "b", "c"),
            false,
            Map.of("n1", victims(0, "c"))),
        new Case(
            "a pod nominated to the node with a higher priority keeps its room: the node is left out",
            preemptor("500m"),
            List.of(node("n1")),
            n1Full,
            List.of(),
            List.of(
                MakePod.pod()
                    .name("n")
                    .uid("uid-n")
                    .priority(HIGH + 1)
                    .nominatedNodeName("n1")
                    .req(Map.of("cpu", "600m"))
                    .obj()),
            propose("n1", "a", "b"),
            false,
            Map.of()),
        new Case(
            "with required anti-affinity to one pod, that pod goes even though it is the smaller one",
            preemptor("100m").podAntiAffinityIn("hostname", "app", "web"),
            List.of(node("n1")),
            List.of(
                pod("web", LOW, "n1", "100m").label("app", "web").obj(),
                pod("big", LOW, "n1", "800m").label("app", "other").obj()),
            List.of(),
            List.of(),
            propose("n1", "web", "big"),
            false,
            Map.of("n1", victims(0, "web"))),
        new Case(
            "spread over zones is restored by removing a matching pod from zone z1; the unlabelled, more "
                + "important neighbour is reprieved",
            preemptor("100m")
                .label("foo", "")
                .spreadConstraint(1, "zone", "DoNotSchedule", PodWrapper.existsSelector("foo")),
            List.of(
                MakeNode.node()
                    .name("n1")
                    .label("zone", "z1")
                    .capacity(Map.of("cpu", "1", "pods", "10"))
                    .obj(),
                MakeNode.node()
                    .name("n2")
                    .label("zone", "z2")
                    .capacity(Map.of("cpu", "1", "pods", "10"))
                    .obj()),
            List.of(
                pod("s1", LOW, "n1", "100m").label("foo", "").obj(),
                pod("s1b", HIGH, "n1", "100m").label("foo", "").obj(),
                pod("other", MID, "n1", "100m").obj(),
                pod("s2", MID, "n2", "100m").label("foo", "").obj()),
            List.of(),
            List.of(),
            propose("n1", "s1", "other"),
            false,
            Map.of("n1", victims(0, "s1"))));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void preempt(Case c) {
    SchedulerCache cache = new SchedulerCache(Clock.fixed(NOW, ZoneOffset.UTC), Duration.ZERO);
    c.nodes().forEach(cache::addNode);
    c.pods().forEach(p -> cache.addPod(PodInfo.of(p)));
    ObjectStore store = new ObjectStore();
    c.pdbs().forEach(store::put);
    Map<String, List<PodInfo>> nominated = new HashMap<>();
    c.nominated()
        .forEach(
            p ->
                nominated
                    .computeIfAbsent(p.getStatus().getNominatedNodeName(), k -> new ArrayList<>())
                    .add(PodInfo.of(p)));
    PodNominator nominator = n -> nominated.getOrDefault(n, List.of());
    Registry registry = InTreeRegistry.create();
    FrameworkServices services =
        new FrameworkServices(
            store,
            (pod, node) -> {
              throw new FrameworkException("no binding here");
            },
            new Parallelizer(1),
            nominator,
            Clock.fixed(NOW, ZoneOffset.UTC),
            new ScheduledTimers(),
            new WaitingPodsMap(),
            FrameworkMetrics.NONE);
    Framework fw =
        Framework.create(
            ProfileDefaults.profile("default-scheduler", registry.names()), registry, services);

    Map<String, Pod> byName = new HashMap<>();
    c.pods().forEach(p -> byName.put(p.getMetadata().getName(), p));
    ExtenderPreemptionArgs args;
    Pod preemptor = c.preemptor().obj();
    if (c.fullPods()) {
      Map<String, Victims> v = new LinkedHashMap<>();
      c.proposed()
          .forEach(
              (n, names) -> v.put(n, new Victims(names.stream().map(byName::get).toList(), 0)));
      args = new ExtenderPreemptionArgs(preemptor, v, null);
    } else {
      Map<String, MetaVictims> v = new LinkedHashMap<>();
      c.proposed()
          .forEach(
              (n, names) ->
                  v.put(
                      n,
                      new MetaVictims(
                          names.stream().map(x -> new MetaPod("uid-" + x)).toList(), 0)));
      args = new ExtenderPreemptionArgs(preemptor, null, v);
    }

    var reply =
        new PreemptionService(
                new IncomingPods(new SeenPods(10, Duration.ofMinutes(1), System::nanoTime)),
                new ExtenderMetrics(new SimpleMeterRegistry()),
                new VictimsInFlight(Clock.fixed(NOW, ZoneOffset.UTC), Duration.ZERO))
            .preempt(Call.on(fw, cache.snapshot()), args);

    assertThat(reply.nodeNameToMetaVictims()).isEqualTo(c.want());
  }
}
