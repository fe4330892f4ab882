package io.schedext.profiles;

import io.schedext.framework.FrameworkException;
import io.schedext.framework.PluginProvider;
import io.schedext.framework.Registry;
import io.schedext.plugins.Names;
import io.schedext.plugins.defaultbinder.DefaultBinder;
import io.schedext.plugins.defaultpreemption.DefaultPreemption;
import io.schedext.plugins.defaultpreemption.DefaultPreemptionArgs;
import io.schedext.plugins.dynamicresources.DynamicResources;
import io.schedext.plugins.dynamicresources.DynamicResourcesArgs;
import io.schedext.plugins.imagelocality.ImageLocality;
import io.schedext.plugins.interpodaffinity.InterPodAffinity;
import io.schedext.plugins.interpodaffinity.InterPodAffinityArgs;
import io.schedext.plugins.nodeaffinity.NodeAffinity;
import io.schedext.plugins.nodeaffinity.NodeAffinityArgs;
import io.schedext.plugins.nodelabel.NodeLabel;
import io.schedext.plugins.nodename.NodeName;
import io.schedext.plugins.nodeports.NodePorts;
import io.schedext.plugins.noderesources.BalancedAllocation;
import io.schedext.plugins.noderesources.Fit;
import io.schedext.plugins.noderesources.NodeResourcesBalancedAllocationArgs;
import io.schedext.plugins.noderesources.NodeResourcesFitArgs;
import io.schedext.plugins.nodeunschedulable.NodeUnschedulable;
import io.schedext.plugins.nodevolumelimits.NodeVolumeLimits;
import io.schedext.plugins.podtopologyspread.PodTopologySpread;
import io.schedext.plugins.podtopologyspread.PodTopologySpreadArgs;
import io.schedext.plugins.selectorspread.SelectorSpread;
import io.schedext.plugins.serviceaffinity.ServiceAffinity;
import io.schedext.plugins.tainttoleration.TaintToleration;
import io.schedext.plugins.volumebinding.VolumeBinding;
import io.schedext.plugins.volumebinding.VolumeBindingArgs;
import io.schedext.plugins.volumerestrictions.VolumeRestrictions;
import io.schedext.plugins.volumezone.VolumeZone;
import java.util.ServiceLoader;

/**
 * Every plugin shipped with the extender, each registered once: its name, its args type when it has
 * one, and its factory ({@code create(args, handle)}, upstream's {@code New}). The plugin's package
 * holds the rest (the plugin, its args record with its defaults, the validation in its factory), so
 * adding a plugin is its package and one line here. Upstream's {@code NewInTreeRegistry}.
 */
public final class InTreeRegistry {

  private InTreeRegistry() {}

  /**
   * The in-tree plugins plus those of every {@link PluginProvider} {@code loader} finds; throws
   * {@link FrameworkException} naming the provider when one registers a name already taken.
   */
  public static Registry withProviders(ClassLoader loader) {
    Registry r = create();
    for (PluginProvider p : ServiceLoader.load(PluginProvider.class, loader)) {
      Registry own = new Registry();
      p.register(own);
      try {
        r.merge(own);
      } catch (FrameworkException e) {
        throw new FrameworkException(
            "plugin provider " + p.getClass().getName() + ": " + e.getMessage(), e);
      }
    }
    return r;
  }

  /** A new registry holding every in-tree plugin. */
  public static Registry create() {
    return new Registry()
        .register(Names.NODE_UNSCHEDULABLE, NodeUnschedulable::create)
        .register(Names.NODE_NAME, NodeName::create)
        .register(Names.TAINT_TOLERATION, TaintToleration::create)
        .register(Names.NODE_AFFINITY, NodeAffinityArgs.class, NodeAffinity::create)
        .register(Names.NODE_PORTS, NodePorts::create)
        .register(Names.NODE_RESOURCES_FIT, NodeResourcesFitArgs.class, Fit::create)
        .register(Names.VOLUME_RESTRICTIONS, VolumeRestrictions::create)
        .register(Names.NODE_VOLUME_LIMITS, NodeVolumeLimits::create)
        .register(Names.VOLUME_BINDING, VolumeBindingArgs.class, VolumeBinding::create)
        .register(Names.VOLUME_ZONE, VolumeZone::create)
        .register(Names.POD_TOPOLOGY_SPREAD, PodTopologySpreadArgs.class, PodTopologySpread::create)
        .register(Names.INTER_POD_AFFINITY, InterPodAffinityArgs.class, InterPodAffinity::create)
        .register(Names.DYNAMIC_RESOURCES, DynamicResourcesArgs.class, DynamicResources::create)
        .register(
            Names.NODE_RESOURCES_BALANCED_ALLOCATION,
            NodeResourcesBalancedAllocationArgs.class,
            BalancedAllocation::create)
        .register(Names.IMAGE_LOCALITY, ImageLocality::create)
        .register(Names.DEFAULT_PREEMPTION, DefaultPreemptionArgs.class, DefaultPreemption::create)
        .register(Names.DEFAULT_BINDER, DefaultBinder::create)
        // Removed upstream (v1.23 and later); off by default, enabled per profile. Their args kinds
        // are v1.22's, which v1 no longer checks, so no type is registered: the args are kept as
        // given and only the plugin decodes them.
        .register(Names.SERVICE_AFFINITY, ServiceAffinity::create)
        .register(Names.NODE_LABEL, NodeLabel::create)
        .register(Names.SELECTOR_SPREAD, SelectorSpread::create);
  }
}
