package io.schedext.plugins.selectorspread;

import io.schedext.framework.ClusterObjects;
import io.schedext.framework.CycleState;
import io.schedext.framework.Handle;
import io.schedext.framework.NodeInfo;
import io.schedext.framework.NodeScores;
import io.schedext.framework.PluginArgs;
import io.schedext.framework.PodInfo;
import io.schedext.framework.PreScorePlugin;
import io.schedext.framework.ScoreExtensions;
import io.schedext.framework.ScorePlugin;
import io.schedext.framework.Status;
import io.schedext.kube.Selector;
import io.schedext.plugins.Names;
import io.schedext.plugins.helper.DefaultSelector;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The legacy SelectorSpread plugin (dropped from the defaults with v1beta2 and later removed
 * upstream), as it behaved in v1.22: spreads the pods of the same Services, ReplicationController,
 * ReplicaSet or StatefulSet over nodes and, when nodes carry zone labels, over zones. Pods with
 * their own topology spread constraints are left to PodTopologySpread. Off by default.
 */
public final class SelectorSpread implements PreScorePlugin, ScorePlugin, ScoreExtensions {

  static final String PRE_SCORE_STATE_KEY = "PreScore" + Names.SELECTOR_SPREAD;

  /**
   * The share of the zone spreading score when zones are known; the node spreading score gets the
   * rest.
   */
  static final double ZONE_WEIGHTING = 2.0 / 3.0;

  private static final String LABEL_BETA_ZONE = "failure-domain.beta.kubernetes.io/zone";
  private static final String LABEL_ZONE = "topology.kubernetes.io/zone";
  private static final String LABEL_BETA_REGION = "failure-domain.beta.kubernetes.io/region";
  private static final String LABEL_REGION = "topology.kubernetes.io/region";

  private final ClusterObjects cluster;

  private SelectorSpread(ClusterObjects cluster) {
    this.cluster = cluster;
  }

  @Override
  public String name() {
    return Names.SELECTOR_SPREAD;
  }

  /**
   * Stores the pod's default selector; does nothing for pods with topology spread constraints. As
   * v1.22, this never returns Skip: Score still runs for such pods and gives every node 0.
   */
  @Override
  public Status preScore(CycleState state, PodInfo pod, List<NodeInfo> nodes) {
    if (skip(pod)) {
      return Status.success();
    }
    state.write(PRE_SCORE_STATE_KEY, new PreScoreState(DefaultSelector.of(pod, cluster)));
    return Status.success();
  }

  /**
   * The number of non-terminating pods in the pod's namespace on the node that the default selector
   * matches; 0 when the selector is empty.
   */
  @Override
  public long score(CycleState state, PodInfo pod, NodeInfo node) {
    if (skip(pod)) {
      return 0;
    }
    Selector selector = state.read(PRE_SCORE_STATE_KEY, PreScoreState.class).selector;
    if (node.pods().isEmpty() || selector.isEverything()) {
      return 0;
    }
    long count = 0;
    for (PodInfo p : node.pods()) {
      if (pod.namespace().equals(p.namespace())
          && !p.terminating()
          && selector.matches(p.labels())) {
        count++;
      }
    }
    return count;
  }

  @Override
  public ScoreExtensions scoreExtensions() {
    return this;
  }

  /**
   * Turns counts into spreading scores: {@code 100 × (maxNode − count) / maxNode} (100 when no node
   * has a matching pod); on a node with a zone key, when any scored node has one, blended as 1/3 of
   * that plus 2/3 of {@code 100 × (maxZone − zoneCount) / maxZone}. Floating point, truncated once,
   * as v1.22.
   */
  @Override
  public Status normalizeScore(CycleState state, PodInfo pod, NodeScores scores) {
    if (skip(pod)) {
      return Status.success();
    }
    int n = scores.size();
    String[] zones = new String[n];
    Map<String, Long> countsByZone = new HashMap<>();
    long maxByNode = 0;
    for (int i = 0; i < n; i++) {
      maxByNode = Math.max(maxByNode, scores.get(i));
      zones[i] = zoneKey(scores.node(i).labels());
      if (!zones[i].isEmpty()) {
        countsByZone.merge(zones[i], scores.get(i), Long::sum);
      }
    }
    long maxByZone = 0;
    for (long c : countsByZone.values()) {
      maxByZone = Math.max(maxByZone, c);
    }
    boolean haveZones = !countsByZone.isEmpty();
    double max = MAX_NODE_SCORE;
    for (int i = 0; i < n; i++) {
      double f = max;
      if (maxByNode > 0) {
        f = max * ((double) (maxByNode - scores.get(i)) / (double) maxByNode);
      }
      if (haveZones && !zones[i].isEmpty()) {
        double zoneScore = max;
        if (maxByZone > 0) {
          zoneScore =
              max * ((double) (maxByZone - countsByZone.get(zones[i])) / (double) maxByZone);
        }
        f = (f * (1.0 - ZONE_WEIGHTING)) + (ZONE_WEIGHTING * zoneScore);
      }
      scores.set(i, (long) f);
    }
    return Status.success();
  }

  /**
   * A key unique per failure zone, as v1.22's {@code utilnode.GetZoneKey}: region and zone (each
   * from the beta label when the node has it, else the GA label) joined by {@code ":\0:"}; "" when
   * both are empty.
   */
  static String zoneKey(Map<String, String> labels) {
    String zone =
        labels.containsKey(LABEL_BETA_ZONE) ? labels.get(LABEL_BETA_ZONE) : labels.get(LABEL_ZONE);
    String region =
        labels.containsKey(LABEL_BETA_REGION)
            ? labels.get(LABEL_BETA_REGION)
            : labels.get(LABEL_REGION);
    zone = zone == null ? "" : zone;
    region = region == null ? "" : region;
    if (zone.isEmpty() && region.isEmpty()) {
      return "";
    }
    return region + ":\0:" + zone;
  }

  private static boolean skip(PodInfo pod) {
    return pod.pod().getSpec() != null
        && pod.pod().getSpec().getTopologySpreadConstraints() != null
        && !pod.pod().getSpec().getTopologySpreadConstraints().isEmpty();
  }

  /** The factory registered under {@link Names#SELECTOR_SPREAD}; the plugin takes no args. */
  public static SelectorSpread create(PluginArgs args, Handle handle) {
    return new SelectorSpread(handle.clusterObjects());
  }
}
