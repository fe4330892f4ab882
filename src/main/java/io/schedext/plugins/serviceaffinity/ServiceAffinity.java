package io.schedext.plugins.serviceaffinity;

import io.fabric8.kubernetes.api.model.Service;
import io.schedext.framework.ClusterObjects;
import io.schedext.framework.CycleState;
import io.schedext.framework.FilterPlugin;
import io.schedext.framework.FrameworkException;
import io.schedext.framework.Handle;
import io.schedext.framework.NodeInfo;
import io.schedext.framework.NodeScores;
import io.schedext.framework.PluginArgs;
import io.schedext.framework.PodInfo;
import io.schedext.framework.PreFilterExtensions;
import io.schedext.framework.PreFilterPlugin;
import io.schedext.framework.PreFilterResult;
import io.schedext.framework.PreScorePlugin;
import io.schedext.framework.ScoreExtensions;
import io.schedext.framework.ScorePlugin;
import io.schedext.framework.StateData;
import io.schedext.framework.Status;
import io.schedext.kube.Selector;
import io.schedext.plugins.Names;
import io.schedext.plugins.helper.DefaultSelector;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The legacy ServiceAffinity plugin (removed upstream in v1.23), as it behaved in v1.22. Filter
 * keeps the pods of a service on nodes that share the values of the configured affinity labels:
 * values the pod's node selector does not fix are copied from the node of the first existing pod
 * like it. Score counts the pods of the pod's first service on each node and NormalizeScore spreads
 * them over the values of the anti-affinity labels (the old ServiceAntiAffinity priority). Off by
 * default.
 */
public final class ServiceAffinity
    implements PreFilterPlugin,
        PreFilterExtensions,
        FilterPlugin,
        PreScorePlugin,
        ScorePlugin,
        ScoreExtensions {

  /** The reason when a node's affinity label values differ from those of the service's pods. */
  public static final String ERR_REASON = "node(s) didn't match service affinity";

  static final String PRE_FILTER_STATE_KEY = "PreFilter" + Names.SERVICE_AFFINITY;
  static final String PRE_SCORE_STATE_KEY = "PreScore" + Names.SERVICE_AFFINITY;

  private static final Status MISMATCH =
      Status.unschedulable(ERR_REASON).withPlugin(Names.SERVICE_AFFINITY);
  private static final Status NODE_NOT_FOUND =
      Status.error("node not found").withPlugin(Names.SERVICE_AFFINITY);
  private static final Status STATE_NOT_FOUND =
      Status.error("error reading \"" + PRE_FILTER_STATE_KEY + "\" from cycleState: not found")
          .withPlugin(Names.SERVICE_AFFINITY);

  private final ServiceAffinityArgs args;
  private final ClusterObjects cluster;

  private ServiceAffinity(ServiceAffinityArgs args, ClusterObjects cluster) {
    this.args = args;
    this.cluster = cluster;
  }

  @Override
  public String name() {
    return Names.SERVICE_AFFINITY;
  }

  /**
   * Collects the services selecting the pod and every same-namespace pod of the snapshot whose
   * labels include all of the pod's labels; does nothing when no affinity label is configured.
   */
  @Override
  public PreFilterResult preFilter(CycleState state, PodInfo pod) {
    if (args.affinityLabels().isEmpty()) {
      return PreFilterResult.success();
    }
    List<Service> services = List.copyOf(DefaultSelector.podServices(pod, cluster));
    Selector podLabels = Selector.fromSet(pod.labels());
    List<PodInfo> matching = new ArrayList<>();
    for (NodeInfo n : state.snapshot().list()) {
      for (PodInfo p : n.pods()) {
        if (p.namespace().equals(pod.namespace()) && podLabels.matches(p.labels())) {
          matching.add(p);
        }
      }
    }
    state.write(
        PRE_FILTER_STATE_KEY, new PreFilterState(services, podLabels, fixedLabels(pod), matching));
    return PreFilterResult.success();
  }

  /** The affinity labels the pod's node selector sets, with their values. */
  private Map<String, String> fixedLabels(PodInfo pod) {
    Map<String, String> selector =
        pod.pod().getSpec() == null ? null : pod.pod().getSpec().getNodeSelector();
    Map<String, String> out = new HashMap<>();
    if (selector != null) {
      for (String l : args.affinityLabels()) {
        if (selector.containsKey(l)) {
          String v = selector.get(l);
          out.put(l, v == null ? "" : v);
        }
      }
    }
    return Map.copyOf(out);
  }

  /**
   * This plugin as its own extensions, or null when no affinity label is configured (PreFilter kept
   * no state).
   */
  @Override
  public PreFilterExtensions preFilterExtensions() {
    return args.affinityLabels().isEmpty() ? null : this;
  }

  /**
   * Adds {@code podToAdd} to the matching pods when it is in the pod's namespace and carries all
   * its labels.
   */
  @Override
  public Status addPod(CycleState state, PodInfo podToSchedule, PodInfo podToAdd, NodeInfo node) {
    StateData d = state.readOrNull(PRE_FILTER_STATE_KEY);
    if (!(d instanceof PreFilterState s)) {
      return stateError(d);
    }
    if (podToAdd.namespace().equals(podToSchedule.namespace())
        && s.podLabels.matches(podToAdd.labels())) {
      s.matchingPods.add(podToAdd);
    }
    return Status.success();
  }

  /** Removes the first matching pod with {@code podToRemove}'s namespace and name. */
  @Override
  public Status removePod(
      CycleState state, PodInfo podToSchedule, PodInfo podToRemove, NodeInfo node) {
    StateData d = state.readOrNull(PRE_FILTER_STATE_KEY);
    if (!(d instanceof PreFilterState s)) {
      return stateError(d);
    }
    List<PodInfo> pods = s.matchingPods;
    // As upstream, the namespace is compared with the first matching pod's (all share the incoming
    // pod's).
    if (pods.isEmpty() || !podToRemove.namespace().equals(pods.get(0).namespace())) {
      return Status.success();
    }
    for (int i = 0; i < pods.size(); i++) {
      PodInfo p = pods.get(i);
      if (p.name().equals(podToRemove.name()) && p.namespace().equals(podToRemove.namespace())) {
        pods.remove(i);
        break;
      }
    }
    return Status.success();
  }

  /**
   * Requires the node to carry every affinity label value the pod fixes: from its node selector
   * first, else (when a service selects the pod) from the node of the first matching pod still
   * present in this simulation.
   */
  @Override
  public Status filter(CycleState state, PodInfo pod, NodeInfo node) {
    List<String> affinityLabels = args.affinityLabels();
    if (affinityLabels.isEmpty()) {
      return Status.success();
    }
    if (node.node() == null) {
      return NODE_NOT_FOUND;
    }
    StateData d = state.readOrNull(PRE_FILTER_STATE_KEY);
    if (!(d instanceof PreFilterState s)) {
      return stateError(d);
    }
    Map<String, String> fixed = s.fixedLabels;
    Map<String, String> backfill = null;
    if (affinityLabels.size() > fixed.size() && !s.services.isEmpty()) {
      PodInfo first = firstPresent(s.matchingPods, node);
      if (first != null) {
        // A nominated pod has no node name yet; upstream's lookup fails for it the same way.
        NodeInfo source = state.snapshot().get(first.nodeName());
        if (source == null) {
          return NODE_NOT_FOUND;
        }
        backfill = source.labels();
      }
    }
    Map<String, String> nodeLabels = node.labels();
    for (String l : affinityLabels) {
      String want = fixed.get(l);
      if (want == null && backfill != null && backfill.containsKey(l)) {
        want = nullToEmpty(backfill.get(l));
      }
      if (want != null
          && !(nodeLabels.containsKey(l) && want.equals(nullToEmpty(nodeLabels.get(l))))) {
        return MISMATCH;
      }
    }
    return Status.success();
  }

  /**
   * The first pod of {@code pods} that is either on another node or still present on {@code node},
   * as upstream's {@code NodeInfo.FilterOutPods}: a pod removed from the node in a preemption
   * simulation no longer counts (and a pod on this node without a UID never does).
   */
  private static PodInfo firstPresent(List<PodInfo> pods, NodeInfo node) {
    for (PodInfo p : pods) {
      if (!p.nodeName().equals(node.name())) {
        return p;
      }
      if (p.uid().isEmpty()) {
        continue;
      }
      for (PodInfo np : node.pods()) {
        if (np.uid().equals(p.uid())) {
          return p;
        }
      }
    }
    return null;
  }

  private static Status stateError(StateData d) {
    if (d == null) {
      return STATE_NOT_FOUND;
    }
    // v1.22's text, including its double space and the other plugin's name.
    return Status.error(d + "  convert to interpodaffinity.state error")
        .withPlugin(Names.SERVICE_AFFINITY);
  }

  /**
   * Resolves the selector of the first service selecting the pod once for the whole Score phase.
   */
  @Override
  public Status preScore(CycleState state, PodInfo pod, List<NodeInfo> nodes) {
    state.write(PRE_SCORE_STATE_KEY, new ScoreState(firstServiceSelector(pod)));
    return Status.success();
  }

  private Selector firstServiceSelector(PodInfo pod) {
    List<Service> services = DefaultSelector.podServices(pod, cluster);
    return services.isEmpty() ? null : Selector.fromSet(services.get(0).getSpec().getSelector());
  }

  /**
   * The number of non-terminating pods in the pod's namespace on the node that the first service
   * selecting the pod selects; 0 without a service or with an empty service selector.
   */
  @Override
  public long score(CycleState state, PodInfo pod, NodeInfo node) {
    if (node.node() == null) {
      throw new FrameworkException("node not found");
    }
    // Upstream has no PreScore: when this plugin is enabled at Score only, resolve the service here
    // instead.
    Selector selector =
        state.readOrNull(PRE_SCORE_STATE_KEY) instanceof ScoreState s
            ? s.firstServiceSelector
            : firstServiceSelector(pod);
    if (node.pods().isEmpty() || selector == null || selector.isEverything()) {
      return 0;
    }
    long score = 0;
    for (PodInfo p : node.pods()) {
      if (pod.namespace().equals(p.namespace())
          && !p.terminating()
          && selector.matches(p.labels())) {
        score++;
      }
    }
    return score;
  }

  @Override
  public ScoreExtensions scoreExtensions() {
    return this;
  }

  /**
   * Replaces the counts by the anti-affinity spreading scores (see {@link AntiAffinityNormalizer}).
   */
  @Override
  public Status normalizeScore(CycleState state, PodInfo pod, NodeScores scores) {
    AntiAffinityNormalizer.normalize(args.antiAffinityLabelsPreference(), scores);
    return Status.success();
  }

  private static String nullToEmpty(String s) {
    return s == null ? "" : s;
  }

  /**
   * The factory registered under {@link Names#SERVICE_AFFINITY}; v1.22 did not validate these args.
   */
  public static ServiceAffinity create(PluginArgs args, Handle handle) {
    ServiceAffinityArgs a =
        args == null ? new ServiceAffinityArgs(null, null) : args.as(ServiceAffinityArgs.class);
    return new ServiceAffinity(a, handle.clusterObjects());
  }
}
