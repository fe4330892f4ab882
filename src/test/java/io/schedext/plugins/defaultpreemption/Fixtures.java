package io.schedext.plugins.defaultpreemption;

import com.fasterxml.jackson.databind.JsonNode;
import io.fabric8.kubernetes.api.model.LabelSelector;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodCondition;
import io.fabric8.kubernetes.api.model.policy.v1.PodDisruptionBudget;
import io.fabric8.kubernetes.api.model.policy.v1.PodDisruptionBudgetSpec;
import io.fabric8.kubernetes.api.model.policy.v1.PodDisruptionBudgetStatus;
import io.schedext.cluster.ObjectStore;
import io.schedext.framework.Code;
import io.schedext.framework.CycleState;
import io.schedext.framework.FilterPlugin;
import io.schedext.framework.FrameworkException;
import io.schedext.framework.FrameworkMetrics;
import io.schedext.framework.NodeInfo;
import io.schedext.framework.PodInfo;
import io.schedext.framework.PodNominator;
import io.schedext.framework.PreFilterExtensions;
import io.schedext.framework.PreFilterPlugin;
import io.schedext.framework.PreFilterResult;
import io.schedext.framework.Profile;
import io.schedext.framework.Registry;
import io.schedext.framework.Status;
import io.schedext.framework.parallelize.Parallelizer;
import io.schedext.framework.runtime.Framework;
import io.schedext.framework.runtime.FrameworkServices;
import io.schedext.framework.runtime.ScheduledTimers;
import io.schedext.framework.runtime.WaitingPodsMap;
import io.schedext.profiles.InTreeRegistry;
import io.schedext.testing.MakeNode;
import io.schedext.testing.MakePod;
import io.schedext.testing.NodeWrapper;
import io.schedext.testing.PodWrapper;
import io.schedext.testing.TestFrameworks;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BiFunction;
import java.util.function.IntUnaryOperator;

/**
 * Shared pods, nodes, budgets and frameworks for the preemption tests, in upstream's sizes and
 * priorities.
 */
final class Fixtures {

  static final int NEG = -100;
  static final int LOW = 0;
  static final int MID = 100;
  static final int HIGH = 1000;
  static final int VERY_HIGH = 10000;

  static final Map<String, String> SMALL = Map.of("cpu", "100m", "memory", "100");
  static final Map<String, String> MEDIUM = Map.of("cpu", "200m", "memory", "200");
  static final Map<String, String> LARGE = Map.of("cpu", "300m", "memory", "300");
  static final Map<String, String> VERY_LARGE = Map.of("cpu", "500m", "memory", "500");
  static final Map<String, String> ONE_POD = Map.of("pods", "1");

  /** The tests' wall clock; pods without a start time started at this instant. */
  static final Instant NOW = Instant.parse("2026-01-01T00:00:00Z");

  static final String FAKE_FILTER = "FakeFilter";
  static final String TEST_PLUGIN = "test-plugin";
  static final String TRUE_FILTER = "TrueFilter";
  static final String FALSE_FILTER = "FalseFilter";
  static final String MATCH_FILTER = "MatchFilter";
  static final String FAKE_REASON = "Nodes failed the fake plugin";

  private static final Parallelizer SERIAL = new Parallelizer(1);
  private static final ScheduledTimers TIMERS = new ScheduledTimers();

  private Fixtures() {}

  /** A pod named and identified by {@code name} with {@code priority}, in namespace default. */
  static PodWrapper pod(String name, int priority) {
    return MakePod.pod().name(name).uid(name).priority(priority);
  }

  /**
   * A node with these resources and, unless they say otherwise, room for 32 pods (as upstream's
   * MakeNode).
   */
  static NodeWrapper node(String name, Map<String, String> resources) {
    Map<String, String> r = new HashMap<>(Map.of("pods", "32"));
    r.putAll(resources);
    return MakeNode.node().name(name).label("hostname", name).capacity(r);
  }

  /** Upstream's {@code time.Unix(0, nanos)} as an RFC 3339 start time. */
  static String epoch(int nanos) {
    return Instant.ofEpochSecond(0, nanos).toString();
  }

  /** The node infos of {@code nodes} holding the {@code pods} assigned to them, in node order. */
  static List<NodeInfo> nodeInfos(List<Node> nodes, List<Pod> pods) {
    Map<String, NodeInfo> byName = new LinkedHashMap<>();
    for (Node n : nodes) {
      byName.put(n.getMetadata().getName(), NodeInfo.of(n));
    }
    for (Pod p : pods) {
      NodeInfo n = byName.get(p.getSpec().getNodeName());
      if (n != null) {
        n.addPod(PodInfo.of(p));
      }
    }
    return new ArrayList<>(byName.values());
  }

  /** A policy/v1 budget in namespace default over pods with {@code labels}. */
  static PodDisruptionBudget pdb(
      String name, Map<String, String> labels, int allowed, String... disruptedPods) {
    LabelSelector sel = labels == null ? null : new LabelSelector(null, new HashMap<>(labels));
    return pdb(name, "default", sel, allowed, disruptedPods);
  }

  /** A policy/v1 budget as given. */
  static PodDisruptionBudget pdb(
      String name, String namespace, LabelSelector selector, int allowed, String... disruptedPods) {
    PodDisruptionBudget b = new PodDisruptionBudget();
    b.setMetadata(new ObjectMeta());
    b.getMetadata().setName(name);
    b.getMetadata().setNamespace(namespace);
    b.setSpec(new PodDisruptionBudgetSpec());
    b.getSpec().setSelector(selector);
    b.setStatus(new PodDisruptionBudgetStatus());
    b.getStatus().setDisruptionsAllowed(allowed);
    Map<String, String> disrupted = new LinkedHashMap<>();
    for (String p : disruptedPods) {
      disrupted.put(p, "2026-01-01T00:00:00Z");
    }
    b.getStatus().setDisruptedPods(disrupted);
    return b;
  }

  /**
   * Marks {@code pod} as evicted by the scheduler: deleting, with DisruptionTarget=True
   * PreemptionByScheduler.
   */
  static PodWrapper preemptedByScheduler(PodWrapper pod) {
    Pod p = pod.terminating().obj();
    PodCondition c = new PodCondition();
    c.setType("DisruptionTarget");
    c.setStatus("True");
    c.setReason("PreemptionByScheduler");
    p.getStatus().setConditions(new ArrayList<>(List.of(c)));
    return pod;
  }

  /**
   * A nominator holding exactly {@code pods}, each nominated to its {@code
   * status.nominatedNodeName}.
   */
  static PodNominator nominator(List<Pod> pods) {
    Map<String, List<PodInfo>> byNode = new HashMap<>();
    for (Pod p : pods) {
      byNode
          .computeIfAbsent(p.getStatus().getNominatedNodeName(), k -> new ArrayList<>())
          .add(PodInfo.of(p));
    }
    return node -> byNode.getOrDefault(node, List.of());
  }

  /**
   * A framework running {@code plugins} (multiPoint, in order) from the in-tree registry plus the
   * test plugins, with DefaultPreemption starting its dry runs at the offsets {@code offsets}
   * gives, one node at a time, at {@link #NOW}.
   */
  static Framework framework(
      ObjectStore store,
      PodNominator nominator,
      IntUnaryOperator offsets,
      String preemptionArgs,
      List<String> plugins,
      FakeFilter fake) {
    Registry registry =
        InTreeRegistry.create()
            .unregister(DefaultPreemption.NAME)
            .register(DefaultPreemption.NAME, (a, h) -> DefaultPreemption.create(a, h, offsets))
            .register(TEST_PLUGIN, (a, h) -> new FailingExtensions())
            .register(FAKE_FILTER, (a, h) -> fake == null ? new FakeFilter(Code.SUCCESS) : fake)
            .register(
                TRUE_FILTER, (a, h) -> new NamedFilter(TRUE_FILTER, (p, n) -> Status.success()))
            .register(
                FALSE_FILTER,
                (a, h) ->
                    new NamedFilter(FALSE_FILTER, (p, n) -> Status.unschedulable(FAKE_REASON)))
            .register(
                MATCH_FILTER,
                (a, h) ->
                    new NamedFilter(
                        MATCH_FILTER,
                        (p, n) ->
                            p.name().equals(n.name())
                                ? Status.success()
                                : Status.unschedulable(FAKE_REASON)));
    Map<String, JsonNode> args =
        preemptionArgs == null
            ? Map.of()
            : Map.of(DefaultPreemption.NAME, TestFrameworks.json(preemptionArgs));
    Profile profile =
        new Profile("test", plugins.stream().map(Profile.PluginRef::of).toList(), Map.of(), args);
    FrameworkServices services =
        new FrameworkServices(
            store,
            (pod, node) -> {
              throw new FrameworkException("binding is not available in this test");
            },
            SERIAL,
            nominator,
            Clock.fixed(NOW, ZoneOffset.UTC),
            TIMERS,
            new WaitingPodsMap(),
            FrameworkMetrics.NONE);
    return Framework.create(profile, registry, services);
  }

  /** A filter answering with a function of the pod and node. */
  record NamedFilter(String name, BiFunction<PodInfo, NodeInfo, Status> answer)
      implements FilterPlugin {
    @Override
    public Status filter(CycleState state, PodInfo pod, NodeInfo node) {
      return answer.apply(pod, node);
    }
  }

  /** Counts its calls and answers every node with one code (upstream's FakeFilterPlugin). */
  static final class FakeFilter implements FilterPlugin {
    private final Code code;
    final AtomicInteger calls = new AtomicInteger();

    FakeFilter(Code code) {
      this.code = code;
    }

    @Override
    public String name() {
      return FAKE_FILTER;
    }

    @Override
    public Status filter(CycleState state, PodInfo pod, NodeInfo node) {
      calls.incrementAndGet();
      return code == Code.SUCCESS
          ? Status.success()
          : Status.of(code, "injecting failure for pod " + pod.name());
    }
  }

  /**
   * A PreFilter whose AddPod/RemovePod fail on nodes labelled {@code error=true} (upstream's
   * TestPlugin).
   */
  static final class FailingExtensions implements PreFilterPlugin, PreFilterExtensions {
    @Override
    public String name() {
      return TEST_PLUGIN;
    }

    @Override
    public PreFilterResult preFilter(CycleState state, PodInfo pod) {
      return PreFilterResult.success();
    }

    @Override
    public PreFilterExtensions preFilterExtensions() {
      return this;
    }

    @Override
    public Status addPod(CycleState state, PodInfo podToSchedule, PodInfo podToAdd, NodeInfo node) {
      return "true".equals(node.labels().get("error"))
          ? Status.error("failed to add pod: " + podToSchedule.name())
          : Status.success();
    }

    @Override
    public Status removePod(
        CycleState state, PodInfo podToSchedule, PodInfo podToRemove, NodeInfo node) {
      return "true".equals(node.labels().get("error"))
          ? Status.error("failed to remove pod: " + podToSchedule.name())
          : Status.success();
    }
  }
}
