package io.schedext.testing;

import io.fabric8.kubernetes.api.model.Affinity;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ContainerPort;
import io.fabric8.kubernetes.api.model.ContainerStatus;
import io.fabric8.kubernetes.api.model.LabelSelector;
import io.fabric8.kubernetes.api.model.LabelSelectorRequirement;
import io.fabric8.kubernetes.api.model.NodeAffinity;
import io.fabric8.kubernetes.api.model.NodeSelector;
import io.fabric8.kubernetes.api.model.NodeSelectorRequirement;
import io.fabric8.kubernetes.api.model.NodeSelectorTerm;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodAffinity;
import io.fabric8.kubernetes.api.model.PodAffinityTerm;
import io.fabric8.kubernetes.api.model.PodAntiAffinity;
import io.fabric8.kubernetes.api.model.PodCondition;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.PodStatus;
import io.fabric8.kubernetes.api.model.PreferredSchedulingTerm;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.ResourceRequirements;
import io.fabric8.kubernetes.api.model.Toleration;
import io.fabric8.kubernetes.api.model.TopologySpreadConstraint;
import io.fabric8.kubernetes.api.model.Volume;
import io.fabric8.kubernetes.api.model.WeightedPodAffinityTerm;
import io.schedext.framework.PodInfo;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Builds test pods in one line, as upstream's {@code st.MakePod()}: {@code
 * MakePod.pod().name("p").req(Map.of("cpu", "1")).obj()}. Every method returns this wrapper; {@link
 * #obj()} returns the fabric8 pod and {@link #info()} the PodInfo. The uid defaults to the name.
 */
public final class PodWrapper {

  private final Pod pod;

  PodWrapper() {
    pod = new Pod();
    pod.setMetadata(new ObjectMeta());
    pod.getMetadata().setNamespace("default");
    pod.setSpec(new PodSpec());
    pod.getSpec().setContainers(new ArrayList<>());
    pod.setStatus(new PodStatus());
  }

  /** The pod. */
  public Pod obj() {
    if (pod.getMetadata().getUid() == null) {
      pod.getMetadata().setUid(pod.getMetadata().getName());
    }
    return pod;
  }

  /** The pod as a PodInfo. */
  public PodInfo info() {
    return PodInfo.of(obj());
  }

  public PodWrapper name(String name) {
    pod.getMetadata().setName(name);
    return this;
  }

  public PodWrapper namespace(String ns) {
    pod.getMetadata().setNamespace(ns);
    return this;
  }

  public PodWrapper uid(String uid) {
    pod.getMetadata().setUid(uid);
    return this;
  }

  /** Sets {@code spec.nodeName}. */
  public PodWrapper node(String node) {
    pod.getSpec().setNodeName(node);
    return this;
  }

  public PodWrapper label(String k, String v) {
    labels().put(k, v);
    return this;
  }

  public PodWrapper labels(Map<String, String> l) {
    labels().putAll(l);
    return this;
  }

  private Map<String, String> labels() {
    if (pod.getMetadata().getLabels() == null) {
      pod.getMetadata().setLabels(new LinkedHashMap<>());
    }
    return pod.getMetadata().getLabels();
  }

  public PodWrapper annotation(String k, String v) {
    if (pod.getMetadata().getAnnotations() == null) {
      pod.getMetadata().setAnnotations(new LinkedHashMap<>());
    }
    pod.getMetadata().getAnnotations().put(k, v);
    return this;
  }

  public PodWrapper priority(int p) {
    pod.getSpec().setPriority(p);
    return this;
  }

  public PodWrapper schedulerName(String s) {
    pod.getSpec().setSchedulerName(s);
    return this;
  }

  /** Marks the pod as being deleted. */
  public PodWrapper terminating() {
    pod.getMetadata().setDeletionTimestamp("2026-01-01T00:00:00Z");
    return this;
  }

  /**
   * Marks the pod as being deleted with a grace period of {@code seconds} (0: the API server's
   * update before it deletes the pod at once).
   */
  public PodWrapper terminating(long seconds) {
    terminating();
    pod.getMetadata().setDeletionGracePeriodSeconds(seconds);
    return this;
  }

  public PodWrapper phase(String phase) {
    pod.getStatus().setPhase(phase);
    return this;
  }

  public PodWrapper startTime(String rfc3339) {
    pod.getStatus().setStartTime(rfc3339);
    return this;
  }

  public PodWrapper creationTimestamp(String rfc3339) {
    pod.getMetadata().setCreationTimestamp(rfc3339);
    return this;
  }

  public PodWrapper nominatedNodeName(String n) {
    pod.getStatus().setNominatedNodeName(n);
    return this;
  }

  public PodWrapper preemptionPolicy(String p) {
    pod.getSpec().setPreemptionPolicy(p);
    return this;
  }

  /** Adds an owner reference (kind, name, controller=true). */
  public PodWrapper owner(String kind, String name) {
    OwnerReference ref = new OwnerReference();
    ref.setKind(kind);
    ref.setName(name);
    ref.setController(true);
    ref.setApiVersion("apps/v1");
    ref.setUid(name + "-uid");
    if (pod.getMetadata().getOwnerReferences() == null) {
      pod.getMetadata().setOwnerReferences(new ArrayList<>());
    }
    pod.getMetadata().getOwnerReferences().add(ref);
    return this;
  }

  /** Adds a container with these requests (e.g. {@code Map.of("cpu", "500m", "memory", "1Gi")}). */
  public PodWrapper req(Map<String, String> requests) {
    pod.getSpec()
        .getContainers()
        .add(container("c" + pod.getSpec().getContainers().size(), requests, null));
    return this;
  }

  /** Adds a container with these requests and limits. */
  public PodWrapper reqLim(Map<String, String> requests, Map<String, String> limits) {
    pod.getSpec()
        .getContainers()
        .add(container("c" + pod.getSpec().getContainers().size(), requests, limits));
    return this;
  }

  /** Adds an init container with these requests. */
  public PodWrapper initReq(Map<String, String> requests) {
    initContainers().add(container("init" + initContainers().size(), requests, null));
    return this;
  }

  /** Adds a restartable (sidecar) init container with these requests. */
  public PodWrapper sidecarReq(Map<String, String> requests) {
    Container c = container("sidecar" + initContainers().size(), requests, null);
    c.setRestartPolicy("Always");
    initContainers().add(c);
    return this;
  }

  private List<Container> initContainers() {
    if (pod.getSpec().getInitContainers() == null) {
      pod.getSpec().setInitContainers(new ArrayList<>());
    }
    return pod.getSpec().getInitContainers();
  }

  /** Sets pod-level requests ({@code spec.resources.requests}). */
  public PodWrapper podReq(Map<String, String> requests) {
    ResourceRequirements rr = new ResourceRequirements();
    rr.setRequests(quantities(requests));
    pod.getSpec().setResources(rr);
    return this;
  }

  /**
   * Adds the status of container {@code name} (an init container's when the pod has one of that
   * name) reporting the resources an in-place resize gave it: {@code requests} in {@code
   * resources.requests}, and {@code allocated} (null for none) in {@code allocatedResources}.
   */
  public PodWrapper statusResources(
      String name, Map<String, String> requests, Map<String, String> allocated) {
    ContainerStatus cs = new ContainerStatus();
    cs.setName(name);
    ResourceRequirements rr = new ResourceRequirements();
    rr.setRequests(quantities(requests));
    cs.setResources(rr);
    if (allocated != null) {
      cs.setAllocatedResources(quantities(allocated));
    }
    boolean init =
        pod.getSpec().getInitContainers() != null
            && pod.getSpec().getInitContainers().stream().anyMatch(c -> name.equals(c.getName()));
    PodStatus status = pod.getStatus();
    if (init) {
      if (status.getInitContainerStatuses() == null) {
        status.setInitContainerStatuses(new ArrayList<>());
      }
      status.getInitContainerStatuses().add(cs);
    } else {
      if (status.getContainerStatuses() == null) {
        status.setContainerStatuses(new ArrayList<>());
      }
      status.getContainerStatuses().add(cs);
    }
    return this;
  }

  /** Adds a pod condition of {@code type} with status True and {@code reason} (null for none). */
  public PodWrapper condition(String type, String reason) {
    PodCondition c = new PodCondition();
    c.setType(type);
    c.setStatus("True");
    c.setReason(reason);
    if (pod.getStatus().getConditions() == null) {
      pod.getStatus().setConditions(new ArrayList<>());
    }
    pod.getStatus().getConditions().add(c);
    return this;
  }

  public PodWrapper overhead(Map<String, String> overhead) {
    pod.getSpec().setOverhead(quantities(overhead));
    return this;
  }

  /** Adds a container running {@code image}. */
  public PodWrapper container(String image) {
    Container c = new Container();
    c.setName("c" + pod.getSpec().getContainers().size());
    c.setImage(image);
    pod.getSpec().getContainers().add(c);
    return this;
  }

  /** Adds a host port to the first container (creating one when there is none). */
  public PodWrapper hostPort(String protocol, String hostIp, int port) {
    if (pod.getSpec().getContainers().isEmpty()) {
      pod.getSpec().getContainers().add(container("c0", null, null));
    }
    Container c = pod.getSpec().getContainers().get(0);
    if (c.getPorts() == null) {
      c.setPorts(new ArrayList<>());
    }
    ContainerPort p = new ContainerPort();
    p.setHostPort(port);
    p.setContainerPort(port);
    p.setProtocol(protocol);
    p.setHostIP(hostIp);
    c.getPorts().add(p);
    return this;
  }

  public PodWrapper toleration(String key, String operator, String value, String effect) {
    if (pod.getSpec().getTolerations() == null) {
      pod.getSpec().setTolerations(new ArrayList<>());
    }
    Toleration t = new Toleration();
    t.setKey(key);
    t.setOperator(operator);
    t.setValue(value);
    t.setEffect(effect);
    pod.getSpec().getTolerations().add(t);
    return this;
  }

  public PodWrapper nodeSelector(Map<String, String> sel) {
    pod.getSpec().setNodeSelector(new LinkedHashMap<>(sel));
    return this;
  }

  /** Adds a required node affinity term with one expression (key, operator, values). */
  public PodWrapper nodeAffinityTerm(String key, String operator, String... values) {
    NodeSelectorTerm t = new NodeSelectorTerm();
    t.setMatchExpressions(new ArrayList<>(List.of(requirement(key, operator, values))));
    requiredNodeSelector().getNodeSelectorTerms().add(t);
    return this;
  }

  /** Adds a required node affinity term with one matchFields entry. */
  public PodWrapper nodeFieldTerm(String key, String operator, String... values) {
    NodeSelectorTerm t = new NodeSelectorTerm();
    t.setMatchFields(new ArrayList<>(List.of(requirement(key, operator, values))));
    requiredNodeSelector().getNodeSelectorTerms().add(t);
    return this;
  }

  /** Sets the whole required node selector. */
  public PodWrapper requiredNodeAffinity(NodeSelector selector) {
    nodeAffinity().setRequiredDuringSchedulingIgnoredDuringExecution(selector);
    return this;
  }

  /** Adds a preferred node affinity term with one expression. */
  public PodWrapper preferredNodeAffinity(
      int weight, String key, String operator, String... values) {
    NodeAffinity na = nodeAffinity();
    if (na.getPreferredDuringSchedulingIgnoredDuringExecution() == null) {
      na.setPreferredDuringSchedulingIgnoredDuringExecution(new ArrayList<>());
    }
    NodeSelectorTerm t = new NodeSelectorTerm();
    t.setMatchExpressions(new ArrayList<>(List.of(requirement(key, operator, values))));
    PreferredSchedulingTerm p = new PreferredSchedulingTerm();
    p.setWeight(weight);
    p.setPreference(t);
    na.getPreferredDuringSchedulingIgnoredDuringExecution().add(p);
    return this;
  }

  private NodeSelector requiredNodeSelector() {
    NodeAffinity na = nodeAffinity();
    if (na.getRequiredDuringSchedulingIgnoredDuringExecution() == null) {
      NodeSelector ns = new NodeSelector();
      ns.setNodeSelectorTerms(new ArrayList<>());
      na.setRequiredDuringSchedulingIgnoredDuringExecution(ns);
    }
    return na.getRequiredDuringSchedulingIgnoredDuringExecution();
  }

  private NodeAffinity nodeAffinity() {
    Affinity a = affinity();
    if (a.getNodeAffinity() == null) {
      a.setNodeAffinity(new NodeAffinity());
    }
    return a.getNodeAffinity();
  }

  private Affinity affinity() {
    if (pod.getSpec().getAffinity() == null) {
      pod.getSpec().setAffinity(new Affinity());
    }
    return pod.getSpec().getAffinity();
  }

  /**
   * Adds a required pod affinity term: pods with label {@code key} having one of {@code values},
   * over topologyKey.
   */
  public PodWrapper podAffinityIn(String topologyKey, String key, String... values) {
    return podAffinityTerm(affinityTerm(topologyKey, "In", key, values));
  }

  /** Adds a required pod affinity term with label {@code key} existing. */
  public PodWrapper podAffinityExists(String topologyKey, String key) {
    return podAffinityTerm(affinityTerm(topologyKey, "Exists", key));
  }

  /** Adds a required pod anti-affinity term: pods with label {@code key} in {@code values}. */
  public PodWrapper podAntiAffinityIn(String topologyKey, String key, String... values) {
    return podAntiAffinityTerm(affinityTerm(topologyKey, "In", key, values));
  }

  /** Adds a required pod anti-affinity term with label {@code key} existing. */
  public PodWrapper podAntiAffinityExists(String topologyKey, String key) {
    return podAntiAffinityTerm(affinityTerm(topologyKey, "Exists", key));
  }

  /** Adds a preferred pod affinity term. */
  public PodWrapper preferredPodAffinityIn(
      int weight, String topologyKey, String key, String... values) {
    PodAffinity pa = podAffinity();
    if (pa.getPreferredDuringSchedulingIgnoredDuringExecution() == null) {
      pa.setPreferredDuringSchedulingIgnoredDuringExecution(new ArrayList<>());
    }
    pa.getPreferredDuringSchedulingIgnoredDuringExecution()
        .add(new WeightedPodAffinityTerm(affinityTerm(topologyKey, "In", key, values), weight));
    return this;
  }

  /** Adds a preferred pod anti-affinity term. */
  public PodWrapper preferredPodAntiAffinityIn(
      int weight, String topologyKey, String key, String... values) {
    PodAntiAffinity pa = podAntiAffinity();
    if (pa.getPreferredDuringSchedulingIgnoredDuringExecution() == null) {
      pa.setPreferredDuringSchedulingIgnoredDuringExecution(new ArrayList<>());
    }
    pa.getPreferredDuringSchedulingIgnoredDuringExecution()
        .add(new WeightedPodAffinityTerm(affinityTerm(topologyKey, "In", key, values), weight));
    return this;
  }

  /** Adds a required pod affinity term as given. */
  public PodWrapper podAffinityTerm(PodAffinityTerm term) {
    PodAffinity pa = podAffinity();
    if (pa.getRequiredDuringSchedulingIgnoredDuringExecution() == null) {
      pa.setRequiredDuringSchedulingIgnoredDuringExecution(new ArrayList<>());
    }
    pa.getRequiredDuringSchedulingIgnoredDuringExecution().add(term);
    return this;
  }

  /** Adds a required pod anti-affinity term as given. */
  public PodWrapper podAntiAffinityTerm(PodAffinityTerm term) {
    PodAntiAffinity pa = podAntiAffinity();
    if (pa.getRequiredDuringSchedulingIgnoredDuringExecution() == null) {
      pa.setRequiredDuringSchedulingIgnoredDuringExecution(new ArrayList<>());
    }
    pa.getRequiredDuringSchedulingIgnoredDuringExecution().add(term);
    return this;
  }

  private PodAffinity podAffinity() {
    Affinity a = affinity();
    if (a.getPodAffinity() == null) {
      a.setPodAffinity(new PodAffinity());
    }
    return a.getPodAffinity();
  }

  private PodAntiAffinity podAntiAffinity() {
    Affinity a = affinity();
    if (a.getPodAntiAffinity() == null) {
      a.setPodAntiAffinity(new PodAntiAffinity());
    }
    return a.getPodAntiAffinity();
  }

  /** A pod affinity term over {@code topologyKey} selecting pods by one expression. */
  public static PodAffinityTerm affinityTerm(
      String topologyKey, String operator, String key, String... values) {
    LabelSelectorRequirement r = new LabelSelectorRequirement();
    r.setKey(key);
    r.setOperator(operator);
    r.setValues(values.length == 0 ? null : new ArrayList<>(List.of(values)));
    LabelSelector sel = new LabelSelector();
    sel.setMatchExpressions(new ArrayList<>(List.of(r)));
    PodAffinityTerm t = new PodAffinityTerm();
    t.setLabelSelector(sel);
    t.setTopologyKey(topologyKey);
    return t;
  }

  /** Adds a topology spread constraint selecting pods with label {@code selectorKey} existing. */
  public PodWrapper spreadConstraint(
      int maxSkew, String topologyKey, String whenUnsatisfiable, LabelSelector selector) {
    TopologySpreadConstraint c = new TopologySpreadConstraint();
    c.setMaxSkew(maxSkew);
    c.setTopologyKey(topologyKey);
    c.setWhenUnsatisfiable(whenUnsatisfiable);
    c.setLabelSelector(selector);
    return spreadConstraint(c);
  }

  /** Adds a topology spread constraint as given. */
  public PodWrapper spreadConstraint(TopologySpreadConstraint c) {
    if (pod.getSpec().getTopologySpreadConstraints() == null) {
      pod.getSpec().setTopologySpreadConstraints(new ArrayList<>());
    }
    pod.getSpec().getTopologySpreadConstraints().add(c);
    return this;
  }

  /** A label selector requiring {@code key} to exist. */
  public static LabelSelector existsSelector(String key) {
    LabelSelectorRequirement r = new LabelSelectorRequirement();
    r.setKey(key);
    r.setOperator("Exists");
    LabelSelector sel = new LabelSelector();
    sel.setMatchExpressions(new ArrayList<>(List.of(r)));
    return sel;
  }

  /** Adds a volume backed by PVC {@code claim}. */
  public PodWrapper pvc(String claim) {
    Volume v = new Volume();
    v.setName("vol-" + claim);
    v.setPersistentVolumeClaim(
        new io.fabric8.kubernetes.api.model.PersistentVolumeClaimVolumeSource(claim, false));
    return volume(v);
  }

  /** Adds a volume as given. */
  public PodWrapper volume(Volume v) {
    if (pod.getSpec().getVolumes() == null) {
      pod.getSpec().setVolumes(new ArrayList<>());
    }
    pod.getSpec().getVolumes().add(v);
    return this;
  }

  private static NodeSelectorRequirement requirement(
      String key, String operator, String... values) {
    NodeSelectorRequirement r = new NodeSelectorRequirement();
    r.setKey(key);
    r.setOperator(operator);
    r.setValues(values.length == 0 ? null : new ArrayList<>(List.of(values)));
    return r;
  }

  private static Container container(
      String name, Map<String, String> requests, Map<String, String> limits) {
    Container c = new Container();
    c.setName(name);
    c.setImage("pause");
    ResourceRequirements rr = new ResourceRequirements();
    if (requests != null) {
      rr.setRequests(quantities(requests));
    }
    if (limits != null) {
      rr.setLimits(quantities(limits));
    }
    c.setResources(rr);
    return c;
  }

  static Map<String, Quantity> quantities(Map<String, String> m) {
    Map<String, Quantity> out = new HashMap<>();
    m.forEach((k, v) -> out.put(k, new Quantity(v)));
    return out;
  }
}
