package io.schedext.plugins.noderesources;

import java.util.List;

/**
 * One resource a scoring strategy looks at, and its weight, as upstream's {@code
 * config.ResourceSpec}. As in the v1 configuration defaults, a missing or zero weight becomes 1 and
 * a missing name becomes "".
 *
 * @param name the resource name ({@code cpu}, {@code memory}, an extended resource, ...)
 * @param weight the weight of the resource in the node score
 */
public record ResourceSpec(String name, int weight) {

  /** cpu and memory with weight 1, the default resource set of both resource plugins. */
  static final List<ResourceSpec> DEFAULT_RESOURCES =
      List.of(new ResourceSpec("cpu", 1), new ResourceSpec("memory", 1));

  /** Applies the v1 defaults. */
  public ResourceSpec {
    name = name == null ? "" : name;
    weight = weight == 0 ? 1 : weight;
  }
}
