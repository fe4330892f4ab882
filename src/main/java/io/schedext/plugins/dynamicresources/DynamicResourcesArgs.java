package io.schedext.plugins.dynamicresources;

/**
 * DynamicResources' args ({@code DynamicResourcesArgs}, kubescheduler.config.k8s.io/v1).
 *
 * @param filterTimeout how long Filter may search for devices on one node, a Go duration ({@code
 *     10s}, {@code 500ms}); past it the node is unschedulable for the pod. Default {@code 10s} (the
 *     DRASchedulerFilterTimeout gate is beta and on in 1.34); {@code 0s} turns the limit off; must
 *     not be negative
 */
public record DynamicResourcesArgs(String filterTimeout) {

  /** The default filter timeout. */
  public static final String DEFAULT_FILTER_TIMEOUT = "10s";

  /** Applies the default to a missing timeout. */
  public DynamicResourcesArgs {
    if (filterTimeout == null) {
      filterTimeout = DEFAULT_FILTER_TIMEOUT;
    }
  }
}
