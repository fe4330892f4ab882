package io.schedext.plugins.interpodaffinity;

import io.schedext.framework.AffinityTerm;
import io.schedext.framework.NodeInfo;
import io.schedext.framework.PodInfo;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Counts per topology pair (label key, label value), as upstream's {@code
 * topologyToMatchedTermCount}. A pair whose count drops to zero is removed, so {@link #isEmpty()}
 * means "no pair counted". Lookups allocate nothing. Not thread-safe: mutated only while PreFilter
 * builds it or AddPod/RemovePod update a copied cycle state.
 */
final class TopologyPairCounts {

  private final HashMap<String, HashMap<String, Long>> byKey;

  /**
   * The keys of {@link #byKey} and their value maps as arrays, for {@link #anyPositive}, which runs
   * for every node of a filter call and found a pair by iterating the map's entries (an iterator
   * per node: the largest allocation of a 5,000-node filter). Null when a key was added or removed
   * since; rebuilt on first use, by whichever thread reads first (each builds its own, complete
   * before it is published).
   */
  private volatile KeyArrays keyArrays;

  private record KeyArrays(String[] keys, HashMap<String, Long>[] values) {}

  TopologyPairCounts() {
    this.byKey = new HashMap<>();
  }

  private TopologyPairCounts(TopologyPairCounts other) {
    this.byKey = new HashMap<>(other.byKey.size() * 2);
    other.byKey.forEach((k, values) -> byKey.put(k, new HashMap<>(values)));
  }

  /** Adds {@code delta} to the pair; drops the pair when its count becomes zero. */
  void add(String key, String value, long delta) {
    HashMap<String, Long> values = byKey.get(key);
    if (values == null) {
      values = new HashMap<>();
      byKey.put(key, values);
      keyArrays = null;
    }
    long n = values.getOrDefault(value, 0L) + delta;
    if (n == 0) {
      values.remove(value);
      if (values.isEmpty()) {
        byKey.remove(key);
        keyArrays = null;
      }
    } else {
      values.put(value, n);
    }
  }

  /** The count of the pair, 0 when absent. */
  long get(String key, String value) {
    HashMap<String, Long> values = byKey.get(key);
    if (values == null) {
      return 0;
    }
    Long n = values.get(value);
    return n == null ? 0 : n;
  }

  /** True when no pair has a count. */
  boolean isEmpty() {
    return byKey.isEmpty();
  }

  /** Adds every count of {@code other} to this. */
  void merge(TopologyPairCounts other) {
    other.byKey.forEach((k, values) -> values.forEach((v, n) -> add(k, v, n)));
  }

  /** Takes every count of {@code other} (merged before) back out of this. */
  void unmerge(TopologyPairCounts other) {
    other.byKey.forEach((k, values) -> values.forEach((v, n) -> add(k, v, -n)));
  }

  /** A deep copy. */
  TopologyPairCounts copy() {
    return new TopologyPairCounts(this);
  }

  /** True when some label of {@code node} forms a pair with a positive count. */
  boolean anyPositive(NodeInfo node) {
    KeyArrays a = keyArrays;
    if (a == null) {
      a = keyArrays();
    }
    String[] keys = a.keys();
    HashMap<String, Long>[] values = a.values();
    for (int i = 0; i < keys.length; i++) {
      String value = TopologyPairCounts.topologyValue(node, keys[i]);
      if (value != null) {
        Long n = values[i].get(value);
        if (n != null && n > 0) {
          return true;
        }
      }
    }
    return false;
  }

  @SuppressWarnings("unchecked")
  private KeyArrays keyArrays() {
    String[] keys = new String[byKey.size()];
    HashMap<String, Long>[] values = new HashMap[keys.length];
    int i = 0;
    for (Map.Entry<String, HashMap<String, Long>> e : byKey.entrySet()) {
      keys[i] = e.getKey();
      values[i++] = e.getValue();
    }
    KeyArrays a = new KeyArrays(keys, values);
    keyArrays = a;
    return a;
  }

  /**
   * When {@code pod} matches every one of {@code terms} (and there is at least one), adds {@code
   * delta} at the node's value of each term's topology key. The terms are the incoming pod's, with
   * namespace selectors already merged.
   */
  void addAffinityTerms(
      List<AffinityTerm> terms, PodInfo pod, Map<String, String> nodeLabels, long delta) {
    if (matchesAll(terms, pod)) {
      for (AffinityTerm t : terms) {
        addAtNode(nodeLabels, t.topologyKey(), delta);
      }
    }
  }

  /**
   * Adds {@code delta} at the node's value of the topology key of each of {@code terms} that {@code
   * pod} matches, with {@code namespaceLabels} being the labels of the pod's namespace (null when
   * the terms need none).
   */
  void addAntiAffinityTerms(
      List<AffinityTerm> terms,
      PodInfo pod,
      Map<String, String> namespaceLabels,
      Map<String, String> nodeLabels,
      long delta) {
    for (AffinityTerm t : terms) {
      if (t.matches(pod, namespaceLabels)) {
        addAtNode(nodeLabels, t.topologyKey(), delta);
      }
    }
  }

  private void addAtNode(Map<String, String> nodeLabels, String key, long delta) {
    String value = topologyValue(nodeLabels, key);
    if (value != null) {
      add(key, value, delta);
    }
  }

  /**
   * True when {@code terms} is not empty and {@code pod} matches each term (merged namespaces, no
   * namespace labels).
   */
  static boolean matchesAll(List<AffinityTerm> terms, PodInfo pod) {
    if (terms.isEmpty()) {
      return false;
    }
    for (AffinityTerm t : terms) {
      if (!t.matches(pod, null)) {
        return false;
      }
    }
    return true;
  }

  /**
   * As {@link #topologyValue(Map, String)} for a node info: the zone and hostname values are read
   * from the fields it keeps them in, without a lookup into its label map.
   */
  static String topologyValue(NodeInfo node, String key) {
    String v = node.label(key);
    if (v == null && node.labels().containsKey(key)) {
      return "";
    }
    return v;
  }

  /**
   * The node's value for label {@code key}, or null when the node lacks the label (a null value
   * counts as "").
   */
  static String topologyValue(Map<String, String> nodeLabels, String key) {
    String v = nodeLabels.get(key);
    if (v == null && nodeLabels.containsKey(key)) {
      return "";
    }
    return v;
  }

  /** The counts as nested maps (key → value → count), for comparisons and diagnostics. */
  Map<String, Map<String, Long>> asMap() {
    Map<String, Map<String, Long>> out = new HashMap<>();
    byKey.forEach((k, values) -> out.put(k, Map.copyOf(values)));
    return out;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof TopologyPairCounts c && byKey.equals(c.byKey);
  }

  @Override
  public int hashCode() {
    return byKey.hashCode();
  }

  @Override
  public String toString() {
    return byKey.toString();
  }
}
