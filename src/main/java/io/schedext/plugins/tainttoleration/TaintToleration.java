package io.schedext.plugins.tainttoleration;

import io.fabric8.kubernetes.api.model.Taint;
import io.fabric8.kubernetes.api.model.Toleration;
import io.schedext.framework.CycleState;
import io.schedext.framework.FilterPlugin;
import io.schedext.framework.Handle;
import io.schedext.framework.NodeInfo;
import io.schedext.framework.NodeScores;
import io.schedext.framework.PluginArgs;
import io.schedext.framework.PodInfo;
import io.schedext.framework.PreScorePlugin;
import io.schedext.framework.ScoreExtensions;
import io.schedext.framework.ScorePlugin;
import io.schedext.framework.StateData;
import io.schedext.framework.Status;
import io.schedext.kube.Taints;
import io.schedext.plugins.Names;
import io.schedext.plugins.helper.Normalize;
import java.util.ArrayList;
import java.util.List;

/**
 * Checks that the pod tolerates the node's NoSchedule and NoExecute taints (Filter) and prefers
 * nodes with fewer untolerated PreferNoSchedule taints (Score, normalised in reverse). Stateless
 * and thread-safe.
 */
public final class TaintToleration
    implements FilterPlugin, PreScorePlugin, ScorePlugin, ScoreExtensions {

  /** The CycleState key of the pod's PreferNoSchedule tolerations, written in PreScore. */
  static final String PRE_SCORE_STATE_KEY = "PreScore" + Names.TAINT_TOLERATION;

  /**
   * The pod's tolerations whose effect is PreferNoSchedule or empty (all effects); read-only, so
   * shared by copies.
   */
  record PreScoreState(List<Toleration> tolerationsPreferNoSchedule) implements StateData {
    @Override
    public StateData copy() {
      return this;
    }
  }

  /**
   * The Filter reason, 1.34's, which names no taint (earlier releases named the first untolerated
   * one: {@code node(s) had untolerated taint {<key>: <value>}}).
   */
  public static final String ERR_REASON_UNTOLERATED = "node(s) had untolerated taint(s)";

  private static final Status UNTOLERATED =
      Status.unresolvable(ERR_REASON_UNTOLERATED).withPlugin(Names.TAINT_TOLERATION);

  @Override
  public String name() {
    return Names.TAINT_TOLERATION;
  }

  /**
   * Rejects the node when one of its NoSchedule or NoExecute taints is not tolerated by the pod.
   */
  @Override
  public Status filter(CycleState state, PodInfo pod, NodeInfo node) {
    Taint taint = Taints.findUntolerated(node.noScheduleTaints(), tolerations(pod));
    return taint == null ? Status.success() : UNTOLERATED;
  }

  /** Keeps the pod's tolerations that can tolerate a PreferNoSchedule taint. */
  @Override
  public Status preScore(CycleState state, PodInfo pod, List<NodeInfo> nodes) {
    List<Toleration> preferNoSchedule = new ArrayList<>();
    for (Toleration t : tolerations(pod)) {
      String effect = t.getEffect();
      if (effect == null || effect.isEmpty() || Taints.EFFECT_PREFER_NO_SCHEDULE.equals(effect)) {
        preferNoSchedule.add(t);
      }
    }
    state.write(PRE_SCORE_STATE_KEY, new PreScoreState(List.copyOf(preferNoSchedule)));
    return Status.success();
  }

  /** The number of the node's PreferNoSchedule taints the pod does not tolerate. */
  @Override
  public long score(CycleState state, PodInfo pod, NodeInfo node) {
    List<Toleration> tolerations =
        state.read(PRE_SCORE_STATE_KEY, PreScoreState.class).tolerationsPreferNoSchedule();
    if (node.preferNoScheduleTaintCount() == 0) {
      return 0;
    }
    List<Taint> taints = node.preferNoScheduleTaints();
    long intolerable = 0;
    for (int i = 0; i < taints.size(); i++) {
      if (!Taints.anyTolerates(tolerations, taints.get(i))) {
        intolerable++;
      }
    }
    return intolerable;
  }

  @Override
  public ScoreExtensions scoreExtensions() {
    return this;
  }

  /**
   * Scales the counts so the node with the fewest untolerated taints gets 100 (all 100 when every
   * count is 0).
   */
  @Override
  public Status normalizeScore(CycleState state, PodInfo pod, NodeScores scores) {
    return Normalize.defaultNormalizeScore(MAX_NODE_SCORE, true, scores);
  }

  private static List<Toleration> tolerations(PodInfo pod) {
    var spec = pod.pod().getSpec();
    return spec == null || spec.getTolerations() == null ? List.of() : spec.getTolerations();
  }

  /** The factory registered under {@link Names#TAINT_TOLERATION}. */
  public static TaintToleration create(PluginArgs args, Handle handle) {
    return new TaintToleration();
  }
}
