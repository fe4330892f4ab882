package io.schedext.plugins.nodelabel;

import io.schedext.framework.CycleState;
import io.schedext.framework.FilterPlugin;
import io.schedext.framework.FrameworkException;
import io.schedext.framework.Handle;
import io.schedext.framework.NodeInfo;
import io.schedext.framework.PluginArgs;
import io.schedext.framework.PodInfo;
import io.schedext.framework.ScorePlugin;
import io.schedext.framework.Status;
import io.schedext.plugins.Names;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The legacy NodeLabel plugin (removed upstream in v1.23), as it behaved in v1.22: Filter keeps
 * nodes that carry every required label and none of the forbidden ones (values are ignored); Score
 * rates a node by the share of preferred labels it carries or lacks as wished. Off by default.
 */
public final class NodeLabel implements FilterPlugin, ScorePlugin {

  /** The reason when a node misses a required label or carries a forbidden one. */
  public static final String ERR_REASON_PRESENCE_VIOLATED =
      "node(s) didn't have the requested labels";

  private static final Status PRESENCE_VIOLATED =
      Status.unresolvable(ERR_REASON_PRESENCE_VIOLATED).withPlugin(Names.NODE_LABEL);
  private static final Status NODE_NOT_FOUND =
      Status.error("node not found").withPlugin(Names.NODE_LABEL);

  private final String[] presentLabels;
  private final String[] absentLabels;
  private final String[] presentLabelsPreference;
  private final String[] absentLabelsPreference;

  private NodeLabel(NodeLabelArgs args) {
    this.presentLabels = args.presentLabels().toArray(new String[0]);
    this.absentLabels = args.absentLabels().toArray(new String[0]);
    this.presentLabelsPreference = args.presentLabelsPreference().toArray(new String[0]);
    this.absentLabelsPreference = args.absentLabelsPreference().toArray(new String[0]);
  }

  @Override
  public String name() {
    return Names.NODE_LABEL;
  }

  /** Rejects, as unresolvable, a node that lacks a present label or carries an absent one. */
  @Override
  public Status filter(CycleState state, PodInfo pod, NodeInfo node) {
    if (node.node() == null) {
      return NODE_NOT_FOUND;
    }
    Map<String, String> labels = node.labels();
    for (String l : presentLabels) {
      if (!labels.containsKey(l)) {
        return PRESENCE_VIOLATED;
      }
    }
    for (String l : absentLabels) {
      if (labels.containsKey(l)) {
        return PRESENCE_VIOLATED;
      }
    }
    return Status.success();
  }

  /**
   * {@code 100 × satisfied preferences / number of preferences} in integer arithmetic; 0 when no
   * preference is configured.
   */
  @Override
  public long score(CycleState state, PodInfo pod, NodeInfo node) {
    if (node.node() == null) {
      throw new FrameworkException("node not found");
    }
    long size = presentLabelsPreference.length + absentLabelsPreference.length;
    if (size == 0) {
      return 0;
    }
    Map<String, String> labels = node.labels();
    long score = 0;
    for (String l : presentLabelsPreference) {
      if (labels.containsKey(l)) {
        score += MAX_NODE_SCORE;
      }
    }
    for (String l : absentLabelsPreference) {
      if (!labels.containsKey(l)) {
        score += MAX_NODE_SCORE;
      }
    }
    return score / size;
  }

  /**
   * The factory registered under {@link Names#NODE_LABEL}; throws {@link FrameworkException} when a
   * label is listed both as present and absent (in the required or in the preferred pair), with
   * v1.22's field-error text.
   */
  public static NodeLabel create(PluginArgs args, Handle handle) {
    NodeLabelArgs a =
        args == null ? new NodeLabelArgs(null, null, null, null) : args.as(NodeLabelArgs.class);
    List<String> errors = new ArrayList<>();
    conflicts(a.presentLabels(), a.absentLabels(), "presentLabels", "absentLabels", errors);
    conflicts(
        a.presentLabelsPreference(),
        a.absentLabelsPreference(),
        "presentLabelsPreference",
        "absentLabelsPreference",
        errors);
    if (!errors.isEmpty()) {
      // apimachinery's aggregate prints one error bare and several as a bracketed list.
      throw new FrameworkException(
          errors.size() == 1 ? errors.get(0) : "[" + String.join(", ", errors) + "]");
    }
    return new NodeLabel(a);
  }

  /**
   * Adds one field error per absent label that is also present, naming the last index it has among
   * the present.
   */
  private static void conflicts(
      List<String> present,
      List<String> absent,
      String presentField,
      String absentField,
      List<String> errors) {
    Map<String, Integer> index = new HashMap<>();
    for (int i = 0; i < present.size(); i++) {
      index.put(present.get(i), i);
    }
    for (int i = 0; i < absent.size(); i++) {
      Integer j = index.get(absent.get(i));
      if (j != null) {
        errors.add(
            presentField
                + "["
                + j
                + "]: Invalid value: \""
                + absent.get(i)
                + "\": conflict with "
                + absentField
                + "["
                + i
                + "]");
      }
    }
  }
}
