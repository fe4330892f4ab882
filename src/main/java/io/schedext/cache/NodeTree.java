package io.schedext.cache;

import io.fabric8.kubernetes.api.model.Node;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Node names grouped by zone, listed round-robin across zones (zone0[0], zone1[0], ..., zone0[1],
 * ...), as upstream's {@code nodeTree}. Zones keep first-seen order, nodes insertion order. Not
 * thread-safe: guarded by the cache lock.
 */
final class NodeTree {

  static final String REGION = "topology.kubernetes.io/region";
  static final String ZONE = "topology.kubernetes.io/zone";
  static final String BETA_REGION = "failure-domain.beta.kubernetes.io/region";
  static final String BETA_ZONE = "failure-domain.beta.kubernetes.io/zone";

  private final Map<String, List<String>> tree = new HashMap<>();
  private final List<String> zones = new ArrayList<>();
  private int numNodes;

  /**
   * The zone key of a node: {@code region + ":\0:" + zone}, each read from the beta label when
   * present (even empty) and else from the GA label, as component-helpers' {@code GetZoneKey}.
   */
  static String zoneKey(Node node) {
    Map<String, String> labels = node.getMetadata() == null ? null : node.getMetadata().getLabels();
    if (labels == null) {
      return "";
    }
    String region =
        labels.containsKey(BETA_REGION) ? labels.get(BETA_REGION) : labels.getOrDefault(REGION, "");
    String zone =
        labels.containsKey(BETA_ZONE) ? labels.get(BETA_ZONE) : labels.getOrDefault(ZONE, "");
    region = region == null ? "" : region;
    zone = zone == null ? "" : zone;
    if (region.isEmpty() && zone.isEmpty()) {
      return "";
    }
    return region + ":\u0000:" + zone;
  }

  void addNode(Node node) {
    String zone = zoneKey(node);
    String name = node.getMetadata().getName();
    List<String> names = tree.get(zone);
    if (names != null) {
      if (names.contains(name)) {
        return;
      }
      names.add(name);
    } else {
      names = new ArrayList<>();
      names.add(name);
      tree.put(zone, names);
      zones.add(zone);
    }
    numNodes++;
  }

  boolean removeNode(Node node) {
    String zone = zoneKey(node);
    List<String> names = tree.get(zone);
    if (names != null && names.remove(node.getMetadata().getName())) {
      if (names.isEmpty()) {
        tree.remove(zone);
        zones.remove(zone);
      }
      numNodes--;
      return true;
    }
    return false;
  }

  /** Moves the node when its zone changed; returns true when the order changed. */
  boolean updateNode(Node oldNode, Node newNode) {
    String oldZone = oldNode == null ? null : zoneKey(oldNode);
    String newZone = zoneKey(newNode);
    if (newZone.equals(oldZone)) {
      return false;
    }
    if (oldNode != null) {
      removeNode(oldNode);
    }
    addNode(newNode);
    return true;
  }

  int numNodes() {
    return numNodes;
  }

  /** All node names, round-robin over zones. */
  List<String> list() {
    List<String> out = new ArrayList<>(numNodes);
    if (zones.isEmpty()) {
      return out;
    }
    int[] idx = new int[zones.size()];
    int exhausted = 0;
    while (out.size() < numNodes && exhausted < zones.size()) {
      exhausted = 0;
      for (int z = 0; z < zones.size(); z++) {
        List<String> names = tree.get(zones.get(z));
        if (idx[z] >= names.size()) {
          exhausted++;
          continue;
        }
        out.add(names.get(idx[z]++));
      }
    }
    return out;
  }
}
