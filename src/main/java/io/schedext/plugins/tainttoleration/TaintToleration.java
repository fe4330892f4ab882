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

  @Override
  public String name() {
    return Names.TAINT_TOLERATION;
  }

  /** Rejects the node at its first NoSchedule or NoExecute taint the pod does not tolerate. */
  @Override
  public Status filter(CycleState state, PodInfo pod, NodeInfo node) {
    Taint taint = Taints.findUntolerated(node.noScheduleTaints(), tolerations(pod));
    if (taint == null) {
      return Status.success();
    }
    return Status.unresolvable(untoleratedReason(taint)).withPlugin(Names.TAINT_TOLERATION);
  }

  /**
   * Upstream's reason text, e.g. {@code node(s) had untolerated taint {dedicated: user1}} (empty
   * value allowed).
   */
  static String untoleratedReason(Taint taint) {
    return "node(s) had untolerated taint {"
        + nullToEmpty(taint.getKey())
        + ": "
        + nullToEmpty(taint.getValue())
        + "}";
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

  private static String nullToEmpty(String s) {
    return s == null ? "" : s;
  }

  /** The factory registered under {@link Names#TAINT_TOLERATION}. */
  public static TaintToleration create(PluginArgs args, Handle handle) {
    return new TaintToleration();
  }
}
