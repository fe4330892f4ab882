package io.schedext.plugins.volumebinding;

import io.schedext.framework.ClusterObjects;
import io.schedext.framework.CycleState;
import io.schedext.framework.FilterPlugin;
import io.schedext.framework.FrameworkException;
import io.schedext.framework.Handle;
import io.schedext.framework.NodeInfo;
import io.schedext.framework.PluginArgs;
import io.schedext.framework.PodInfo;
import io.schedext.framework.PreFilterPlugin;
import io.schedext.framework.PreFilterResult;
import io.schedext.framework.Status;
import io.schedext.plugins.Names;
import java.util.Set;

/**
 * The scheduling side of volume binding: PreFilter rejects pods whose claims are missing, lost, being deleted or
 * unbound with immediate binding, and narrows to the nodes of bound local volumes; Filter finds, per node, existing
 * volumes for the WaitForFirstConsumer claims or checks they can be provisioned there, and keeps the result for
 * Reserve. Reserve/Unreserve/PreBind (assume caches, API writes) are not implemented yet.
 */
public final class VolumeBinding implements PreFilterPlugin, FilterPlugin {

  /** The reason when a claim with immediate binding is not bound yet. */
  public static final String ERR_REASON_UNBOUND_IMMEDIATE = "pod has unbound immediate PersistentVolumeClaims";

  static final String STATE_KEY = "PreFilter" + Names.VOLUME_BINDING;

  private static final Status UNBOUND_IMMEDIATE =
      Status.unresolvable(ERR_REASON_UNBOUND_IMMEDIATE).withPlugin(Names.VOLUME_BINDING);

  private final ClaimClassifier classifier;
  private final long bindTimeoutSeconds;

  private VolumeBinding(VolumeLister lister, ClusterObjects objects, long bindTimeoutSeconds) {
    this.classifier = new ClaimClassifier(lister, objects);
    this.bindTimeoutSeconds = bindTimeoutSeconds;
  }

  @Override
  public String name() {
    return Names.VOLUME_BINDING;
  }

  /** How long PreBind will wait for the volumes to be bound. */
  public long bindTimeoutSeconds() {
    return bindTimeoutSeconds;
  }

  /**
   * Skips pods without claims; rejects (unresolvable) pods whose claims cannot be used as they are; otherwise stores
   * the classified claims and narrows to the nodes bound local volumes allow, if any.
   */
  @Override
  public PreFilterResult preFilter(CycleState state, PodInfo pod) {
    ClaimClassifier.Check check = classifier.check(pod.pod());
    if (check.problem() != null) {
      return PreFilterResult.of(Status.unresolvable(check.problem()).withPlugin(name()));
    }
    if (!check.hasClaims()) {
      state.write(STATE_KEY, new VolumeBindingState(null));
      return PreFilterResult.of(Status.skip());
    }
    PodVolumeClaims claims;
    try {
      claims = classifier.classify(pod.pod());
    } catch (FrameworkException e) {
      return PreFilterResult.of(Status.error(e.getMessage()).withPlugin(name()));
    }
    if (!claims.unboundImmediate().isEmpty()) {
      return PreFilterResult.of(UNBOUND_IMMEDIATE);
    }
    PreparedClaims prepared = classifier.prepare(claims);
    state.write(STATE_KEY, new VolumeBindingState(prepared));
    Set<String> eligible = LocalVolumeNodes.eligible(prepared.bound());
    return eligible == null ? PreFilterResult.success() : PreFilterResult.nodes(eligible);
  }

  /**
   * Rejects (unresolvable, every reason that applies) a node where the claims cannot be satisfied; otherwise records
   * what binding takes there.
   */
  @Override
  public Status filter(CycleState state, PodInfo pod, NodeInfo node) {
    VolumeBindingState s = state.read(STATE_KEY, VolumeBindingState.class);
    if (s.claims() == null) {
      return Status.success();
    }
    VolumeFinder.Result r;
    try {
      r = VolumeFinder.find(s.claims(), node.name(), node.labels());
    } catch (FrameworkException e) {
      return Status.error(e.getMessage()).withPlugin(name());
    }
    if (!r.reasons().isEmpty()) {
      return Status.unresolvable(r.reasons().toArray(new String[0])).withPlugin(name());
    }
    s.record(node.name(), r.volumes());
    return Status.success();
  }

  /** The factory registered under {@link Names#VOLUME_BINDING}; rejects a negative {@code bindTimeoutSeconds}. */
  public static VolumeBinding create(PluginArgs args, Handle handle) {
    VolumeBindingArgs a = args.as(VolumeBindingArgs.class);
    if (a.bindTimeoutSeconds() < 0) {
      throw new FrameworkException("bindTimeoutSeconds: Invalid value: " + a.bindTimeoutSeconds()
          + ": invalid BindTimeoutSeconds, should not be a negative value");
    }
    ClusterObjects objects = handle.clusterObjects();
    return new VolumeBinding(new ClusterVolumeLister(objects), objects, a.bindTimeoutSeconds());
  }
}
