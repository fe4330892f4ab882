package io.schedext.plugins.selectorspread;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.LabelSelector;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.api.model.ReplicationController;
import io.fabric8.kubernetes.api.model.ReplicationControllerSpec;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.ServiceSpec;
import io.fabric8.kubernetes.api.model.apps.ReplicaSet;
import io.fabric8.kubernetes.api.model.apps.ReplicaSetSpec;
import io.fabric8.kubernetes.api.model.apps.StatefulSet;
import io.fabric8.kubernetes.api.model.apps.StatefulSetSpec;
import io.schedext.cluster.ObjectStore;
import io.schedext.framework.NodeInfo;
import io.schedext.framework.PodInfo;
import io.schedext.testing.MakeNode;
import io.schedext.testing.MakePod;
import io.schedext.testing.PodWrapper;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Small builders for this package's tests: controllers, services, owned pods and node infos holding
 * pods.
 */
final class Fixtures {

  private static final AtomicInteger SEQ = new AtomicInteger();

  private Fixtures() {}

  private static ObjectMeta meta(String namespace, String name) {
    ObjectMeta m = new ObjectMeta();
    m.setNamespace(namespace);
    m.setName(name);
    return m;
  }

  /** A service selecting {@code selector}. */
  static Service service(String namespace, String name, Map<String, String> selector) {
    Service s = new Service();
    s.setMetadata(meta(namespace, name));
    ServiceSpec spec = new ServiceSpec();
    spec.setSelector(new LinkedHashMap<>(selector));
    s.setSpec(spec);
    return s;
  }

  /** A replication controller selecting {@code selector}. */
  static ReplicationController rc(String namespace, String name, Map<String, String> selector) {
    ReplicationController rc = new ReplicationController();
    rc.setMetadata(meta(namespace, name));
    ReplicationControllerSpec spec = new ReplicationControllerSpec();
    spec.setSelector(new LinkedHashMap<>(selector));
    rc.setSpec(spec);
    return rc;
  }

  private static LabelSelector matchLabels(Map<String, String> labels) {
    LabelSelector ls = new LabelSelector();
    ls.setMatchLabels(new LinkedHashMap<>(labels));
    return ls;
  }

  /** A replica set whose selector matches {@code labels}. */
  static ReplicaSet rs(String namespace, String name, Map<String, String> labels) {
    ReplicaSet rs = new ReplicaSet();
    rs.setMetadata(meta(namespace, name));
    ReplicaSetSpec spec = new ReplicaSetSpec();
    spec.setSelector(matchLabels(labels));
    rs.setSpec(spec);
    return rs;
  }

  /** A stateful set whose selector matches {@code labels}. */
  static StatefulSet ss(String namespace, String name, Map<String, String> labels) {
    StatefulSet ss = new StatefulSet();
    ss.setMetadata(meta(namespace, name));
    StatefulSetSpec spec = new StatefulSetSpec();
    spec.setSelector(matchLabels(labels));
    ss.setSpec(spec);
    return ss;
  }

  /** A store holding {@code objects}. */
  static ObjectStore store(List<? extends HasMetadata> objects) {
    ObjectStore store = new ObjectStore();
    objects.forEach(store::put);
    return store;
  }

  /**
   * A pod with a unique name in {@code namespace} with {@code labels}, on {@code node} ("" =
   * pending).
   */
  static PodWrapper pod(String namespace, String node, Map<String, String> labels) {
    return MakePod.pod()
        .name("p" + SEQ.incrementAndGet())
        .namespace(namespace)
        .labels(labels)
        .node(node);
  }

  /**
   * {@code w} controlled by the {@code kind} ("ReplicationController", "ReplicaSet" or
   * "StatefulSet") named {@code name}, with the API version that kind really has.
   */
  static PodInfo ownedBy(PodWrapper w, String kind, String name) {
    var pod = w.owner(kind, name).obj();
    if ("ReplicationController".equals(kind)) {
      pod.getMetadata().getOwnerReferences().forEach(r -> r.setApiVersion("v1"));
    }
    return PodInfo.of(pod);
  }

  /**
   * Node infos for the nodes of {@code labelsByNode}, in its order, each holding its pods of {@code
   * pods}.
   */
  static List<NodeInfo> nodes(Map<String, Map<String, String>> labelsByNode, List<PodInfo> pods) {
    List<NodeInfo> out = new ArrayList<>();
    labelsByNode.forEach(
        (name, labels) ->
            out.add(
                MakeNode.node()
                    .name(name)
                    .labels(labels)
                    .info(
                        pods.stream()
                            .filter(p -> p.nodeName().equals(name))
                            .toArray(PodInfo[]::new))));
    return out;
  }
}
