package io.schedext.extender;

import io.fabric8.kubernetes.api.model.Pod;
import io.schedext.cluster.ClusterSource;
import io.schedext.extender.wire.ExtenderBindingArgs;
import io.schedext.extender.wire.ExtenderBindingResult;
import io.schedext.framework.runtime.Framework;
import io.schedext.scheduler.BindingCycle;
import java.util.ArrayList;
import java.util.List;

/**
 * The bind verb: reads the request, binds the pod with the binding cycle ({@link BindingCycle}),
 * finding it in the cluster source or among the pods of recent filter and prioritize calls, and
 * answers with the outcome's reason in {@code Error}. Thread-safe.
 */
final class BindService {

  private final ClusterSource source;
  private final SeenPods seenPods;
  private final ExtenderMetrics metrics;
  private final BindingCycle cycle;

  BindService(
      BindingCycle cycle, ClusterSource source, SeenPods seenPods, ExtenderMetrics metrics) {
    this.cycle = cycle;
    this.source = source;
    this.seenPods = seenPods;
    this.metrics = metrics;
  }

  /**
   * Binds a pod ({@link BindingCycle#bind}): the pod is looked up in the cache, then in the cluster
   * source, then among the pods of recent filter and prioritize calls. Counts and logs the outcome.
   */
  ExtenderBindingResult bind(Framework fw, ExtenderBindingArgs a) {
    List<String> missing = new ArrayList<>();
    if (blank(a.podName())) {
      missing.add("PodName");
    }
    if (blank(a.podNamespace())) {
      missing.add("PodNamespace");
    }
    if (blank(a.podUid())) {
      missing.add("PodUID");
    }
    if (blank(a.node())) {
      missing.add("Node");
    }
    if (!missing.isEmpty()) {
      throw new BadRequestException("missing required field(s): " + String.join(", ", missing));
    }
    BindingCycle.Target target =
        new BindingCycle.Target(a.podNamespace(), a.podName(), a.podUid(), a.node());
    BindingCycle.Outcome outcome = cycle.bind(fw, target, () -> lookup(a));
    metrics.bind(outcome.result());
    if (!outcome.error().isEmpty()) {
      DecisionLog.LOG.info(
          "bind pod={} node={} {}: {}", target.key(), a.node(), outcome.result(), outcome.error());
    } else {
      DecisionLog.LOG.debug("bind pod={} node={} done", target.key(), a.node());
    }
    return new ExtenderBindingResult(outcome.error());
  }

  private Pod lookup(ExtenderBindingArgs a) {
    Pod pod = source.findPod(a.podNamespace(), a.podName(), a.podUid());
    return pod != null ? pod : seenPods.get(a.podUid());
  }

  private static boolean blank(String s) {
    return s == null || s.isBlank();
  }
}
