package io.schedext.plugins.defaultpreemption;

import io.fabric8.kubernetes.api.model.PodCondition;
import io.schedext.framework.Code;
import io.schedext.framework.CycleState;
import io.schedext.framework.FitError;
import io.schedext.framework.FrameworkException;
import io.schedext.framework.Handle;
import io.schedext.framework.NodeInfo;
import io.schedext.framework.PluginArgs;
import io.schedext.framework.PodInfo;
import io.schedext.framework.PostFilterPlugin;
import io.schedext.framework.PostFilterResult;
import io.schedext.framework.Status;
import io.schedext.plugins.Names;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.IntUnaryOperator;

/**
 * DefaultPreemption (PostFilter): when no node fits, finds the node where evicting the fewest,
 * least important lower-priority pods makes the pod fit, as upstream's plugin and {@code
 * framework/preemption}. It only proposes: the result names the node to nominate and the victims,
 * and nothing is evicted. Nodes missing from the filter statuses count as
 * UnschedulableAndUnresolvable (upstream's default for absent nodes), so callers list every node
 * they rejected as Unschedulable.
 */
public final class DefaultPreemption implements PostFilterPlugin {

  /** The plugin name. */
  public static final String NAME = Names.DEFAULT_PREEMPTION;

  /** The prefix of every message this plugin returns. */
  static final String PREFIX = "preemption: ";

  /** The reason for a pod whose preemptionPolicy is Never. */
  static final String NEVER = "not eligible due to preemptionPolicy=Never.";

  /** The reason for a pod whose earlier preemption is still evicting pods on its nominated node. */
  static final String TERMINATING = "not eligible due to a terminating pod on the nominated node.";

  /**
   * The FitError reason for nodes preemption cannot help (and for nodes the dry run did not
   * examine).
   */
  static final String NOT_HELPFUL = "Preemption is not helpful for scheduling";

  private static final Status ABSENT = Status.unresolvable(NOT_HELPFUL);

  private final DefaultPreemptionArgs args;
  private final Handle handle;
  private final Evaluator evaluator;
  private final IntUnaryOperator offsets;

  private DefaultPreemption(DefaultPreemptionArgs args, Handle handle, IntUnaryOperator offsets) {
    this.args = args;
    this.handle = handle;
    this.evaluator = new Evaluator(handle);
    this.offsets = offsets;
  }

  @Override
  public String name() {
    return NAME;
  }

  /** The evaluator this plugin dry-runs with. */
  public Evaluator evaluator() {
    return evaluator;
  }

  /**
   * Proposes a node and victims for {@code pod}. Success carries the node to nominate and the
   * victims; a rejection with nominated node "" means "clear the nomination"; a rejection or Error
   * with a null node leaves it as is.
   */
  @Override
  public PostFilterResult postFilter(
      CycleState state, PodInfo pod, Map<String, Status> filteredNodeStatuses) {
    PostFilterResult r = preempt(state, pod, filteredNodeStatuses);
    Status s = r.status();
    if (s.isSuccess() || s.message().isEmpty()) {
      return r;
    }
    return new PostFilterResult(
        Status.of(s.code(), PREFIX + s.message()), r.nominatedNodeName(), r.victims());
  }

  private PostFilterResult preempt(CycleState state, PodInfo pod, Map<String, Status> statuses) {
    String notEligible = podEligibleToPreemptOthers(state, pod, statuses);
    if (notEligible != null) {
      return PostFilterResult.of(Status.unschedulable(notEligible));
    }
    List<NodeInfo> allNodes = state.snapshot().list();
    if (allNodes.isEmpty()) {
      return PostFilterResult.of(Status.error("no nodes available"));
    }
    List<NodeInfo> potential = new ArrayList<>();
    for (NodeInfo n : allNodes) {
      if (statusOf(statuses, n.name()).code() == Code.UNSCHEDULABLE) {
        potential.add(n);
      }
    }
    Evaluator.DryRunResult dry =
        potential.isEmpty()
            ? new Evaluator.DryRunResult(List.of(), Map.of(), List.of())
            : evaluator.dryRunPreemption(
                state,
                pod,
                potential,
                evaluator.disruptionBudgets(),
                offsets.applyAsInt(potential.size()),
                calculateNumCandidates(potential.size()));
    if (dry.candidates().isEmpty()) {
      if (!dry.errors().isEmpty()) {
        return PostFilterResult.of(Status.error(aggregate(dry.errors())));
      }
      return new PostFilterResult(
          Status.unschedulable(fitError(allNodes.size(), dry.nodeStatuses())), "", List.of());
    }
    Candidate best = CandidateSelection.pickOne(dry.candidates(), handle.clock().instant());
    return new PostFilterResult(Status.success(), best.name(), best.victims());
  }

  /**
   * Null when {@code pod} may preempt, else why not: its preemptionPolicy is Never, or it is
   * nominated to a node (that its filters did not find unresolvable) where a lower-priority pod is
   * still being terminated by preemption.
   */
  String podEligibleToPreemptOthers(CycleState state, PodInfo pod, Map<String, Status> statuses) {
    var spec = pod.pod().getSpec();
    if (spec != null && "Never".equals(spec.getPreemptionPolicy())) {
      return NEVER;
    }
    var podStatus = pod.pod().getStatus();
    String nominated = podStatus == null ? null : podStatus.getNominatedNodeName();
    if (nominated == null || nominated.isEmpty()) {
      return null;
    }
    if (statusOf(statuses, nominated).code() == Code.UNSCHEDULABLE_AND_UNRESOLVABLE) {
      return null;
    }
    NodeInfo node = state.snapshot().get(nominated);
    if (node != null) {
      for (PodInfo p : node.pods()) {
        if (p.priority() < pod.priority() && terminatingByPreemption(p)) {
          return TERMINATING;
        }
      }
    }
    return null;
  }

  /**
   * True for a pod being deleted that carries the DisruptionTarget=True condition preemption sets.
   */
  private static boolean terminatingByPreemption(PodInfo p) {
    if (!p.terminating()
        || p.pod().getStatus() == null
        || p.pod().getStatus().getConditions() == null) {
      return false;
    }
    for (PodCondition c : p.pod().getStatus().getConditions()) {
      if ("DisruptionTarget".equals(c.getType())) {
        return "True".equals(c.getStatus()) && "PreemptionByScheduler".equals(c.getReason());
      }
    }
    return false;
  }

  /**
   * How many candidates the dry run wants: {@code n × percentage / 100}, at least the absolute, at
   * most n.
   */
  int calculateNumCandidates(int numNodes) {
    int n = numNodes * args.minCandidateNodesPercentage() / 100;
    if (n < args.minCandidateNodesAbsolute()) {
      n = args.minCandidateNodesAbsolute();
    }
    return Math.min(n, numNodes);
  }

  private static Status statusOf(Map<String, Status> statuses, String node) {
    Status s = statuses == null ? null : statuses.get(node);
    return s == null ? ABSENT : s;
  }

  /**
   * Upstream's FitError text over the dry run's node statuses; nodes without a status count as
   * "Preemption is not helpful for scheduling".
   */
  static String fitError(int numAllNodes, Map<String, Status> nodeStatuses) {
    return FitError.message(numAllNodes, "", nodeStatuses.values(), List.of(NOT_HELPFUL), "");
  }

  /** apimachinery's aggregate error text: one message as is, several (deduplicated) in brackets. */
  static String aggregate(List<String> messages) {
    List<String> unique = messages.stream().distinct().toList();
    return unique.size() == 1 ? unique.get(0) : "[" + String.join(", ", unique) + "]";
  }

  /**
   * The factory registered under {@link Names#DEFAULT_PREEMPTION}; rejects invalid args as upstream
   * does.
   */
  public static DefaultPreemption create(PluginArgs args, Handle handle) {
    return create(args, handle, n -> ThreadLocalRandom.current().nextInt(n));
  }

  /**
   * As {@link #create(PluginArgs, Handle)}, taking the dry run's start offset in [0, n) from {@code
   * offsets}.
   */
  static DefaultPreemption create(PluginArgs args, Handle handle, IntUnaryOperator offsets) {
    DefaultPreemptionArgs a = args == null ? null : args.as(DefaultPreemptionArgs.class);
    if (a == null) {
      a = DefaultPreemptionArgs.defaults();
    }
    List<String> errs = a.validationErrors();
    if (!errs.isEmpty()) {
      throw new FrameworkException(aggregate(errs));
    }
    if (handle == null) {
      throw new FrameworkException("plugin " + NAME + " needs a framework handle");
    }
    return new DefaultPreemption(a, handle, offsets);
  }
}
