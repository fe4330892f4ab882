package io.schedext.plugins.helper;

import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.api.model.ReplicationController;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.apps.ReplicaSet;
import io.fabric8.kubernetes.api.model.apps.StatefulSet;
import io.schedext.framework.ClusterObjects;
import io.schedext.framework.PodInfo;
import io.schedext.kube.LabelSelectors;
import io.schedext.kube.Selector;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The selector of "pods like this one", as upstream's {@code helper.DefaultSelector}: the merged
 * selectors of the Services selecting the pod, ANDed with the selector of its controlling
 * ReplicationController, ReplicaSet or StatefulSet. An empty result matches everything (callers
 * treat that as "no default spreading").
 */
public final class DefaultSelector {

  private DefaultSelector() {}

  /** The default selector for {@code pod}. */
  public static Selector of(PodInfo pod, ClusterObjects cluster) {
    Map<String, String> labelSet = new LinkedHashMap<>();
    for (Service s : podServices(pod, cluster)) {
      labelSet.putAll(s.getSpec().getSelector());
    }
    Selector selector = Selector.fromSet(labelSet);
    OwnerReference owner = controllerOf(pod);
    if (owner == null || owner.getApiVersion() == null) {
      return selector;
    }
    String group =
        owner.getApiVersion().contains("/")
            ? owner.getApiVersion().substring(0, owner.getApiVersion().indexOf('/'))
            : "";
    String version = owner.getApiVersion().substring(owner.getApiVersion().indexOf('/') + 1);
    if (!"v1".equals(version)) {
      return selector;
    }
    try {
      if (group.isEmpty() && "ReplicationController".equals(owner.getKind())) {
        for (ReplicationController rc : cluster.replicationControllers(pod.namespace())) {
          if (owner.getName().equals(rc.getMetadata().getName()) && rc.getSpec() != null) {
            Map<String, String> merged = new LinkedHashMap<>(labelSet);
            if (rc.getSpec().getSelector() != null) {
              merged.putAll(rc.getSpec().getSelector());
            }
            return Selector.fromSet(merged);
          }
        }
      } else if ("apps".equals(group) && "ReplicaSet".equals(owner.getKind())) {
        for (ReplicaSet rs : cluster.replicaSets(pod.namespace())) {
          if (owner.getName().equals(rs.getMetadata().getName()) && rs.getSpec() != null) {
            return selector.and(LabelSelectors.compile(rs.getSpec().getSelector()).requirements());
          }
        }
      } else if ("apps".equals(group) && "StatefulSet".equals(owner.getKind())) {
        for (StatefulSet ss : cluster.statefulSets(pod.namespace())) {
          if (owner.getName().equals(ss.getMetadata().getName()) && ss.getSpec() != null) {
            return selector.and(LabelSelectors.compile(ss.getSpec().getSelector()).requirements());
          }
        }
      }
    } catch (IllegalArgumentException e) {
      // An invalid controller selector adds nothing, as upstream.
    }
    return selector;
  }

  /** The Services in the pod's namespace whose (non-nil) selector matches the pod's labels. */
  public static List<Service> podServices(PodInfo pod, ClusterObjects cluster) {
    List<Service> out = new ArrayList<>();
    for (Service s : cluster.services(pod.namespace())) {
      if (s.getSpec() == null || s.getSpec().getSelector() == null) {
        continue;
      }
      if (Selector.fromSet(s.getSpec().getSelector()).matches(pod.labels())) {
        out.add(s);
      }
    }
    return out;
  }

  /** The controlling owner reference, or null. */
  public static OwnerReference controllerOf(PodInfo pod) {
    List<OwnerReference> refs = pod.pod().getMetadata().getOwnerReferences();
    if (refs == null) {
      return null;
    }
    for (OwnerReference r : refs) {
      if (Boolean.TRUE.equals(r.getController())) {
        return r;
      }
    }
    return null;
  }
}
