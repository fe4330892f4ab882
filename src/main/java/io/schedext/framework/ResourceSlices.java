package io.schedext.framework;

import io.fabric8.kubernetes.api.model.resource.v1.ResourceSlice;
import java.util.List;
import java.util.Map;

/**
 * The ResourceSlices of the cluster indexed for the per-node search: those published for one node
 * ({@code spec.nodeName}) by that name, and all the others (for all nodes, a node selector, or per
 * device), which any node may see. A node can only get devices from {@link #forNode} of its name,
 * so a search over it is the same as one over every slice, at the cost of the node's own slices.
 * Immutable; the slices must not be changed.
 */
public final class ResourceSlices {

  /** No slices at all. */
  public static final ResourceSlices EMPTY = new ResourceSlices(Map.of(), List.of(), 0);

  private final Map<String, List<ResourceSlice>> byNode;
  private final List<ResourceSlice> shared;
  private final int count;

  /**
   * An index of {@code byNode} (slices per {@code spec.nodeName}) and {@code shared} (every other
   * slice), {@code count} slices in all; both are kept as given.
   */
  public ResourceSlices(
      Map<String, List<ResourceSlice>> byNode, List<ResourceSlice> shared, int count) {
    this.byNode = byNode;
    this.shared = shared;
    this.count = count;
  }

  /** The slices published for node {@code nodeName} by name. */
  public List<ResourceSlice> ofNode(String nodeName) {
    return byNode.getOrDefault(nodeName, List.of());
  }

  /** The slices not published for one node by name; any node may see their devices. */
  public List<ResourceSlice> shared() {
    return shared;
  }

  /** The number of slices. */
  public int count() {
    return count;
  }

  /** True when there is no slice. */
  public boolean isEmpty() {
    return count == 0;
  }
}
