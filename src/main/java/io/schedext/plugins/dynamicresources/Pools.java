package io.schedext.plugins.dynamicresources;

import io.fabric8.kubernetes.api.model.NodeSelector;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceSlice;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceSliceSpec;
import io.schedext.kube.NodeSelectorTerms;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Function;

/**
 * The resource pools whose devices a node can reach (upstream's {@code GatherPools}): every slice
 * published for the node by name, for all nodes, or for a node selector the node matches, grouped
 * by driver and pool; within a pool only the slices of its newest generation count. A pool is
 * incomplete when fewer slices than its {@code resourceSliceCount} are there, invalid when a device
 * name repeats. Slices with per-device node selection are left out (the partitionable devices gate
 * is off in 1.34), as are slices of a kind this version does not know. Pools come in driver and
 * pool name order (upstream's order is a map's, random), slices in name order.
 */
final class Pools {

  private Pools() {}

  /**
   * One pool.
   *
   * @param driver the driver
   * @param name the pool's name
   * @param slices its slices of the newest generation
   * @param incomplete fewer slices than the pool announces
   * @param invalidReason why the pool cannot be used, or null
   */
  record Pool(
      String driver,
      String name,
      List<SliceView> slices,
      boolean incomplete,
      String invalidReason) {

    boolean invalid() {
      return invalidReason != null;
    }

    /** {@code driver/pool}, as upstream prints a PoolID. */
    String id() {
      return driver + "/" + name;
    }
  }

  /**
   * The pools of {@code candidates} (the node's slices and the shared ones) that node {@code
   * nodeName} with {@code labels} can reach; throws {@link AllocationException} when a slice's node
   * selector does not parse.
   */
  static List<Pool> gather(
      List<ResourceSlice> candidates,
      String nodeName,
      Map<String, String> labels,
      Function<ResourceSlice, SliceView> views) {
    Map<String, List<SliceView>> byPool = new TreeMap<>();
    Map<String, Long> generation = new TreeMap<>();
    for (ResourceSlice s : candidates) {
      ResourceSliceSpec spec = s.getSpec();
      if (spec == null || spec.getPerDeviceNodeSelection() != null) {
        continue;
      }
      String sliceNode = spec.getNodeName() == null ? "" : spec.getNodeName();
      boolean allNodes = Boolean.TRUE.equals(spec.getAllNodes());
      if (sliceNode.isEmpty() && !allNodes && spec.getNodeSelector() == null) {
        continue;
      }
      boolean match;
      try {
        match = nodeMatches(nodeName, labels, sliceNode, allNodes, spec.getNodeSelector());
      } catch (IllegalArgumentException e) {
        throw new AllocationException(
            "gather pool information: failed to perform node selection for slice "
                + s.getMetadata().getName()
                + ": "
                + e.getMessage());
      }
      if (!match) {
        continue;
      }
      SliceView v = views.apply(s);
      // A key no driver or pool name can contain a NUL of: sorts by driver, then pool.
      String key = v.driver() + "\u0000" + v.pool();
      Long known = generation.get(key);
      if (known == null || v.generation() > known) {
        generation.put(key, v.generation());
        byPool.put(key, new ArrayList<>(List.of(v)));
      } else if (v.generation() == known) {
        byPool.get(key).add(v);
      }
    }
    List<Pool> out = new ArrayList<>(byPool.size());
    for (List<SliceView> slices : byPool.values()) {
      SliceView first = slices.get(0);
      out.add(
          new Pool(
              first.driver(),
              first.pool(),
              List.copyOf(slices),
              slices.size() != first.sliceCount(),
              invalidReason(slices)));
    }
    return out;
  }

  private static String invalidReason(List<SliceView> slices) {
    Set<String> names = new HashSet<>();
    for (SliceView s : slices) {
      for (DeviceView d : s.devices()) {
        if (!names.add(d.name())) {
          return "duplicate device name " + d.name();
        }
      }
    }
    return null;
  }

  /**
   * Upstream's {@code nodeMatches}: a node name must be the node's, all nodes match, a node
   * selector must match; throws {@link IllegalArgumentException} when the selector does not parse.
   */
  static boolean nodeMatches(
      String nodeName,
      Map<String, String> labels,
      String wantedNode,
      boolean allNodes,
      NodeSelector selector) {
    if (wantedNode != null && !wantedNode.isEmpty()) {
      return wantedNode.equals(nodeName);
    }
    if (allNodes) {
      return true;
    }
    if (selector != null) {
      NodeSelectorTerms terms = NodeSelectorTerms.compile(selector);
      if (!terms.parseErrors().isEmpty()) {
        throw new IllegalArgumentException(String.join("; ", terms.parseErrors()));
      }
      return terms.matches(nodeName, labels);
    }
    return false;
  }
}
