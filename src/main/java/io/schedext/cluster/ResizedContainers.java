package io.schedext.cluster;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ContainerStatus;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.ResourceRequirements;
import io.schedext.kube.Quantities;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * What the cache keeps of a pod's container statuses: only those that make the scheduler count the
 * container at something other than its spec's requests ({@code kube/PodRequests}), each reduced to
 * the container's name, its reported requests and its allocated resources. A status reporting
 * exactly the spec's requests, and an allocation that is the same or absent, changes nothing, as
 * does the status of a container that is not regular or a sidecar; the kubelet reports resources
 * for every running container, so most pods keep none. Stateless.
 */
final class ResizedContainers {

  private static final String RESTART_ALWAYS = "Always";

  private ResizedContainers() {}

  /**
   * The statuses of {@code statuses} that count, reduced; null when none does. {@code containers}
   * are the spec's containers the statuses belong to; {@code init} when they are init containers,
   * of which only sidecars count.
   */
  static List<ContainerStatus> kept(
      List<ContainerStatus> statuses, List<Container> containers, boolean init) {
    if (statuses == null || statuses.isEmpty()) {
      return null;
    }
    List<ContainerStatus> out = null;
    for (ContainerStatus s : statuses) {
      if (s == null || s.getResources() == null) {
        continue;
      }
      Container c = named(containers, s.getName());
      if (c == null || (init && !RESTART_ALWAYS.equals(c.getRestartPolicy()))) {
        continue;
      }
      Map<String, Quantity> spec = c.getResources() == null ? null : c.getResources().getRequests();
      Map<String, Quantity> reported = s.getResources().getRequests();
      Map<String, Quantity> allocated = s.getAllocatedResources();
      if (same(reported, spec) && (isEmpty(allocated) || same(allocated, spec))) {
        continue;
      }
      ContainerStatus reduced = new ContainerStatus();
      reduced.setName(s.getName());
      ResourceRequirements r = new ResourceRequirements();
      r.setRequests(reported);
      reduced.setResources(r);
      reduced.setAllocatedResources(allocated);
      if (out == null) {
        out = new ArrayList<>(2);
      }
      out.add(reduced);
    }
    return out;
  }

  private static Container named(List<Container> containers, String name) {
    if (containers != null && name != null) {
      for (Container c : containers) {
        if (name.equals(c.getName())) {
          return c;
        }
      }
    }
    return null;
  }

  /** The same resources with the same amounts (a resource named at 0 is not one left out). */
  private static boolean same(Map<String, Quantity> a, Map<String, Quantity> b) {
    if (isEmpty(a) || isEmpty(b)) {
      return isEmpty(a) && isEmpty(b);
    }
    if (a.size() != b.size()) {
      return false;
    }
    for (Map.Entry<String, Quantity> e : a.entrySet()) {
      Quantity other = b.get(e.getKey());
      if (other == null
          || e.getValue() == null
          || Quantities.decimal(e.getValue()).compareTo(Quantities.decimal(other)) != 0) {
        return false;
      }
    }
    return true;
  }

  private static boolean isEmpty(Map<String, Quantity> m) {
    return m == null || m.isEmpty();
  }
}
