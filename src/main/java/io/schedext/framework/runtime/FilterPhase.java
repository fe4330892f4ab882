package io.schedext.framework.runtime;

import io.schedext.framework.Code;
import io.schedext.framework.CycleState;
import io.schedext.framework.ExtensionPoint;
import io.schedext.framework.FilterPlugin;
import io.schedext.framework.FrameworkException;
import io.schedext.framework.NodeInfo;
import io.schedext.framework.PluginsRunner;
import io.schedext.framework.PodInfo;
import io.schedext.framework.PodNominator;
import io.schedext.framework.Status;
import io.schedext.framework.parallelize.Parallelizer;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * The Filter extension point of one profile's framework, as upstream's {@code RunFilterPlugins} and
 * {@code RunFilterPluginsWithNominatedPods}: the plugins on one node in order up to the first
 * rejection, every node of a cycle in parallel, nominated pods added as upstream adds them. {@link
 * Framework} exposes it. Thread-safe.
 */
final class FilterPhase {

  private final String profileName;
  private final FilterPlugin[] filterPlugins;
  private final FrameworkServices services;
  private final PluginsRunner runner;

  /**
   * The Filter of {@code profileName}'s {@code filterPlugins}, running PreFilter extensions through
   * {@code runner}.
   */
  FilterPhase(
      String profileName,
      FilterPlugin[] filterPlugins,
      FrameworkServices services,
      PluginsRunner runner) {
    this.profileName = profileName;
    this.filterPlugins = filterPlugins;
    this.services = services;
    this.runner = runner;
  }

  /**
   * Runs the Filter plugins on one node in order and returns the first rejection (attributed to its
   * plugin); a status other than Success or a rejection becomes an Error. Allocation-free on
   * success.
   */
  Status runFilterPlugins(CycleState state, PodInfo pod, NodeInfo node) {
    FilterRun run = new FilterRun(state, 1);
    return filterNode(run, state, pod, node, run.timed(0));
  }

  /**
   * What one run of the Filter plugins over a call's nodes decides once for all of them: which
   * filter plugins this cycle's PreFilter told to skip (by position, so a node's loop reads an
   * array rather than hashing names), and on which nodes the plugin calls are timed (a cycle
   * sampled for plugin metrics times at most {@link Framework#PLUGIN_METRICS_NODES} nodes, spread
   * evenly). A single-node run times its node when the cycle is sampled.
   */
  private final class FilterRun {
    private final boolean[] skipped;
    private final int stride;

    FilterRun(CycleState state, int nodes) {
      Set<String> skip = state.skipFilterPlugins();
      if (skip.isEmpty()) {
        this.skipped = null;
      } else {
        this.skipped = new boolean[filterPlugins.length];
        for (int i = 0; i < filterPlugins.length; i++) {
          skipped[i] = skip.contains(filterPlugins[i].name());
        }
      }
      this.stride = PluginTimings.timingStride(state, nodes);
    }

    /** Whether filter plugin {@code plugin} (its position) is skipped in this cycle. */
    boolean skipped(int plugin) {
      return skipped != null && skipped[plugin];
    }

    /** Whether the plugin calls on node {@code index} of the run are timed. */
    boolean timed(int index) {
      return PluginTimings.timed(stride, index);
    }
  }

  /** Runs the Filter plugins not skipped on one node, in order, up to the first rejection. */
  private Status filterNode(
      FilterRun run, CycleState state, PodInfo pod, NodeInfo node, boolean timed) {
    for (int i = 0; i < filterPlugins.length; i++) {
      if (run.skipped(i)) {
        continue;
      }
      FilterPlugin pl = filterPlugins[i];
      Status s = timed ? timedFilter(pl, state, pod, node) : callFilter(pl, state, pod, node);
      if (!s.isSuccess()) {
        if (!s.isRejected()) {
          return Status.error("running \"" + pl.name() + "\" filter plugin: " + s.message())
              .withPlugin(pl.name());
        }
        return s.withPlugin(pl.name());
      }
    }
    return Status.success();
  }

  /**
   * Runs every Filter plugin on one node without stopping at the first rejection (the explain
   * view); returns one status per plugin, in order, null for a plugin skipped by its PreFilter.
   */
  Status[] runAllFilterPlugins(CycleState state, PodInfo pod, NodeInfo node) {
    Status[] out = new Status[filterPlugins.length];
    FilterRun run = new FilterRun(state, 1);
    for (int i = 0; i < filterPlugins.length; i++) {
      FilterPlugin pl = filterPlugins[i];
      if (run.skipped(i)) {
        continue;
      }
      Status s = callFilter(pl, state, pod, node);
      if (!s.isSuccess() && !s.isRejected()) {
        s = Status.error("running \"" + pl.name() + "\" filter plugin: " + s.message());
      }
      out[i] = s.withPlugin(pl.name());
    }
    return out;
  }

  private static Status callFilter(FilterPlugin pl, CycleState state, PodInfo pod, NodeInfo node) {
    try {
      Status s = pl.filter(state, pod, node);
      return s == null ? Status.success() : s;
    } catch (FrameworkException | IllegalArgumentException e) {
      return Status.error(e);
    }
  }

  private Status timedFilter(FilterPlugin pl, CycleState state, PodInfo pod, NodeInfo node) {
    long start = System.nanoTime();
    Status s = callFilter(pl, state, pod, node);
    services.metrics().plugin(pl.name(), "Filter", s.code(), System.nanoTime() - start);
    return s;
  }

  /**
   * Filters one node taking nominated pods into account, as upstream: when pods of equal or higher
   * priority are nominated to the node, the filters must pass both with them added (on copies of
   * state and node) and without.
   */
  Status runFilterPluginsWithNominatedPods(CycleState state, PodInfo pod, NodeInfo node) {
    FilterRun run = new FilterRun(state, 1);
    return filterNodeWithNominatedPods(run, state, pod, node, run.timed(0), null);
  }

  /**
   * The Filter of a scheduling cycle: filters every node of {@code nodes} in parallel ({@link
   * #runFilterPluginsWithNominatedPods} on each) and returns their statuses in the same order; one
   * Filter extension-point sample covers all of them, as upstream. On the node the pod is nominated
   * to, the victims this extender agreed to evict for it are gone first, as in kube-scheduler's
   * cache ({@link PodNominator#victimsAgreed}). In a cycle that records plugin metrics, per-plugin
   * durations are observed on at most {@link Framework#PLUGIN_METRICS_NODES} nodes spread evenly
   * over the list (see {@link FilterRun}).
   */
  Status[] runFilterPluginsOnNodes(CycleState state, PodInfo pod, List<NodeInfo> nodes) {
    long start = System.nanoTime();
    Status[] out = new Status[nodes.size()];
    int n = nodes.size();
    FilterRun run = new FilterRun(state, n);
    // Statuses go to the running worker's part of the scratch array first (see
    // Parallelizer.untilLight).
    Parallelizer.Scratch layout = new Parallelizer.Scratch(1);
    Status[] scratch = new Status[layout.length(services.parallelizer().parallelism())];
    // Asked once per call rather than per node: nominations change only with watch events, which a
    // node-by-node answer would not see consistently either.
    boolean noneNominated = services.nominator().isEmpty();
    Leaving leaving = Leaving.of(services.nominator(), pod, nodes);
    services
        .parallelizer()
        .untilLight(
            n,
            new Parallelizer.Blocks(n) {
              @Override
              protected void compute(int from, int to, int worker) {
                int at = layout.start(worker) - from;
                for (int i = from; i < to; i++) {
                  scratch[at + i] =
                      noneNominated && leaving == null
                          ? filterNode(run, state, pod, nodes.get(i), run.timed(i))
                          : filterNodeWithNominatedPods(
                              run, state, pod, nodes.get(i), run.timed(i), leaving);
                }
              }

              @Override
              protected void store(int from, int to, int worker) {
                System.arraycopy(scratch, layout.start(worker), out, from, to - from);
              }
            });
    Code code = Code.SUCCESS;
    for (Status s : out) {
      if (s.isError()) {
        code = Code.ERROR;
        break;
      }
    }
    services
        .metrics()
        .extensionPoint(profileName, ExtensionPoint.FILTER, code, System.nanoTime() - start);
    return out;
  }

  /**
   * The pods being evicted from {@code node} for the pod being filtered, which is nominated there
   * ({@link PodNominator#victimsAgreed}): asked once per call.
   */
  private record Leaving(String node, Set<String> uids) {

    /**
     * What is leaving for {@code pod} in a cycle over {@code nodes}, or null when nothing is: the
     * victims agreed on the node it is nominated to; for a pod not (yet) shown nominated, those of
     * the one node among {@code nodes} that has victims agreed for it. kube-scheduler deletes the
     * victims of the node it picked only, and hands the extender only nodes its own filters passed:
     * the other nodes answered in the same preempt call still hold their victims in its cache, so
     * with its resource filter on only the picked node comes. kube-scheduler 1.34 retries a
     * preemptor when the deletions arrive, which can be before the nomination it patched does: the
     * pod it sends then carries none. With more than one such node no choice is made.
     */
    static Leaving of(PodNominator nominator, PodInfo pod, List<NodeInfo> nodes) {
      String nominated = pod.nominatedNodeName();
      if (!nominated.isEmpty()) {
        Set<String> uids = nominator.victimsAgreed(pod.uid(), nominated);
        return uids.isEmpty() ? null : new Leaving(nominated, uids);
      }
      Set<String> agreedOn = nominator.nodesWithVictimsAgreed(pod.uid());
      if (agreedOn.isEmpty()) {
        return null;
      }
      String only = null;
      for (NodeInfo n : nodes) {
        if (agreedOn.contains(n.name())) {
          if (only != null) {
            return null;
          }
          only = n.name();
        }
      }
      return only == null ? null : new Leaving(only, nominator.victimsAgreed(pod.uid(), only));
    }

    /** Removes the leaving pods from {@code node} ({@link PluginsRunner#removeGonePods}). */
    Status removeFrom(PluginsRunner fw, CycleState state, PodInfo pod, NodeInfo node) {
      return fw.removeGonePods(state, pod, node, uids);
    }
  }

  /**
   * Filters one node with the pods nominated to it, as upstream: when pods of equal or higher
   * priority are nominated there, the filters must pass both with them added (on copies of state
   * and node) and without. On the node the pod is nominated to, the pods being evicted for it are
   * gone first ({@link Leaving}).
   */
  private Status filterNodeWithNominatedPods(
      FilterRun run, CycleState state, PodInfo pod, NodeInfo node, boolean timed, Leaving leaving) {
    if (leaving != null && leaving.node().equals(node.name())) {
      CycleState without = state.copy();
      NodeInfo nodeWithout = node.snapshotCopy();
      Status s = leaving.removeFrom(runner, without, pod, nodeWithout);
      if (!s.isSuccess()) {
        return s;
      }
      state = without;
      node = nodeWithout;
    }
    PodNominator nominator = services.nominator();
    if (nominator.isEmpty()) {
      return filterNode(run, state, pod, node, timed);
    }
    List<PodInfo> relevant = null;
    for (PodInfo np : nominator.nominatedPodsForNode(node.name())) {
      if (np.priority() >= pod.priority() && !np.uid().equals(pod.uid())) {
        if (relevant == null) {
          relevant = new ArrayList<>();
        }
        relevant.add(np);
      }
    }
    if (relevant == null) {
      return filterNode(run, state, pod, node, timed);
    }
    CycleState withNominated = state.copy();
    NodeInfo nodeWithNominated = node.snapshotCopy();
    for (PodInfo np : relevant) {
      nodeWithNominated.addPod(np);
      Status s = runner.runPreFilterExtensionAddPod(withNominated, pod, np, nodeWithNominated);
      if (!s.isSuccess()) {
        return s;
      }
    }
    Status first = filterNode(run, withNominated, pod, nodeWithNominated, timed);
    if (!first.isSuccess()) {
      return first;
    }
    return filterNode(run, state, pod, node, timed);
  }
}
