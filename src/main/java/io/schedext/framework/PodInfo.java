package io.schedext.framework;

import io.fabric8.kubernetes.api.model.Affinity;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ContainerPort;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodAffinityTerm;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.Volume;
import io.fabric8.kubernetes.api.model.WeightedPodAffinityTerm;
import io.schedext.kube.PodRequests;
import io.schedext.kube.ResourceNames;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * A pod with everything the plugins read pre-computed once: identity, labels, priority, resource
 * requests (and their non-zero variant), wanted host ports, PVC keys and compiled affinity terms.
 * Built when a pod enters the cache or a request, so Filter and Score never parse. Immutable and
 * thread-safe: treat {@link #pod()} as read-only.
 */
public final class PodInfo {

  /**
   * A host port a container asks for.
   *
   * @param hostIp the host IP ("" = all)
   * @param protocol the protocol ("" = TCP)
   * @param port the host port, &gt; 0
   */
  public record HostPort(String hostIp, String protocol, int port) {}

  private final Pod pod;
  private final String uid;
  private final String namespace;
  private final String name;
  private final String nodeName;
  private final Map<String, String> labels;
  private final int priority;
  private final boolean terminating;
  private final Resource request;
  private final boolean requestFromStatus;
  private final long nonZeroMilliCpu;
  private final long nonZeroMemory;
  private final List<HostPort> hostPorts;
  private final List<String> pvcKeys;
  private final boolean hasPodAffinityOrAntiAffinity;
  private final boolean hasRequiredAntiAffinity;
  private final List<AffinityTerm> requiredAffinityTerms;
  private final List<AffinityTerm> requiredAntiAffinityTerms;
  private final List<WeightedAffinityTerm> preferredAffinityTerms;
  private final List<WeightedAffinityTerm> preferredAntiAffinityTerms;
  private final String parseError;

  private PodInfo(Pod pod) {
    this.pod = pod;
    var meta = pod.getMetadata();
    if (meta == null) {
      throw new IllegalArgumentException("pod has no metadata");
    }
    this.uid = nullToEmpty(meta.getUid());
    this.namespace = nullToEmpty(meta.getNamespace());
    this.name = nullToEmpty(meta.getName());
    this.labels = meta.getLabels() == null ? Map.of() : meta.getLabels();
    this.terminating = meta.getDeletionTimestamp() != null;
    PodSpec spec = pod.getSpec() == null ? new PodSpec() : pod.getSpec();
    this.nodeName = nullToEmpty(spec.getNodeName());
    this.priority = spec.getPriority() == null ? 0 : spec.getPriority();
    Map<String, BigDecimal> requests = PodRequests.of(pod);
    this.request = Resource.fromDecimals(requests);
    this.requestFromStatus = PodRequests.hasStatusResources(pod);
    Map<String, BigDecimal> nonZero = PodRequests.nonZero(pod, requests);
    Resource nz =
        Resource.fromDecimals(
            Map.of(
                ResourceNames.CPU, nonZero.getOrDefault(ResourceNames.CPU, BigDecimal.ZERO),
                ResourceNames.MEMORY, nonZero.getOrDefault(ResourceNames.MEMORY, BigDecimal.ZERO)));
    this.nonZeroMilliCpu = nz.milliCpu();
    this.nonZeroMemory = nz.memory();
    this.hostPorts = hostPorts(spec);
    this.pvcKeys = pvcKeys(namespace, spec);
    Affinity a = spec.getAffinity();
    this.hasPodAffinityOrAntiAffinity =
        a != null && (a.getPodAffinity() != null || a.getPodAntiAffinity() != null);
    this.hasRequiredAntiAffinity =
        a != null
            && a.getPodAntiAffinity() != null
            && a.getPodAntiAffinity().getRequiredDuringSchedulingIgnoredDuringExecution() != null
            && !a.getPodAntiAffinity()
                .getRequiredDuringSchedulingIgnoredDuringExecution()
                .isEmpty();
    List<String> errors = new ArrayList<>();
    this.requiredAffinityTerms =
        compileTerms(
            a == null || a.getPodAffinity() == null
                ? null
                : a.getPodAffinity().getRequiredDuringSchedulingIgnoredDuringExecution(),
            "requiredAffinityTerms",
            errors);
    this.requiredAntiAffinityTerms =
        compileTerms(
            a == null || a.getPodAntiAffinity() == null
                ? null
                : a.getPodAntiAffinity().getRequiredDuringSchedulingIgnoredDuringExecution(),
            "requiredAntiAffinityTerms",
            errors);
    this.preferredAffinityTerms =
        compileWeighted(
            a == null || a.getPodAffinity() == null
                ? null
                : a.getPodAffinity().getPreferredDuringSchedulingIgnoredDuringExecution(),
            "preferredAffinityTerms",
            errors);
    this.preferredAntiAffinityTerms =
        compileWeighted(
            a == null || a.getPodAntiAffinity() == null
                ? null
                : a.getPodAntiAffinity().getPreferredDuringSchedulingIgnoredDuringExecution(),
            "preferredAntiAffinityTerms",
            errors);
    this.parseError = aggregate(errors);
  }

  private PodInfo(PodInfo base, Pod pod, String nodeName) {
    this.pod = pod;
    this.uid = base.uid;
    this.namespace = base.namespace;
    this.name = base.name;
    this.nodeName = nodeName;
    this.labels = base.labels;
    this.priority = base.priority;
    this.terminating = base.terminating;
    this.request = base.request;
    this.requestFromStatus = base.requestFromStatus;
    this.nonZeroMilliCpu = base.nonZeroMilliCpu;
    this.nonZeroMemory = base.nonZeroMemory;
    this.hostPorts = base.hostPorts;
    this.pvcKeys = base.pvcKeys;
    this.hasPodAffinityOrAntiAffinity = base.hasPodAffinityOrAntiAffinity;
    this.hasRequiredAntiAffinity = base.hasRequiredAntiAffinity;
    this.requiredAffinityTerms = base.requiredAffinityTerms;
    this.requiredAntiAffinityTerms = base.requiredAntiAffinityTerms;
    this.preferredAffinityTerms = base.preferredAffinityTerms;
    this.preferredAntiAffinityTerms = base.preferredAntiAffinityTerms;
    this.parseError = base.parseError;
  }

  /**
   * Pre-computes the pod's scheduling facts. Throws {@link IllegalArgumentException} when the pod
   * cannot be read at all (no metadata, a malformed quantity); malformed affinity selectors are
   * kept in {@link #parseError()}.
   */
  public static PodInfo of(Pod pod) {
    return new PodInfo(pod);
  }

  /**
   * This pod placed on {@code node}: a copy of the object with {@code spec.nodeName} set, sharing
   * the facts.
   */
  public PodInfo assignedTo(String node) {
    Pod copy =
        new io.fabric8.kubernetes.api.model.PodBuilder(pod)
            .editOrNewSpec()
            .withNodeName(node)
            .endSpec()
            .build();
    return new PodInfo(this, copy, node);
  }

  private List<WeightedAffinityTerm> compileWeighted(
      List<WeightedPodAffinityTerm> terms, String what, List<String> errors) {
    if (terms == null || terms.isEmpty()) {
      return List.of();
    }
    List<WeightedAffinityTerm> out = new ArrayList<>(terms.size());
    for (WeightedPodAffinityTerm w : terms) {
      try {
        out.add(
            new WeightedAffinityTerm(
                AffinityTerm.compile(namespace, w.getPodAffinityTerm()),
                w.getWeight() == null ? 0 : w.getWeight()));
      } catch (IllegalArgumentException e) {
        errors.add(what + ": " + e.getMessage());
        return List.of();
      }
    }
    return List.copyOf(out);
  }

  /**
   * apimachinery's error aggregate text: one message alone, several deduplicated inside brackets.
   */
  private static String aggregate(List<String> errors) {
    // Every pod event and every request pod comes here, nearly always without an error: no stream
    // for those (a stream pipeline was a visible share of the watch threads' CPU).
    if (errors.isEmpty()) {
      return null;
    }
    List<String> distinct = errors.stream().distinct().toList();
    return distinct.size() == 1 ? distinct.get(0) : "[" + String.join(", ", distinct) + "]";
  }

  private List<AffinityTerm> compileTerms(
      List<PodAffinityTerm> terms, String what, List<String> errors) {
    if (terms == null || terms.isEmpty()) {
      return List.of();
    }
    List<AffinityTerm> out = new ArrayList<>(terms.size());
    for (PodAffinityTerm t : terms) {
      try {
        out.add(AffinityTerm.compile(namespace, t));
      } catch (IllegalArgumentException e) {
        errors.add(what + ": " + e.getMessage());
        return List.of();
      }
    }
    return List.copyOf(out);
  }

  private static List<HostPort> hostPorts(PodSpec spec) {
    List<HostPort> out = new ArrayList<>(0);
    if (spec.getInitContainers() != null) {
      for (Container c : spec.getInitContainers()) {
        if ("Always".equals(c.getRestartPolicy())) {
          addHostPorts(c, out);
        }
      }
    }
    if (spec.getContainers() != null) {
      for (Container c : spec.getContainers()) {
        addHostPorts(c, out);
      }
    }
    return out.isEmpty() ? List.of() : List.copyOf(out);
  }

  private static void addHostPorts(Container c, List<HostPort> out) {
    if (c.getPorts() == null) {
      return;
    }
    for (ContainerPort p : c.getPorts()) {
      if (p.getHostPort() != null && p.getHostPort() > 0) {
        out.add(
            new HostPort(
                nullToEmpty(p.getHostIP()), nullToEmpty(p.getProtocol()), p.getHostPort()));
      }
    }
  }

  private static List<String> pvcKeys(String namespace, PodSpec spec) {
    if (spec.getVolumes() == null || spec.getVolumes().isEmpty()) {
      return List.of();
    }
    List<String> out = new ArrayList<>(2);
    for (Volume v : spec.getVolumes()) {
      // Only persistentVolumeClaim volumes, as upstream's NodeInfo.updatePVCRefCounts (not generic
      // ephemeral ones).
      if (v.getPersistentVolumeClaim() != null) {
        out.add(namespace + "/" + v.getPersistentVolumeClaim().getClaimName());
      }
    }
    return List.copyOf(out);
  }

  private static String nullToEmpty(String s) {
    return s == null ? "" : s;
  }

  /** The pod object; read-only. */
  public Pod pod() {
    return pod;
  }

  /** The pod UID, the cache key. */
  public String uid() {
    return uid;
  }

  /** The namespace. */
  public String namespace() {
    return namespace;
  }

  /** The name. */
  public String name() {
    return name;
  }

  /** {@code namespace/name}. */
  public String key() {
    return namespace + "/" + name;
  }

  /** {@code spec.nodeName}, "" when unassigned. */
  public String nodeName() {
    return nodeName;
  }

  /** The labels; never null. */
  public Map<String, String> labels() {
    return labels;
  }

  /** {@code spec.priority}, 0 when unset. */
  public int priority() {
    return priority;
  }

  /** True when the pod has a deletion timestamp. */
  public boolean terminating() {
    return terminating;
  }

  /** The node the pod is nominated to ({@code status.nominatedNodeName}), or "" when none. */
  public String nominatedNodeName() {
    String n = pod.getStatus() == null ? null : pod.getStatus().getNominatedNodeName();
    return n == null ? "" : n;
  }

  /**
   * The effective requests (containers, init containers, pod-level requests, overhead), with the
   * resources an in-place resize reports in the container statuses, as the scheduler's cache counts
   * a pod. Do not mutate.
   */
  public Resource request() {
    return request;
  }

  /**
   * True when some container status reports the container's resources, so that {@link #request()}
   * may differ from what the spec alone asks ({@link PodRequests#ofSpec}).
   */
  public boolean requestFromStatus() {
    return requestFromStatus;
  }

  /**
   * CPU request with 100m counted for containers that state none (for a pod with pod-level
   * requests, only when the pod's requests name no cpu at all); container statuses considered.
   */
  public long nonZeroMilliCpu() {
    return nonZeroMilliCpu;
  }

  /**
   * Memory request with 200 MiB counted for containers that state none (for a pod with pod-level
   * requests, only when the pod's requests name no memory at all); container statuses considered.
   */
  public long nonZeroMemory() {
    return nonZeroMemory;
  }

  /** Host ports wanted by regular containers and restartable init containers. */
  public List<HostPort> hostPorts() {
    return hostPorts;
  }

  /**
   * {@code namespace/claim} for each persistentVolumeClaim volume (what the node's PVC reference
   * counts track).
   */
  public List<String> pvcKeys() {
    return pvcKeys;
  }

  /** True when the pod declares pod affinity or pod anti-affinity (required or preferred). */
  public boolean hasPodAffinityOrAntiAffinity() {
    return hasPodAffinityOrAntiAffinity;
  }

  /**
   * True when the pod spec lists required pod anti-affinity terms (even ones that failed to
   * compile), which is what puts it in a node's {@link NodeInfo#podsWithRequiredAntiAffinity()}
   * upstream.
   */
  public boolean hasRequiredAntiAffinity() {
    return hasRequiredAntiAffinity;
  }

  /** Required pod affinity terms. */
  public List<AffinityTerm> requiredAffinityTerms() {
    return requiredAffinityTerms;
  }

  /** Required pod anti-affinity terms. */
  public List<AffinityTerm> requiredAntiAffinityTerms() {
    return requiredAntiAffinityTerms;
  }

  /** Preferred pod affinity terms. */
  public List<WeightedAffinityTerm> preferredAffinityTerms() {
    return preferredAffinityTerms;
  }

  /** Preferred pod anti-affinity terms. */
  public List<WeightedAffinityTerm> preferredAntiAffinityTerms() {
    return preferredAntiAffinityTerms;
  }

  /** Why some affinity terms could not be compiled, or null. */
  public String parseError() {
    return parseError;
  }

  @Override
  public String toString() {
    return key() + (nodeName.isEmpty() ? "" : "@" + nodeName);
  }
}
