package io.schedext.kube;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ContainerStatus;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodCondition;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.PodStatus;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.ResourceRequirements;
import java.math.BigDecimal;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * A pod's effective resource requests, as component-helpers' {@code PodRequests}: the sum of the
 * regular containers and of restartable (sidecar) init containers, raised per resource to what any
 * init container needs while it runs next to the sidecars started before it, replaced by pod-level
 * requests where the pod states them, plus {@code spec.overhead}. Values are exact decimals.
 *
 * <p>With in-place resize (InPlacePodVerticalScaling, on by default since 1.33) a regular or
 * sidecar container whose status reports its resources counts the larger, per resource, of what its
 * spec asks, what its status says it has and what the kubelet allocated to it; when the pod's
 * {@code PodResizePending} condition says the resize is infeasible, the spec is left out and only
 * the status and allocation count. Upstream reads the status for pods in the scheduler's cache and
 * for the scorers' view of the incoming pod, but not for NodeResourcesFit's Filter, which takes the
 * spec of a pod not yet running; hence the variants here.
 */
public final class PodRequests {

  /**
   * The CPU request, in millicores, counted for a container that states none (scheduler's non-zero
   * rule).
   */
  public static final long DEFAULT_MILLI_CPU_REQUEST = 100;

  /** The memory request, in bytes, counted for a container that states none (200 MiB). */
  public static final long DEFAULT_MEMORY_REQUEST = 200L * 1024 * 1024;

  private static final BigDecimal DEFAULT_CPU =
      BigDecimal.valueOf(DEFAULT_MILLI_CPU_REQUEST).movePointLeft(3);
  private static final BigDecimal DEFAULT_MEMORY = BigDecimal.valueOf(DEFAULT_MEMORY_REQUEST);

  private static final Map<String, BigDecimal> NON_ZERO_DEFAULTS =
      Map.of(ResourceNames.CPU, DEFAULT_CPU, ResourceNames.MEMORY, DEFAULT_MEMORY);

  private static final String RESTART_ALWAYS = "Always";
  private static final String RESIZE_PENDING = "PodResizePending";
  private static final String REASON_INFEASIBLE = "Infeasible";

  private PodRequests() {}

  /**
   * The pod's requests per resource name, container statuses considered: what the scheduler's cache
   * counts for a pod on a node, and what BalancedAllocation scores the incoming pod with.
   */
  public static Map<String, BigDecimal> of(Pod pod) {
    return compute(pod, true, true, Map.of());
  }

  /**
   * The pod's requests from its spec alone (container statuses ignored), pod-level requests
   * applied: what NodeResourcesFit's Filter checks.
   */
  public static Map<String, BigDecimal> ofSpec(Pod pod) {
    return compute(pod, false, true, Map.of());
  }

  /**
   * The pod's requests where a container missing a cpu or memory request counts the scheduler's
   * default, container statuses considered: the non-zero requests the scheduler's cache keeps per
   * node (upstream's {@code PodInfo.CalculateResource}). For a pod with pod-level requests only a
   * resource missing from the whole pod's requests gets container defaults.
   */
  public static Map<String, BigDecimal> nonZero(Pod pod) {
    return nonZero(pod, of(pod));
  }

  /** As {@link #nonZero(Pod)}, given {@code requests}, the pod's {@link #of(Pod)}. */
  public static Map<String, BigDecimal> nonZero(Pod pod, Map<String, BigDecimal> requests) {
    Map<String, BigDecimal> nonMissing;
    if (!hasPodLevelRequests(pod)) {
      nonMissing = NON_ZERO_DEFAULTS;
    } else {
      nonMissing = new HashMap<>(2);
      if (!requests.containsKey(ResourceNames.CPU)) {
        nonMissing.put(ResourceNames.CPU, DEFAULT_CPU);
      }
      if (!requests.containsKey(ResourceNames.MEMORY)) {
        nonMissing.put(ResourceNames.MEMORY, DEFAULT_MEMORY);
      }
      if (nonMissing.isEmpty()) {
        return requests;
      }
    }
    return compute(pod, true, true, nonMissing);
  }

  /**
   * The non-zero requests from the containers' specs alone, ignoring pod-level requests and
   * container statuses: what upstream's NodeResourcesFit scorer computes for the incoming pod,
   * whose feature flags for both are shadowed by the plugin's own (kubernetes#141387).
   */
  public static Map<String, BigDecimal> nonZeroFromContainerSpecs(Pod pod) {
    return compute(pod, false, false, NON_ZERO_DEFAULTS);
  }

  /**
   * True when the pod states pod-level requests of a resource that supports them (cpu, memory,
   * hugepages), as component-helpers' {@code IsPodLevelRequestsSet}.
   */
  public static boolean hasPodLevelRequests(Pod pod) {
    PodSpec spec = pod.getSpec();
    if (spec == null || spec.getResources() == null || spec.getResources().getRequests() == null) {
      return false;
    }
    for (String name : spec.getResources().getRequests().keySet()) {
      if (supportsPodLevel(name)) {
        return true;
      }
    }
    return false;
  }

  /**
   * True when some container status of the pod reports the container's resources, so that its
   * requests may differ from the spec's.
   */
  public static boolean hasStatusResources(Pod pod) {
    PodStatus status = pod.getStatus();
    return status != null
        && (reportsResources(status.getContainerStatuses())
            || reportsResources(status.getInitContainerStatuses()));
  }

  private static boolean reportsResources(List<ContainerStatus> statuses) {
    if (statuses != null) {
      for (ContainerStatus s : statuses) {
        if (s != null && s.getResources() != null) {
          return true;
        }
      }
    }
    return false;
  }

  /**
   * True when the pod's {@code PodResizePending} condition (its first one) gives the reason {@code
   * Infeasible}, as component-helpers' {@code IsPodResizeInfeasible}.
   */
  public static boolean isResizeInfeasible(Pod pod) {
    PodStatus status = pod.getStatus();
    if (status == null || status.getConditions() == null) {
      return false;
    }
    for (PodCondition c : status.getConditions()) {
      if (c != null && RESIZE_PENDING.equals(c.getType())) {
        return REASON_INFEASIBLE.equals(c.getReason());
      }
    }
    return false;
  }

  private static boolean supportsPodLevel(String name) {
    return name.equals(ResourceNames.CPU)
        || name.equals(ResourceNames.MEMORY)
        || ResourceNames.isHugePages(name);
  }

  private static Map<String, BigDecimal> compute(
      Pod pod, boolean useStatus, boolean podLevel, Map<String, BigDecimal> nonMissing) {
    Map<String, BigDecimal> reqs = new HashMap<>();
    PodSpec spec = pod.getSpec();
    if (spec == null) {
      return reqs;
    }
    Map<String, ContainerStatus> statuses =
        useStatus && hasStatusResources(pod) ? statusesByName(pod.getStatus()) : null;
    boolean infeasible = statuses != null && isResizeInfeasible(pod);
    for (Container c : nullSafe(spec.getContainers())) {
      add(reqs, containerRequests(c, statuses, infeasible, nonMissing));
    }
    Map<String, BigDecimal> restartable = new HashMap<>();
    Map<String, BigDecimal> initMax = new HashMap<>();
    for (Container c : nullSafe(spec.getInitContainers())) {
      boolean sidecar = RESTART_ALWAYS.equals(c.getRestartPolicy());
      // Only sidecars are resized; a plain init container has finished by the time one could be.
      Map<String, BigDecimal> cr =
          containerRequests(c, sidecar ? statuses : null, infeasible, nonMissing);
      Map<String, BigDecimal> effective;
      if (sidecar) {
        add(reqs, cr);
        add(restartable, cr);
        effective = restartable;
      } else {
        effective = new HashMap<>(cr);
        add(effective, restartable);
      }
      max(initMax, effective);
    }
    max(reqs, initMax);
    if (podLevel && hasPodLevelRequests(pod)) {
      applyPodLevelRequests(reqs, spec);
    }
    if (spec.getOverhead() != null) {
      add(reqs, decimals(spec.getOverhead()));
    }
    return reqs;
  }

  /** The container statuses by container name, init containers' last (names are unique). */
  private static Map<String, ContainerStatus> statusesByName(PodStatus status) {
    Map<String, ContainerStatus> out = new HashMap<>();
    for (ContainerStatus s : nullSafe(status.getContainerStatuses())) {
      if (s != null) {
        out.put(s.getName(), s);
      }
    }
    for (ContainerStatus s : nullSafe(status.getInitContainerStatuses())) {
      if (s != null) {
        out.put(s.getName(), s);
      }
    }
    return out;
  }

  /**
   * Pod-level requests ({@code spec.resources}, PodLevelResources, beta and on by default since
   * 1.34) replace the container aggregate for the resources that support them: cpu, memory and
   * hugepages.
   */
  private static void applyPodLevelRequests(Map<String, BigDecimal> reqs, PodSpec spec) {
    for (Map.Entry<String, Quantity> e : spec.getResources().getRequests().entrySet()) {
      if (supportsPodLevel(e.getKey())) {
        reqs.put(e.getKey(), Quantities.decimal(e.getValue()));
      }
    }
  }

  /**
   * One container's requests: its spec's, or, when {@code statuses} has its status with resources,
   * the per-resource maximum of spec (left out when the resize is {@code infeasible}), status and
   * allocation; then {@code nonMissing} for the resources it names none of.
   */
  private static Map<String, BigDecimal> containerRequests(
      Container c,
      Map<String, ContainerStatus> statuses,
      boolean infeasible,
      Map<String, BigDecimal> nonMissing) {
    Map<String, BigDecimal> out = decimals(requests(c.getResources()));
    ContainerStatus cs = statuses == null ? null : statuses.get(c.getName());
    if (cs != null && cs.getResources() != null) {
      Map<String, BigDecimal> fromStatus = decimals(requests(cs.getResources()));
      max(fromStatus, decimals(cs.getAllocatedResources()));
      if (infeasible) {
        out = fromStatus;
      } else {
        max(out, fromStatus);
      }
    }
    for (Map.Entry<String, BigDecimal> e : nonMissing.entrySet()) {
      out.putIfAbsent(e.getKey(), e.getValue());
    }
    return out;
  }

  private static Map<String, Quantity> requests(ResourceRequirements r) {
    return r == null ? null : r.getRequests();
  }

  private static Map<String, BigDecimal> decimals(Map<String, Quantity> raw) {
    Map<String, BigDecimal> out = new HashMap<>();
    if (raw != null) {
      for (Map.Entry<String, Quantity> e : raw.entrySet()) {
        out.put(e.getKey(), Quantities.decimal(e.getValue()));
      }
    }
    return out;
  }

  private static void add(Map<String, BigDecimal> into, Map<String, BigDecimal> from) {
    for (Map.Entry<String, BigDecimal> e : from.entrySet()) {
      into.merge(e.getKey(), e.getValue(), BigDecimal::add);
    }
  }

  private static void max(Map<String, BigDecimal> into, Map<String, BigDecimal> from) {
    for (Map.Entry<String, BigDecimal> e : from.entrySet()) {
      into.merge(e.getKey(), e.getValue(), BigDecimal::max);
    }
  }

  private static <T> List<T> nullSafe(List<T> l) {
    return l == null ? List.of() : l;
  }
}
