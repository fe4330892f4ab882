package io.schedext.plugins;

import io.schedext.framework.Profile;
import io.schedext.framework.Profile.PluginRef;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Upstream's default plugin set, order and score weights (KubeSchedulerConfiguration v1, current release: the
 * in-tree volume limit plugins are gone and the DynamicResourceAllocation gate is on). The list names every plugin
 * kube-scheduler enables by default, including those an extender does not run (queue sort, scheduling gates,
 * dynamic resources, default preemption); {@link #create} keeps only the ones a registry knows.
 */
public final class DefaultProfile {

  /** The profile name kube-scheduler uses by default. */
  public static final String NAME = "default-scheduler";

  /** Upstream's DynamicResources plugin, enabled by default since 1.34; the extender has no such plugin. */
  public static final String DYNAMIC_RESOURCES = "DynamicResources";

  /** The default multiPoint list, in upstream order, with upstream weights. */
  public static final List<PluginRef> PLUGINS = List.of(
      PluginRef.of(Names.SCHEDULING_GATES),
      PluginRef.of(Names.PRIORITY_SORT),
      PluginRef.of(Names.NODE_UNSCHEDULABLE),
      PluginRef.of(Names.NODE_NAME),
      new PluginRef(Names.TAINT_TOLERATION, 3),
      new PluginRef(Names.NODE_AFFINITY, 2),
      PluginRef.of(Names.NODE_PORTS),
      new PluginRef(Names.NODE_RESOURCES_FIT, 1),
      PluginRef.of(Names.VOLUME_RESTRICTIONS),
      PluginRef.of(Names.NODE_VOLUME_LIMITS),
      PluginRef.of(Names.VOLUME_BINDING),
      PluginRef.of(Names.VOLUME_ZONE),
      new PluginRef(Names.POD_TOPOLOGY_SPREAD, 2),
      new PluginRef(Names.INTER_POD_AFFINITY, 2),
      PluginRef.of(DYNAMIC_RESOURCES),
      PluginRef.of(Names.DEFAULT_PREEMPTION),
      new PluginRef(Names.NODE_RESOURCES_BALANCED_ALLOCATION, 1),
      new PluginRef(Names.IMAGE_LOCALITY, 1),
      PluginRef.of(Names.DEFAULT_BINDER));

  private DefaultProfile() {}

  /** The default profile under {@code name}, keeping only plugins {@code available} knows. */
  public static Profile create(String name, Set<String> available) {
    return new Profile(name, PLUGINS.stream().filter(p -> available.contains(p.name())).toList(), Map.of(), Map.of());
  }
}
