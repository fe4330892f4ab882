package io.schedext.realcluster;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The pods of one namespace as the test sees them bound, through a watch of its own (the admin's,
 * so it keeps seeing them whatever happens to the extender's): which are bound now, and when each
 * pod was first seen with a node. Closing stops the watch. Thread-safe.
 */
final class BoundPods implements AutoCloseable {

  private final Map<String, String> nodeOf = new ConcurrentHashMap<>();
  private final Map<String, Instant> boundAt = new ConcurrentHashMap<>();
  private final SharedIndexInformer<Pod> informer;

  /** Starts watching the pods of {@code namespace}. */
  BoundPods(KubernetesClient client, String namespace) {
    informer =
        client
            .pods()
            .inNamespace(namespace)
            .inform(
                new ResourceEventHandler<>() {
                  @Override
                  public void onAdd(Pod pod) {
                    seen(pod);
                  }

                  @Override
                  public void onUpdate(Pod old, Pod pod) {
                    seen(pod);
                  }

                  @Override
                  public void onDelete(Pod pod, boolean unknown) {
                    nodeOf.remove(pod.getMetadata().getName());
                  }
                });
  }

  private void seen(Pod pod) {
    String node = pod.getSpec().getNodeName();
    if (node != null && !node.isEmpty()) {
      String name = pod.getMetadata().getName();
      boundAt.putIfAbsent(name, Instant.now());
      nodeOf.put(name, node);
    }
  }

  /** Pods bound now, as far as the watch has shown (deleted ones no longer count). */
  int count() {
    return nodeOf.size();
  }

  /** The last time a pod was seen bound. */
  Optional<Instant> last() {
    return boundAt.values().stream().max(Instant::compareTo);
  }

  @Override
  public void close() {
    informer.stop();
  }
}
