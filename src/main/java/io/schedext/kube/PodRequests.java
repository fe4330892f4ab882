package io.schedext.kube;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.Quantity;
import java.math.BigDecimal;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * A pod's effective resource requests, as component-helpers' {@code PodRequests}: the sum of the
 * regular containers and of restartable (sidecar) init containers, raised per resource to what any
 * init container needs while it runs next to the sidecars started before it, replaced by pod-level
 * requests where the pod states them, plus {@code spec.overhead}. Values are exact decimals.
 */
public final class PodRequests {

  /**
   * The CPU request, in millicores, counted for a container that states none (scheduler's non-zero
   * rule).
   */
  public static final long DEFAULT_MILLI_CPU_REQUEST = 100;

  /** The memory request, in bytes, counted for a container that states none (200 MiB). */
  public static final long DEFAULT_MEMORY_REQUEST = 200L * 1024 * 1024;

  private static final Map<String, BigDecimal> NON_ZERO_DEFAULTS =
      Map.of(
          ResourceNames.CPU, BigDecimal.valueOf(DEFAULT_MILLI_CPU_REQUEST).movePointLeft(3),
          ResourceNames.MEMORY, BigDecimal.valueOf(DEFAULT_MEMORY_REQUEST));

  private PodRequests() {}

  /** The pod's requests per resource name. */
  public static Map<String, BigDecimal> of(Pod pod) {
    return compute(pod, Map.of(), true);
  }

  /**
   * The pod's requests where a container missing a cpu or memory request counts the scheduler's
   * default.
   */
  public static Map<String, BigDecimal> nonZero(Pod pod) {
    return compute(pod, NON_ZERO_DEFAULTS, true);
  }

  /**
   * As {@link #nonZero(Pod)} but from the containers alone, ignoring pod-level requests: what
   * upstream's NodeResourcesFit scorer computes for the incoming pod, whose pod-level flag is
   * shadowed (kubernetes#141387).
   */
  public static Map<String, BigDecimal> nonZeroIgnoringPodLevel(Pod pod) {
    return compute(pod, NON_ZERO_DEFAULTS, false);
  }

  /** True when the pod states pod-level requests ({@code spec.resources.requests}). */
  public static boolean hasPodLevelRequests(Pod pod) {
    PodSpec spec = pod.getSpec();
    return spec != null
        && spec.getResources() != null
        && spec.getResources().getRequests() != null
        && !spec.getResources().getRequests().isEmpty();
  }

  private static Map<String, BigDecimal> compute(
      Pod pod, Map<String, BigDecimal> nonMissing, boolean podLevel) {
    Map<String, BigDecimal> reqs = new HashMap<>();
    PodSpec spec = pod.getSpec();
    if (spec == null) {
      return reqs;
    }
    for (Container c : nullSafe(spec.getContainers())) {
      add(reqs, containerRequests(c, nonMissing));
    }
    Map<String, BigDecimal> restartable = new HashMap<>();
    Map<String, BigDecimal> initMax = new HashMap<>();
    for (Container c : nullSafe(spec.getInitContainers())) {
      Map<String, BigDecimal> cr = containerRequests(c, nonMissing);
      Map<String, BigDecimal> effective;
      if ("Always".equals(c.getRestartPolicy())) {
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
    if (podLevel) {
      applyPodLevelRequests(reqs, spec);
    }
    if (spec.getOverhead() != null) {
      add(reqs, decimals(spec.getOverhead()));
    }
    return reqs;
  }

  /**
   * Pod-level requests ({@code spec.resources}, PodLevelResources, beta and on by default since
   * 1.34) replace the container aggregate for the resources that support them: cpu, memory and
   * hugepages.
   */
  private static void applyPodLevelRequests(Map<String, BigDecimal> reqs, PodSpec spec) {
    if (spec.getResources() == null || spec.getResources().getRequests() == null) {
      return;
    }
    for (Map.Entry<String, Quantity> e : spec.getResources().getRequests().entrySet()) {
      String name = e.getKey();
      if (name.equals(ResourceNames.CPU)
          || name.equals(ResourceNames.MEMORY)
          || ResourceNames.isHugePages(name)) {
        reqs.put(name, Quantities.decimal(e.getValue()));
      }
    }
  }

  private static Map<String, BigDecimal> containerRequests(
      Container c, Map<String, BigDecimal> nonMissing) {
    Map<String, Quantity> raw = c.getResources() == null ? null : c.getResources().getRequests();
    Map<String, BigDecimal> out = decimals(raw);
    for (Map.Entry<String, BigDecimal> e : nonMissing.entrySet()) {
      out.putIfAbsent(e.getKey(), e.getValue());
    }
    return out;
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
