package io.schedext.plugins.noderesources;

import java.util.List;

/**
 * The arguments of {@link BalancedAllocation}, as upstream's v1 {@code
 * NodeResourcesBalancedAllocationArgs} with its defaults applied: no resources means cpu and
 * memory; a zero weight becomes 1 (any other weight fails validation).
 *
 * @param resources the resources whose allocation should be balanced
 */
public record NodeResourcesBalancedAllocationArgs(List<ResourceSpec> resources) {

  /** Applies the v1 defaults. */
  public NodeResourcesBalancedAllocationArgs {
    resources =
        resources == null || resources.isEmpty()
            ? ResourceSpec.DEFAULT_RESOURCES
            : List.copyOf(resources);
  }
}
