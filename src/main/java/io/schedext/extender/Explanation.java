package io.schedext.extender;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.util.List;

/**
 * The full decision for one pod, as served by {@code /scheduler/explain}: every filter plugin on
 * every node (not stopping at the first rejection), and the scores of the feasible nodes.
 *
 * @param pod {@code namespace/name}
 * @param profile the profile used
 * @param boundNode the node the pod is bound to when it was explained by name as if it were not
 *     bound (its node counted without it); null for a pending pod or a pod given in the request
 * @param summary one line: kube-scheduler's FailedScheduling text ({@code 0/N nodes are available:
 *     ...}, with the preemption clause) when no node fits, else how many fit and which scored
 *     highest, or the error
 * @param filterPlugins filter plugins in run order
 * @param scorePlugins score plugins in run order with their weights
 * @param preFilter each PreFilter plugin's status
 * @param preScore each PreScore plugin's status
 * @param nodes per-node verdicts, in the order the nodes were given
 * @param feasibleNodes nodes every filter accepted
 * @param bestNodes feasible nodes with the highest total score
 * @param preemption when no node is feasible: what the profile's PostFilter (DefaultPreemption)
 *     would do, without evicting anything; null otherwise
 * @param error a fault that stopped the evaluation, or null
 */
public record Explanation(
    String pod,
    String profile,
    String boundNode,
    String summary,
    List<String> filterPlugins,
    List<ScorePlugin> scorePlugins,
    List<PluginStatus> preFilter,
    List<PluginStatus> preScore,
    List<NodeVerdict> nodes,
    List<String> feasibleNodes,
    List<String> bestNodes,
    Preemption preemption,
    String error) {

  /**
   * The outcome of a simulated preemption.
   *
   * @param code the PostFilter status code
   * @param reasons its reasons
   * @param nominatedNode the node preemption would nominate, or null
   * @param victims the pods it would evict there
   */
  public record Preemption(
      String code, List<String> reasons, String nominatedNode, List<Victim> victims) {}

  /**
   * A pod preemption would evict.
   *
   * @param pod {@code namespace/name}
   * @param uid the UID
   * @param priority its priority
   */
  public record Victim(String pod, String uid, int priority) {}

  /**
   * A score plugin and its weight.
   *
   * @param plugin the name
   * @param weight the weight
   */
  public record ScorePlugin(String plugin, int weight) {}

  /**
   * One plugin's status.
   *
   * @param plugin the plugin
   * @param code the upstream code name
   * @param reasons the reasons
   * @param detail what the plugin adds about a rejection beyond its reasons (a filter plugin that
   *     is a {@code FilterDiagnoser}, on the nodes it rejected or failed on), or null; left out of
   *     the JSON when null
   */
  public record PluginStatus(
      String plugin,
      String code,
      List<String> reasons,
      @JsonInclude(JsonInclude.Include.NON_NULL) Detail detail) {

    /** A status without detail. */
    public PluginStatus(String plugin, String code, List<String> reasons) {
      this(plugin, code, reasons, null);
    }
  }

  /**
   * A plugin's account of a rejection on one node.
   *
   * @param lines a few lines for people, as the text report and the web page show them
   * @param data the same for programs, the plugin's own structure (DynamicResources: the claim and
   *     request that cannot be satisfied, the devices the node offers and what each selector
   *     rejected, the first failing expression)
   */
  public record Detail(List<String> lines, Object data) {}

  /**
   * One plugin's score on one node.
   *
   * @param plugin the plugin
   * @param raw the score before normalising
   * @param normalized the score after normalising (0–100)
   * @param weight the plugin weight
   * @param weighted normalized × weight
   */
  public record PluginScore(String plugin, long raw, long normalized, int weight, long weighted) {}

  /**
   * The verdict for one node.
   *
   * @param node the node name
   * @param feasible true when every filter accepted it
   * @param filters each filter plugin's status on this node
   * @param scores each score plugin's score (feasible nodes only)
   * @param totalScore the weighted total (feasible nodes only)
   * @param extenderScore the 0–10 score prioritize would answer (feasible nodes only)
   */
  public record NodeVerdict(
      String node,
      boolean feasible,
      List<PluginStatus> filters,
      List<PluginScore> scores,
      Long totalScore,
      Long extenderScore) {}
}
