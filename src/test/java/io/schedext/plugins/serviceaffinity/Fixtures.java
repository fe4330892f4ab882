package io.schedext.plugins.serviceaffinity;

import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.ServiceSpec;
import io.schedext.cluster.ObjectStore;
import io.schedext.framework.NodeInfo;
import io.schedext.framework.PodInfo;
import io.schedext.testing.MakeNode;
import io.schedext.testing.NodeWrapper;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Small builders for this package's tests: services, and node infos holding the pods assigned to
 * them.
 */
final class Fixtures {

  private Fixtures() {}

  /**
   * A service named {@code name} in {@code namespace} selecting {@code selector} (null = no
   * selector).
   */
  static Service service(String namespace, String name, Map<String, String> selector) {
    Service s = new Service();
    ObjectMeta meta = new ObjectMeta();
    meta.setNamespace(namespace);
    meta.setName(name);
    s.setMetadata(meta);
    ServiceSpec spec = new ServiceSpec();
    spec.setSelector(selector == null ? null : new LinkedHashMap<>(selector));
    s.setSpec(spec);
    return s;
  }

  /** A store holding {@code services}. */
  static ObjectStore store(List<Service> services) {
    ObjectStore store = new ObjectStore();
    services.forEach(store::put);
    return store;
  }

  /**
   * Node infos for the nodes of {@code labelsByNode}, in its iteration order, each holding the pods
   * of {@code pods} whose node name is that node.
   */
  static List<NodeInfo> nodes(Map<String, Map<String, String>> labelsByNode, List<PodInfo> pods) {
    List<NodeInfo> out = new ArrayList<>();
    labelsByNode.forEach(
        (name, labels) -> {
          NodeWrapper w = MakeNode.node().name(name).labels(labels);
          out.add(
              w.info(pods.stream().filter(p -> p.nodeName().equals(name)).toArray(PodInfo[]::new)));
        });
    return out;
  }

  /** An insertion-ordered map of the given key/value pairs. */
  @SafeVarargs
  static <V> Map<String, V> ordered(Map.Entry<String, V>... entries) {
    Map<String, V> m = new LinkedHashMap<>();
    for (Map.Entry<String, V> e : entries) {
      m.put(e.getKey(), e.getValue());
    }
    return m;
  }
}
