package io.schedext.framework;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The text kube-scheduler gives a pod no node fits (upstream's {@code FitError.Error()}), which
 * becomes its FailedScheduling event: {@code 0/<all> nodes are available:}, then either the
 * PreFilter rejection or every node rejection reason counted once per node as {@code <count>
 * <reason>}, then the PostFilter (preemption) message. Stateless.
 */
public final class FitError {

  private FitError() {}

  /**
   * Renders the message.
   *
   * @param numAllNodes how many nodes the cycle considered
   * @param preFilterMessage the PreFilter rejection, or "" when PreFilter passed; when set, node
   *     reasons are left out (PreFilter gave every node that same status, and upstream does not
   *     repeat it per node)
   * @param nodeStatuses the status of each rejected node
   * @param absentReasons the reasons of the nodes missing from {@code nodeStatuses}, counted {@code
   *     numAllNodes - nodeStatuses.size()} times
   * @param postFilterMessage the PostFilter rejection, or "" when PostFilter passed or did not run
   * @return the message, e.g. {@code 0/3 nodes are available: 1 Insufficient cpu, 2 node(s) were
   *     unschedulable.}
   */
  public static String message(
      int numAllNodes,
      String preFilterMessage,
      Collection<Status> nodeStatuses,
      List<String> absentReasons,
      String postFilterMessage) {
    StringBuilder out = new StringBuilder("0/").append(numAllNodes).append(" nodes are available:");
    if (!preFilterMessage.isEmpty()) {
      out.append(' ').append(preFilterMessage).append('.');
    } else {
      Map<String, Integer> counts = new HashMap<>();
      for (Status s : nodeStatuses) {
        for (String reason : s.reasons()) {
          counts.merge(reason, 1, Integer::sum);
        }
      }
      int absent = numAllNodes - nodeStatuses.size();
      if (absent > 0) {
        for (String reason : absentReasons) {
          counts.merge(reason, absent, Integer::sum);
        }
      }
      List<String> parts = new ArrayList<>(counts.size());
      counts.forEach((reason, n) -> parts.add(n + " " + reason));
      // Upstream sorts the finished "<count> <reason>" strings, so "10 x" comes before "2 y".
      parts.sort(null);
      if (!parts.isEmpty()) {
        out.append(' ').append(String.join(", ", parts)).append('.');
      }
    }
    if (!postFilterMessage.isEmpty()) {
      out.append(' ').append(postFilterMessage);
    }
    return out.toString();
  }
}
