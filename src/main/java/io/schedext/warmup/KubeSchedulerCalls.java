package io.schedext.warmup;

import java.util.ArrayList;
import java.util.List;

/**
 * The names kube-scheduler v1.26 sends an extender in each call, by its own rules: how many
 * feasible nodes it looks for ({@code numFeasibleNodesToFind}), in what order its goroutines find
 * them ({@code chunkSizeFor}), and where the next cycle starts ({@code nextStartNodeIndex}). The
 * warm-up ({@link WarmUp}) shapes its calls this way so that the code it compiles is the code
 * kube-scheduler's calls run.
 */
final class KubeSchedulerCalls {

  private KubeSchedulerCalls() {}

  /**
   * The names kube-scheduler sends in the {@code cycle}th call over {@code all} (its node order)
   * with its default {@code percentageOfNodesToScore}: {@link #feasibleToFind} of them, from a
   * start that moves on by as many every cycle, as its {@code nextStartNodeIndex} does when every
   * node passes its own filters. Its filters run on several goroutines, each taking a chunk of
   * consecutive nodes ({@link #chunkSize}) and adding the nodes that pass as it goes, so the list
   * comes as runs woven together: here, each two chunks taken in turn, one name from each.
   */
  static List<String> sampled(List<String> all, int cycle) {
    int n = all.size();
    int count = feasibleToFind(n);
    int start = (int) ((long) cycle * count % n);
    int chunk = chunkSize(n);
    List<String> out = new ArrayList<>(count);
    for (int base = 0; base < count; base += 2 * chunk) {
      int aEnd = Math.min(base + chunk, count);
      int bEnd = Math.min(base + 2 * chunk, count);
      for (int a = base, b = aEnd; a < aEnd || b < bEnd; a++, b++) {
        if (a < aEnd) {
          out.add(all.get((start + a) % n));
        }
        if (b < bEnd) {
          out.add(all.get((start + b) % n));
        }
      }
    }
    return out;
  }

  /**
   * How many feasible nodes kube-scheduler looks for among {@code nodes} before it stops filtering,
   * with {@code percentageOfNodesToScore} unset: every node below 100, else 50% less one point per
   * 125 nodes, at least 5% and at least 100 nodes (upstream's {@code numFeasibleNodesToFind}).
   */
  static int feasibleToFind(int nodes) {
    if (nodes < MIN_FEASIBLE_NODES) {
      return nodes;
    }
    int percentage = Math.max(MIN_FEASIBLE_PERCENTAGE, 50 - nodes / 125);
    return Math.max(MIN_FEASIBLE_NODES, nodes * percentage / 100);
  }

  private static final int MIN_FEASIBLE_NODES = 100;
  private static final int MIN_FEASIBLE_PERCENTAGE = 5;

  /**
   * The nodes one goroutine of kube-scheduler's filter takes at a time: the square root of {@code
   * nodes}, at most a sixteenth of them plus one, at least one (upstream's {@code chunkSizeFor}
   * with its parallelism of 16).
   */
  static int chunkSize(int nodes) {
    int s = (int) Math.sqrt(nodes);
    return Math.max(1, Math.min(s, nodes / 16 + 1));
  }
}
