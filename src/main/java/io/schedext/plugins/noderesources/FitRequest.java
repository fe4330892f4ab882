package io.schedext.plugins.noderesources;

import io.schedext.framework.NodeInfo;
import io.schedext.framework.PodInfo;
import io.schedext.framework.Resource;
import io.schedext.framework.StateData;
import io.schedext.framework.Status;
import io.schedext.kube.PodRequests;
import io.schedext.kube.ResourceNames;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * The pod's effective request as NodeResourcesFit's Filter checks it, computed once in PreFilter:
 * cpu, memory, ephemeral storage, and the scalar resources left after dropping zero requests and
 * ignored extended resources (in name order, so the reasons come out in a stable order where
 * upstream iterates a map). Immutable.
 */
final class FitRequest implements StateData {

  private static final String TOO_MANY_PODS = "Too many pods";
  private static final String INSUFFICIENT = "Insufficient ";

  private final long milliCpu;
  private final long memory;
  private final long ephemeralStorage;
  private final boolean requestsNothing;
  private final String[] scalarNames;
  private final long[] scalarRequests;

  private FitRequest(
      long milliCpu,
      long memory,
      long ephemeralStorage,
      boolean requestsNothing,
      String[] scalarNames,
      long[] scalarRequests) {
    this.milliCpu = milliCpu;
    this.memory = memory;
    this.ephemeralStorage = ephemeralStorage;
    this.requestsNothing = requestsNothing;
    this.scalarNames = scalarNames;
    this.scalarRequests = scalarRequests;
  }

  /**
   * The request of {@code pod}, without the extended resources named in {@code ignored} or in
   * {@code groups}. Taken from the spec alone, as upstream's PreFilter does for a pod that is not
   * running yet: resources an in-place resize reports in its container statuses are not counted.
   */
  static FitRequest of(PodInfo pod, Set<String> ignored, Set<String> groups) {
    Resource r =
        pod.requestFromStatus()
            ? Resource.fromDecimals(PodRequests.ofSpec(pod.pod()))
            : pod.request();
    boolean nothing =
        r.milliCpu() == 0 && r.memory() == 0 && r.ephemeralStorage() == 0 && !r.hasScalars();
    Map<String, Long> checked = new TreeMap<>();
    for (Map.Entry<String, Long> e : r.scalarResources().entrySet()) {
      String name = e.getKey();
      if (e.getValue() == 0
          || (ResourceNames.isExtended(name) && isIgnored(name, ignored, groups))) {
        continue;
      }
      checked.put(name, e.getValue());
    }
    String[] names = checked.keySet().toArray(new String[0]);
    long[] requests = new long[names.length];
    for (int i = 0; i < names.length; i++) {
      requests[i] = checked.get(names[i]);
    }
    return new FitRequest(r.milliCpu(), r.memory(), r.ephemeralStorage(), nothing, names, requests);
  }

  private static boolean isIgnored(String name, Set<String> ignored, Set<String> groups) {
    if (ignored.contains(name)) {
      return true;
    }
    // Extended resource names always hold a "/"; the group is what precedes the first one.
    return !groups.isEmpty() && groups.contains(name.substring(0, name.indexOf('/')));
  }

  /**
   * Success when the pod fits on {@code node}; otherwise every insufficient resource as a reason,
   * Unschedulable, or UnschedulableAndUnresolvable when the pod asks for more of some resource than
   * the node has in total (no preemption can help then), attributed to NodeResourcesFit.
   */
  Status check(NodeInfo node) {
    boolean tooManyPods = node.podCount() + 1 > node.allowedPodNumber();
    if (requestsNothing) {
      return tooManyPods ? Statuses.TOO_MANY_PODS : Status.success();
    }
    List<String> reasons = null;
    boolean unresolvable = false;
    if (tooManyPods) {
      reasons = add(reasons, TOO_MANY_PODS);
    }
    long allocatableCpu = node.allocatableMilliCpu();
    if (milliCpu > 0 && milliCpu > allocatableCpu - node.requestedMilliCpu()) {
      reasons = add(reasons, Statuses.INSUFFICIENT_CPU);
      unresolvable = milliCpu > allocatableCpu;
    }
    long allocatableMemory = node.allocatableMemory();
    if (memory > 0 && memory > allocatableMemory - node.requestedMemory()) {
      reasons = add(reasons, Statuses.INSUFFICIENT_MEMORY);
      unresolvable |= memory > allocatableMemory;
    }
    if (ephemeralStorage > 0 || scalarNames.length > 0) {
      // Rarely requested: read from the resources themselves, not the node info's own fields.
      Resource alloc = node.allocatable();
      Resource used = node.requested();
      if (ephemeralStorage > 0
          && ephemeralStorage > alloc.ephemeralStorage() - used.ephemeralStorage()) {
        reasons = add(reasons, Statuses.INSUFFICIENT_EPHEMERAL_STORAGE);
        unresolvable |= ephemeralStorage > alloc.ephemeralStorage();
      }
      for (int i = 0; i < scalarNames.length; i++) {
        long capacity = alloc.scalar(scalarNames[i]);
        if (scalarRequests[i] > capacity - used.scalar(scalarNames[i])) {
          reasons = add(reasons, INSUFFICIENT + scalarNames[i]);
          unresolvable |= scalarRequests[i] > capacity;
        }
      }
    }
    if (reasons == null) {
      return Status.success();
    }
    return Statuses.of(unresolvable, reasons);
  }

  private static List<String> add(List<String> reasons, String reason) {
    List<String> out = reasons == null ? new ArrayList<>(4) : reasons;
    out.add(reason);
    return out;
  }

  @Override
  public StateData copy() {
    return this;
  }

  /** The fixed reasons and their statuses, built once. */
  private static final class Statuses {
    static final String INSUFFICIENT_CPU = INSUFFICIENT + ResourceNames.CPU;
    static final String INSUFFICIENT_MEMORY = INSUFFICIENT + ResourceNames.MEMORY;
    static final String INSUFFICIENT_EPHEMERAL_STORAGE =
        INSUFFICIENT + ResourceNames.EPHEMERAL_STORAGE;
    static final Status TOO_MANY_PODS =
        Status.unschedulable(FitRequest.TOO_MANY_PODS).withPlugin(Fit.NAME);
    private static final Map<String, Status> SINGLE =
        Map.of(
            FitRequest.TOO_MANY_PODS,
            TOO_MANY_PODS,
            INSUFFICIENT_CPU,
            Status.unschedulable(INSUFFICIENT_CPU).withPlugin(Fit.NAME),
            INSUFFICIENT_MEMORY,
            Status.unschedulable(INSUFFICIENT_MEMORY).withPlugin(Fit.NAME),
            INSUFFICIENT_EPHEMERAL_STORAGE,
            Status.unschedulable(INSUFFICIENT_EPHEMERAL_STORAGE).withPlugin(Fit.NAME));
    private static final Map<String, Status> SINGLE_UNRESOLVABLE =
        Map.of(
            INSUFFICIENT_CPU, Status.unresolvable(INSUFFICIENT_CPU).withPlugin(Fit.NAME),
            INSUFFICIENT_MEMORY, Status.unresolvable(INSUFFICIENT_MEMORY).withPlugin(Fit.NAME),
            INSUFFICIENT_EPHEMERAL_STORAGE,
                Status.unresolvable(INSUFFICIENT_EPHEMERAL_STORAGE).withPlugin(Fit.NAME));

    static Status of(boolean unresolvable, List<String> reasons) {
      if (reasons.size() == 1) {
        Status s = (unresolvable ? SINGLE_UNRESOLVABLE : SINGLE).get(reasons.get(0));
        if (s != null) {
          return s;
        }
      }
      String[] r = reasons.toArray(new String[0]);
      return (unresolvable ? Status.unresolvable(r) : Status.unschedulable(r)).withPlugin(Fit.NAME);
    }
  }
}
