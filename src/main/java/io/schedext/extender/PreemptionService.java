package io.schedext.extender;

import io.fabric8.kubernetes.api.model.Pod;
import io.schedext.cache.SchedulerCache;
import io.schedext.cache.Snapshot;
import io.schedext.extender.wire.ExtenderPreemptionArgs;
import io.schedext.extender.wire.ExtenderPreemptionResult;
import io.schedext.extender.wire.MetaPod;
import io.schedext.extender.wire.MetaVictims;
import io.schedext.framework.Framework;
import io.schedext.framework.NodeInfo;
import io.schedext.framework.PodInfo;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The preempt verb: checks kube-scheduler's proposal against this extender's own view and answers by UID. This
 * version keeps only nodes the cache knows and victims that really run there, and never returns a node without
 * victims.
 */
final class PreemptionService {

  private final SchedulerCache cache;

  PreemptionService(SchedulerCache cache) {
    this.cache = cache;
  }

  ExtenderPreemptionResult preempt(Framework fw, PodInfo preemptor, ExtenderPreemptionArgs args) {
    Snapshot snapshot = cache.snapshot();
    Map<String, List<String>> proposed = new LinkedHashMap<>();
    Map<String, Long> violations = new LinkedHashMap<>();
    if (args.nodeNameToMetaVictims() != null) {
      args.nodeNameToMetaVictims().forEach((node, v) -> {
        List<String> uids = new ArrayList<>();
        if (v != null && v.pods() != null) {
          for (MetaPod p : v.pods()) {
            if (p != null && p.uid() != null) {
              uids.add(p.uid());
            }
          }
        }
        proposed.put(node, uids);
        violations.put(node, v == null ? 0 : v.numPdbViolations());
      });
    } else if (args.nodeNameToVictims() != null) {
      args.nodeNameToVictims().forEach((node, v) -> {
        List<String> uids = new ArrayList<>();
        if (v != null && v.pods() != null) {
          for (Pod p : v.pods()) {
            if (p != null && p.getMetadata() != null && p.getMetadata().getUid() != null) {
              uids.add(p.getMetadata().getUid());
            }
          }
        }
        proposed.put(node, uids);
        violations.put(node, v == null ? 0 : v.numPdbViolations());
      });
    }
    Map<String, MetaVictims> out = new LinkedHashMap<>();
    for (Map.Entry<String, List<String>> e : proposed.entrySet()) {
      NodeInfo node = snapshot.get(e.getKey());
      if (node == null) {
        continue;
      }
      Set<String> onNode = new HashSet<>();
      for (PodInfo p : node.pods()) {
        onNode.add(p.uid());
      }
      List<MetaPod> victims = new ArrayList<>();
      for (String uid : e.getValue()) {
        if (onNode.contains(uid)) {
          victims.add(new MetaPod(uid));
        }
      }
      if (!victims.isEmpty()) {
        out.put(e.getKey(), new MetaVictims(victims, violations.getOrDefault(e.getKey(), 0L)));
      }
    }
    return new ExtenderPreemptionResult(out);
  }

}
