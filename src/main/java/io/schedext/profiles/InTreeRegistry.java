package io.schedext.profiles;

import io.schedext.framework.FrameworkException;
import io.schedext.framework.PluginProvider;
import io.schedext.framework.Registry;
import io.schedext.plugins.Names;
import io.schedext.plugins.defaultbinder.DefaultBinder;
import io.schedext.plugins.defaultpreemption.DefaultPreemption;
import io.schedext.plugins.imagelocality.ImageLocality;
import io.schedext.plugins.interpodaffinity.InterPodAffinity;
import io.schedext.plugins.nodeaffinity.NodeAffinity;
import io.schedext.plugins.nodelabel.NodeLabel;
import io.schedext.plugins.nodename.NodeName;
import io.schedext.plugins.nodeports.NodePorts;
import io.schedext.plugins.noderesources.BalancedAllocation;
import io.schedext.plugins.noderesources.Fit;
import io.schedext.plugins.nodeunschedulable.NodeUnschedulable;
import io.schedext.plugins.nodevolumelimits.NodeVolumeLimits;
import io.schedext.plugins.podtopologyspread.PodTopologySpread;
import io.schedext.plugins.selectorspread.SelectorSpread;
import io.schedext.plugins.serviceaffinity.ServiceAffinity;
import io.schedext.plugins.tainttoleration.TaintToleration;
import io.schedext.plugins.volumebinding.VolumeBinding;
import io.schedext.plugins.volumerestrictions.VolumeRestrictions;
import io.schedext.plugins.volumezone.VolumeZone;
import java.util.ServiceLoader;

/** The registry of every plugin shipped with the extender. */
public final class InTreeRegistry {

  private InTreeRegistry() {}

  /**
   * The in-tree plugins plus those of every {@link PluginProvider} {@code loader} finds; throws
   * {@link io.schedext.framework.FrameworkException} naming the provider when one registers a name already taken.
   */
  public static Registry withProviders(ClassLoader loader) {
    Registry r = create();
    for (PluginProvider p : ServiceLoader.load(PluginProvider.class, loader)) {
      Registry own = new Registry();
      p.register(own);
      try {
        r.merge(own);
      } catch (FrameworkException e) {
        throw new FrameworkException("plugin provider " + p.getClass().getName() + ": " + e.getMessage(), e);
      }
    }
    return r;
  }

  /** A new registry holding every in-tree plugin factory. */
  public static Registry create() {
    Registry r = new Registry();
    r.register(Names.NODE_UNSCHEDULABLE, NodeUnschedulable::create);
    r.register(Names.NODE_NAME, NodeName::create);
    r.register(Names.TAINT_TOLERATION, TaintToleration::create);
    r.register(Names.NODE_AFFINITY, NodeAffinity::create);
    r.register(Names.NODE_PORTS, NodePorts::create);
    r.register(Names.NODE_RESOURCES_FIT, Fit::create);
    r.register(Names.VOLUME_RESTRICTIONS, VolumeRestrictions::create);
    r.register(Names.NODE_VOLUME_LIMITS, NodeVolumeLimits::create);
    r.register(Names.VOLUME_BINDING, VolumeBinding::create);
    r.register(Names.VOLUME_ZONE, VolumeZone::create);
    r.register(Names.POD_TOPOLOGY_SPREAD, PodTopologySpread::create);
    r.register(Names.INTER_POD_AFFINITY, InterPodAffinity::create);
    r.register(Names.NODE_RESOURCES_BALANCED_ALLOCATION, BalancedAllocation::create);
    r.register(Names.IMAGE_LOCALITY, ImageLocality::create);
    r.register(Names.DEFAULT_PREEMPTION, DefaultPreemption::create);
    r.register(Names.DEFAULT_BINDER, DefaultBinder::create);
    // Removed upstream (v1.23 and later); off by default, enabled per profile.
    r.register(Names.SERVICE_AFFINITY, ServiceAffinity::create);
    r.register(Names.NODE_LABEL, NodeLabel::create);
    r.register(Names.SELECTOR_SPREAD, SelectorSpread::create);
    return r;
  }
}
