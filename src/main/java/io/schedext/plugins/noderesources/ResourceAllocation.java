package io.schedext.plugins.noderesources;

import io.schedext.framework.NodeInfo;
import io.schedext.framework.PodInfo;
import io.schedext.framework.Resource;
import io.schedext.kube.PodRequests;
import io.schedext.kube.Quantities;
import io.schedext.kube.ResourceNames;
import java.math.BigDecimal;
import java.util.List;
import java.util.Map;

/**
 * The configured resources of a resource scoring plugin and how much of each a node offers and
 * would have in use with the pod, as upstream's {@code resourceAllocationScorer}. NodeResourcesFit
 * counts cpu and memory with the non-zero defaults (100m, 200 MiB per container without a request);
 * BalancedAllocation uses the real requests. Immutable and thread-safe; the per-node methods
 * allocate nothing.
 */
final class ResourceAllocation {

  private enum Kind {
    CPU,
    MEMORY,
    EPHEMERAL_STORAGE,
    SCALAR,
    OTHER
  }

  private final String[] names;
  private final long[] weights;
  private final Kind[] kinds;
  private final boolean useRequested;

  ResourceAllocation(List<ResourceSpec> resources, boolean useRequested) {
    int n = resources.size();
    this.names = new String[n];
    this.weights = new long[n];
    this.kinds = new Kind[n];
    this.useRequested = useRequested;
    for (int i = 0; i < n; i++) {
      names[i] = resources.get(i).name();
      weights[i] = resources.get(i).weight();
      kinds[i] = kindOf(names[i]);
    }
  }

  private static Kind kindOf(String name) {
    return switch (name) {
      case ResourceNames.CPU -> Kind.CPU;
      case ResourceNames.MEMORY -> Kind.MEMORY;
      case ResourceNames.EPHEMERAL_STORAGE -> Kind.EPHEMERAL_STORAGE;
      default -> ResourceNames.isScalar(name) ? Kind.SCALAR : Kind.OTHER;
    };
  }

  /** The number of configured resources. */
  int size() {
    return names.length;
  }

  /** The weight of resource {@code i}. */
  long weight(int i) {
    return weights[i];
  }

  /**
   * The pod's request for each configured resource, in configuration order: cpu in millicores,
   * everything else in its base unit, rounded up.
   */
  long[] podRequests(PodInfo pod) {
    if (!useRequested && (pod.requestFromStatus() || PodRequests.hasPodLevelRequests(pod.pod()))) {
      return containerSpecPodRequests(pod);
    }
    long[] out = new long[names.length];
    Map<String, BigDecimal> others = null;
    for (int i = 0; i < names.length; i++) {
      out[i] =
          switch (kinds[i]) {
            case CPU -> useRequested ? pod.request().milliCpu() : pod.nonZeroMilliCpu();
            case MEMORY -> useRequested ? pod.request().memory() : pod.nonZeroMemory();
            case EPHEMERAL_STORAGE -> pod.request().ephemeralStorage();
            case SCALAR -> pod.request().scalar(names[i]);
            case OTHER -> {
              // Not accounted on nodes (so never scored), but BalancedAllocation's best-effort test
              // still sees it.
              if (others == null) {
                others = PodRequests.of(pod.pod());
              }
              BigDecimal v = others.get(names[i]);
              yield v == null ? 0 : Quantities.ceilToLong(v);
            }
          };
    }
    return out;
  }

  /**
   * The non-zero requests from the containers' specs alone. Upstream's NodeResourcesFit scorer
   * never applies pod-level requests nor resized container statuses to the incoming pod (its
   * feature flags are shadowed, kubernetes#141387), so neither do we; Filter applies pod-level
   * requests, and the node accounting and BalancedAllocation apply both.
   */
  private long[] containerSpecPodRequests(PodInfo pod) {
    Map<String, BigDecimal> requests = PodRequests.nonZeroFromContainerSpecs(pod.pod());
    long[] out = new long[names.length];
    for (int i = 0; i < names.length; i++) {
      BigDecimal v = requests.get(names[i]);
      if (v != null) {
        out[i] = Quantities.ceilToLong(kinds[i] == Kind.CPU ? v.movePointRight(3) : v);
      }
    }
    return out;
  }

  /**
   * What {@code node} offers of resource {@code i}; 0 means the resource is left out of the score:
   * the node has none, the pod does not request that scalar resource, or nodes do not account the
   * resource at all.
   */
  long allocatable(NodeInfo node, int i, long podRequest) {
    return switch (kinds[i]) {
      case CPU -> node.allocatableMilliCpu();
      case MEMORY -> node.allocatableMemory();
      case EPHEMERAL_STORAGE -> node.allocatable().ephemeralStorage();
      case SCALAR -> podRequest == 0 ? 0 : node.allocatable().scalar(names[i]);
      case OTHER -> 0;
    };
  }

  /**
   * What {@code node} would have in use of resource {@code i} with the pod placed on it, saturated
   * at {@link Long#MAX_VALUE} (upstream's int64 sum wraps around to a negative amount there).
   */
  long requested(NodeInfo node, int i, long podRequest) {
    long used =
        switch (kinds[i]) {
          case CPU -> useRequested ? node.requestedMilliCpu() : node.nonZeroRequestedMilliCpu();
          case MEMORY -> useRequested ? node.requestedMemory() : node.nonZeroRequestedMemory();
          case EPHEMERAL_STORAGE -> node.requested().ephemeralStorage();
          case SCALAR -> node.requested().scalar(names[i]);
          case OTHER -> 0;
        };
    return kinds[i] == Kind.OTHER ? 0 : Resource.saturatedAdd(used, podRequest);
  }
}
