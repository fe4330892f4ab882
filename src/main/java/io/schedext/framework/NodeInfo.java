package io.schedext.framework;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Taint;
import io.schedext.kube.Taints;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BiFunction;
import java.util.function.ToIntBiFunction;
import java.util.function.ToIntFunction;

/**
 * A node and the aggregate of the pods assigned to it, as upstream's {@code framework.NodeInfo}:
 * requested and non-zero requested resources, used host ports, images, PVC reference counts, the
 * pods with (anti-)affinity, and a generation that every change advances. Not thread-safe: the
 * cache mutates its own instances under its lock; snapshots hold {@link #snapshotCopy() copies}
 * that are never mutated after publication (preemption's dry run works on further copies).
 */
public final class NodeInfo {

  private static final AtomicLong GENERATION = new AtomicLong();

  private Node node;
  private String name;
  private Map<String, String> labels = Map.of();
  // The values of the two labels spreading reads for every node of every request, kept beside the
  // map so the hot loops skip a hash lookup into it; zone values are shared instances.
  private String zoneLabel;
  private String hostnameLabel;
  private List<Taint> taints = List.of();
  // The taints split by effect once per node object, in the node's order: Filter looks only at
  // NoSchedule and NoExecute taints and Score only at PreferNoSchedule ones, on every node of every
  // request, where comparing each taint's effect string (decoded, so never the same instance as the
  // constant) is a cache miss or two per taint.
  private List<Taint> noScheduleTaints = List.of();
  private List<Taint> preferNoScheduleTaints = List.of();
  // TaintToleration's Score reads it for every node; most nodes have no PreferNoSchedule taint, and
  // then the list (a wrapper, a list and its array elsewhere in the heap) is not read.
  private int preferNoScheduleTaintCount;
  private boolean unschedulable;
  private final List<PodInfo> pods;
  private final List<PodInfo> podsWithAffinity;
  private final List<PodInfo> podsWithRequiredAntiAffinity;
  private final HostPortInfo usedPorts;
  private final Resource requested;
  private final Resource nonZeroRequested;
  private Resource allocatable;
  private Map<String, ImageStateSummary> imageStates;
  private long imageBits;
  private final Map<String, Integer> pvcRefCounts;
  private long generation;
  private volatile Memo memo = NO_MEMO;

  // What NodeResourcesFit and BalancedAllocation read on every node of every call (cpu and memory
  // of the requested, non-zero requested and allocatable resources, saturated as the resources'
  // getters give them; the pods allowed and placed), in this object's own fields: following the
  // pointers to the three resources and the pod list was three or four cache misses per node, most
  // of those plugins' time at 5,000 nodes. Refreshed with every change to them (keepHot).
  private long requestedMilliCpu;
  private long requestedMemory;
  private long nonZeroMilliCpu;
  private long nonZeroMemory;
  private long allocatableMilliCpu;
  private long allocatableMemory;
  private long allowedPodNumber;
  private int podCount;

  /**
   * Remembered results of pure functions of this node's pods, oldest first, as parallel arrays: a
   * lookup compares key references (callers pass one instance per request, usually an {@link
   * Interner interned} one) and hashes without following a pointer per entry into objects spread
   * over the heap. Immutable; replaced as a whole.
   */
  private record Memo(Object[] keys, int[] hashes, Object[] values) {}

  private static final Memo NO_MEMO = new Memo(new Object[0], new int[0], new Object[0]);
  private static final int MEMO_SIZE = 8;

  /** An empty node-less NodeInfo (a pod arrived before its node). */
  public NodeInfo() {
    this.pods = new ArrayList<>();
    this.podsWithAffinity = new ArrayList<>(0);
    this.podsWithRequiredAntiAffinity = new ArrayList<>(0);
    this.usedPorts = new HostPortInfo();
    this.requested = new Resource();
    this.nonZeroRequested = new Resource();
    this.allocatable = new Resource();
    this.imageStates = Map.of();
    this.pvcRefCounts = new HashMap<>(0);
    this.generation = nextGeneration();
  }

  /** A NodeInfo for {@code node} holding {@code pods}. */
  public static NodeInfo of(Node node, PodInfo... pods) {
    NodeInfo n = new NodeInfo();
    if (node != null) {
      n.setNode(node);
    }
    for (PodInfo p : pods) {
      n.addPod(p);
    }
    return n;
  }

  private NodeInfo(NodeInfo o) {
    this.node = o.node;
    this.name = o.name;
    this.labels = o.labels;
    this.zoneLabel = o.zoneLabel;
    this.hostnameLabel = o.hostnameLabel;
    this.taints = o.taints;
    this.noScheduleTaints = o.noScheduleTaints;
    this.preferNoScheduleTaints = o.preferNoScheduleTaints;
    this.preferNoScheduleTaintCount = o.preferNoScheduleTaintCount;
    this.unschedulable = o.unschedulable;
    this.pods = new ArrayList<>(o.pods);
    this.podsWithAffinity = new ArrayList<>(o.podsWithAffinity);
    this.podsWithRequiredAntiAffinity = new ArrayList<>(o.podsWithRequiredAntiAffinity);
    this.usedPorts = o.usedPorts.copy();
    this.requested = o.requested.copy();
    this.nonZeroRequested = o.nonZeroRequested.copy();
    this.allocatable = o.allocatable.copy();
    this.imageStates = o.imageStates;
    this.imageBits = o.imageBits;
    this.pvcRefCounts = new HashMap<>(o.pvcRefCounts);
    this.generation = o.generation;
    keepHot();
  }

  /** The next value of the global generation counter. */
  public static long nextGeneration() {
    return GENERATION.incrementAndGet();
  }

  /** A deep copy sharing the immutable pod infos; used for snapshots and simulations. */
  public NodeInfo snapshotCopy() {
    return new NodeInfo(this);
  }

  /** Sets or replaces the node object; recomputes allocatable and advances the generation. */
  public void setNode(Node n) {
    this.node = n;
    this.name = n.getMetadata() == null ? "" : n.getMetadata().getName();
    this.labels = sharedLabels(n.getMetadata() == null ? null : n.getMetadata().getLabels());
    this.zoneLabel = labels.get(LABEL_ZONE);
    this.hostnameLabel = labels.get(LABEL_HOSTNAME);
    this.taints =
        n.getSpec() == null || n.getSpec().getTaints() == null
            ? List.of()
            : n.getSpec().getTaints();
    this.noScheduleTaints = withEffect(taints, Taints.EFFECT_NO_SCHEDULE, Taints.EFFECT_NO_EXECUTE);
    this.preferNoScheduleTaints = withEffect(taints, Taints.EFFECT_PREFER_NO_SCHEDULE, null);
    this.preferNoScheduleTaintCount = preferNoScheduleTaints.size();
    this.unschedulable = n.getSpec() != null && Boolean.TRUE.equals(n.getSpec().getUnschedulable());
    this.allocatable =
        Resource.fromQuantities(n.getStatus() == null ? null : n.getStatus().getAllocatable());
    this.generation = nextGeneration();
    this.memo = NO_MEMO;
    keepHot();
  }

  /**
   * Drops the node object (it was deleted) and advances the generation; the pods stay until
   * removed.
   */
  public void removeNode() {
    this.node = null;
    this.generation = nextGeneration();
    this.memo = NO_MEMO;
  }

  /** Adds a pod's information and advances the generation. */
  public void addPod(PodInfo p) {
    pods.add(p);
    if (p.hasPodAffinityOrAntiAffinity()) {
      podsWithAffinity.add(p);
    }
    if (p.hasRequiredAntiAffinity()) {
      podsWithRequiredAntiAffinity.add(p);
    }
    account(p, 1);
  }

  /**
   * Removes the pod with {@code uid}; returns the removed info, or null when the node holds no such
   * pod (nothing changes then).
   */
  public PodInfo removePod(String uid) {
    removeByUid(podsWithAffinity, uid);
    removeByUid(podsWithRequiredAntiAffinity, uid);
    PodInfo removed = removeByUid(pods, uid);
    if (removed != null) {
      account(removed, -1);
    }
    return removed;
  }

  /**
   * Removes {@code pod}, the very info this node holds (as the cache passes it): found by identity,
   * so the lists are scanned without reading each pod's UID, and the affinity lists only when the
   * pod is in them. Another info with the same UID is removed as {@link #removePod(String)} does.
   * Returns the removed info, or null.
   */
  public PodInfo removePod(PodInfo pod) {
    int at = indexOfSame(pods, pod);
    if (at < 0) {
      return removePod(pod.uid());
    }
    removeAt(pods, at);
    if (pod.hasPodAffinityOrAntiAffinity()) {
      removeSame(podsWithAffinity, pod);
    }
    if (pod.hasRequiredAntiAffinity()) {
      removeSame(podsWithRequiredAntiAffinity, pod);
    }
    account(pod, -1);
    return pod;
  }

  private static int indexOfSame(List<PodInfo> list, PodInfo pod) {
    for (int i = 0; i < list.size(); i++) {
      if (list.get(i) == pod) {
        return i;
      }
    }
    return -1;
  }

  private static void removeSame(List<PodInfo> list, PodInfo pod) {
    int at = indexOfSame(list, pod);
    if (at >= 0) {
      removeAt(list, at);
    } else {
      removeByUid(list, pod.uid());
    }
  }

  private static void removeAt(List<PodInfo> list, int i) {
    int last = list.size() - 1;
    list.set(i, list.get(last));
    list.remove(last);
  }

  /** Swap-with-last removal, as upstream does (so pod order after a removal matches upstream's). */
  private static PodInfo removeByUid(List<PodInfo> list, String uid) {
    for (int i = 0; i < list.size(); i++) {
      if (list.get(i).uid().equals(uid)) {
        PodInfo p = list.get(i);
        removeAt(list, i);
        return p;
      }
    }
    return null;
  }

  private void account(PodInfo p, int sign) {
    Resource r = p.request();
    if (sign > 0) {
      requested.add(r);
    } else {
      requested.subtract(r);
    }
    nonZeroRequested.addMilliCpu(sign * p.nonZeroMilliCpu());
    nonZeroRequested.addMemory(sign * p.nonZeroMemory());
    for (PodInfo.HostPort hp : p.hostPorts()) {
      if (sign > 0) {
        usedPorts.add(hp.hostIp(), hp.protocol(), hp.port());
      } else {
        usedPorts.remove(hp.hostIp(), hp.protocol(), hp.port());
      }
    }
    for (String key : p.pvcKeys()) {
      int n = pvcRefCounts.getOrDefault(key, 0) + sign;
      if (n <= 0) {
        pvcRefCounts.remove(key);
      } else {
        pvcRefCounts.put(key, n);
      }
    }
    generation = nextGeneration();
    memo = NO_MEMO;
    keepHot();
  }

  /** Copies what the per-node loops read most from the resources and the pod list (see fields). */
  private void keepHot() {
    requestedMilliCpu = requested.milliCpu();
    requestedMemory = requested.memory();
    nonZeroMilliCpu = nonZeroRequested.milliCpu();
    nonZeroMemory = nonZeroRequested.memory();
    allocatableMilliCpu = allocatable.milliCpu();
    allocatableMemory = allocatable.memory();
    allowedPodNumber = allocatable.allowedPodNumber();
    podCount = pods.size();
  }

  /**
   * Returns {@code compute(this)}, remembered under {@code key} for as long as this node info does
   * not change (every mutation forgets it; a snapshot copy starts empty). For pure functions of the
   * node and its pods only, such as "pods in namespace N matching selector S": snapshot node infos
   * are shared by every request until the node changes, so consecutive pods of one workload count
   * each node once.
   *
   * <p>{@code key} stands for the function: a value (a record declared next to the function, not a
   * joined string) whose {@code equals} holds exactly when two calls compute the same thing, so its
   * components are every input of {@code compute} besides the node, and its type tells one function
   * from another. A key that misses an input returns another input's result without notice. Keys
   * are compared by reference first, then by hash and {@code equals}; callers that look up one key
   * on many nodes pass one {@link Interner interned} instance. Thread-safe; keeps the last 8 keys.
   */
  public int memoize(Object key, ToIntFunction<NodeInfo> compute) {
    return memoize(key, compute, (n, f) -> f.applyAsInt(n));
  }

  /**
   * As {@link #memoize(Object, ToIntFunction)} with the function's argument passed separately, so
   * callers in per-node loops need no capturing lambda (no allocation on a hit); {@code key} must
   * determine {@code arg}'s part in the result (often {@code arg} is the key itself).
   */
  public <A> int memoize(Object key, A arg, ToIntBiFunction<NodeInfo, A> compute) {
    Object v = lookup(key);
    if (v != null) {
      return (Integer) v;
    }
    int value = compute.applyAsInt(this, arg);
    remember(key, value);
    return value;
  }

  /**
   * As {@link #memoize(Object, Object, ToIntBiFunction)} for any immutable value (it is shared by
   * every request that reads this node info); {@code compute} must not return null.
   */
  @SuppressWarnings("unchecked")
  public <A, T> T memoizeObject(Object key, A arg, BiFunction<NodeInfo, A, T> compute) {
    Object v = lookup(key);
    if (v != null) {
      return (T) v;
    }
    T value = compute.apply(this, arg);
    remember(key, value);
    return value;
  }

  private Object lookup(Object key) {
    Memo m = memo;
    Object[] keys = m.keys;
    for (int i = 0; i < keys.length; i++) {
      if (keys[i] == key) {
        return m.values[i];
      }
    }
    // Hashed only when no reference matched: a record key hashes its components every time.
    int h = key.hashCode();
    int[] hashes = m.hashes;
    for (int i = 0; i < hashes.length; i++) {
      if (hashes[i] == h && key.equals(keys[i])) {
        return m.values[i];
      }
    }
    return null;
  }

  private void remember(Object key, Object value) {
    Memo m = memo;
    int n = m.keys.length;
    // Keeps the newest MEMO_SIZE: a full table drops its oldest entry.
    int from = n < MEMO_SIZE ? 0 : 1;
    int size = n - from + 1;
    Object[] keys = new Object[size];
    int[] hashes = new int[size];
    Object[] values = new Object[size];
    System.arraycopy(m.keys, from, keys, 0, size - 1);
    System.arraycopy(m.hashes, from, hashes, 0, size - 1);
    System.arraycopy(m.values, from, values, 0, size - 1);
    keys[size - 1] = key;
    hashes[size - 1] = key.hashCode();
    values[size - 1] = value;
    if (memo == m) {
      memo = new Memo(keys, hashes, values);
    }
  }

  /** The node object, or null for a node-less (ghost) entry. */
  public Node node() {
    return node;
  }

  /** The node name, or null when there is no node object yet. */
  public String name() {
    return name;
  }

  /** The node's labels, keys and values interned; never null, and not to be modified. */
  public Map<String, String> labels() {
    return labels;
  }

  /** The well-known zone label key. */
  public static final String LABEL_ZONE = "topology.kubernetes.io/zone";

  /** The well-known hostname label key. */
  public static final String LABEL_HOSTNAME = "kubernetes.io/hostname";

  /**
   * A copy of {@code labels} whose keys and values are interned. Decoded label values are a new
   * string per node, so matching a selector or a node affinity term on every node of a request
   * compared the pod's value with as many cold copies — a cache miss or two per node; most values
   * (zones, instance types, disk types) repeat over the nodes, and shared they stay in the cache.
   */
  private static Map<String, String> sharedLabels(Map<String, String> labels) {
    if (labels == null || labels.isEmpty()) {
      return Map.of();
    }
    Map<String, String> out = new LinkedHashMap<>(labels.size() * 4 / 3 + 1);
    for (Map.Entry<String, String> e : labels.entrySet()) {
      String v = e.getValue();
      out.put(e.getKey().intern(), v == null ? null : v.intern());
    }
    return out;
  }

  /**
   * The value of the node label {@code key}, or null: {@code labels().get(key)}, without the map
   * lookup for the zone and hostname keys.
   */
  public String label(String key) {
    if (LABEL_ZONE.equals(key)) {
      return zoneLabel;
    }
    if (LABEL_HOSTNAME.equals(key)) {
      return hostnameLabel;
    }
    return labels.get(key);
  }

  /**
   * Whether the node has label {@code key} (the zone and hostname keys answered from their kept
   * values).
   */
  public boolean hasLabel(String key) {
    if (LABEL_ZONE.equals(key)) {
      return zoneLabel != null || labels.containsKey(key);
    }
    if (LABEL_HOSTNAME.equals(key)) {
      return hostnameLabel != null || labels.containsKey(key);
    }
    return labels.containsKey(key);
  }

  /** The node's taints; never null. */
  public List<Taint> taints() {
    return taints;
  }

  /** The node's taints whose effect is NoSchedule or NoExecute, in the node's order; never null. */
  public List<Taint> noScheduleTaints() {
    return noScheduleTaints;
  }

  /** The node's taints whose effect is PreferNoSchedule, in the node's order; never null. */
  public List<Taint> preferNoScheduleTaints() {
    return preferNoScheduleTaints;
  }

  /** {@code preferNoScheduleTaints().size()}, read from this object. */
  public int preferNoScheduleTaintCount() {
    return preferNoScheduleTaintCount;
  }

  private static List<Taint> withEffect(List<Taint> taints, String effect, String otherEffect) {
    List<Taint> out = null;
    for (int i = 0, n = taints.size(); i < n; i++) {
      Taint t = taints.get(i);
      String e = t.getEffect();
      if (effect.equals(e) || (otherEffect != null && otherEffect.equals(e))) {
        if (out == null) {
          out = new ArrayList<>(n - i);
        }
        out.add(t);
      }
    }
    return out == null ? List.of() : Collections.unmodifiableList(out);
  }

  /** {@code spec.unschedulable}. */
  public boolean unschedulable() {
    return unschedulable;
  }

  /** The pods on the node (assumed ones included). Do not mutate. */
  public List<PodInfo> pods() {
    return pods;
  }

  /** The pods with pod affinity or anti-affinity. Do not mutate. */
  public List<PodInfo> podsWithAffinity() {
    return podsWithAffinity;
  }

  /** The pods with required pod anti-affinity. Do not mutate. */
  public List<PodInfo> podsWithRequiredAntiAffinity() {
    return podsWithRequiredAntiAffinity;
  }

  /** The host ports in use. Do not mutate. */
  public HostPortInfo usedPorts() {
    return usedPorts;
  }

  /** The sum of the pods' requests. Do not mutate. */
  public Resource requested() {
    return requested;
  }

  /** The sum of the pods' non-zero cpu and memory requests. Do not mutate. */
  public Resource nonZeroRequested() {
    return nonZeroRequested;
  }

  /** The node's allocatable resources. Do not mutate. */
  public Resource allocatable() {
    return allocatable;
  }

  /** {@code requested().milliCpu()}, read from this object. */
  public long requestedMilliCpu() {
    return requestedMilliCpu;
  }

  /** {@code requested().memory()}, read from this object. */
  public long requestedMemory() {
    return requestedMemory;
  }

  /** {@code nonZeroRequested().milliCpu()}, read from this object. */
  public long nonZeroRequestedMilliCpu() {
    return nonZeroMilliCpu;
  }

  /** {@code nonZeroRequested().memory()}, read from this object. */
  public long nonZeroRequestedMemory() {
    return nonZeroMemory;
  }

  /** {@code allocatable().milliCpu()}, read from this object. */
  public long allocatableMilliCpu() {
    return allocatableMilliCpu;
  }

  /** {@code allocatable().memory()}, read from this object. */
  public long allocatableMemory() {
    return allocatableMemory;
  }

  /** {@code allocatable().allowedPodNumber()}, read from this object. */
  public long allowedPodNumber() {
    return allowedPodNumber;
  }

  /** {@code pods().size()}, read from this object. */
  public int podCount() {
    return podCount;
  }

  /** Images present on the node by name. */
  public Map<String, ImageStateSummary> imageStates() {
    return imageStates;
  }

  /** Sets the image summaries (done by the cache, which knows how many nodes hold each image). */
  public void setImageStates(Map<String, ImageStateSummary> states) {
    this.imageStates = states == null ? Map.of() : states;
    long bits = 0;
    for (String image : imageStates.keySet()) {
      bits |= imageBit(image);
    }
    this.imageBits = bits;
  }

  /**
   * The {@link #imageBit}s of every image in {@link #imageStates()}, or-ed: an image whose bit is
   * not set is not on the node, which ImageLocality learns without reading the map (a cache miss or
   * two per node of every call).
   */
  public long imageBits() {
    return imageBits;
  }

  /** The bit of the 64 that stands for image {@code name} in {@link #imageBits()}. */
  public static long imageBit(String name) {
    return 1L << (name.hashCode() & 63);
  }

  /** How many pods on the node use each PVC ({@code namespace/claim}). */
  public Map<String, Integer> pvcRefCounts() {
    return pvcRefCounts;
  }

  /** The generation of the last change. */
  public long generation() {
    return generation;
  }

  @Override
  public String toString() {
    return "NodeInfo{"
        + name
        + ", pods="
        + pods.size()
        + ", requested="
        + requested
        + ", allocatable="
        + allocatable
        + ", generation="
        + generation
        + "}";
  }
}
