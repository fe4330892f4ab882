package io.schedext.plugins.volumebinding;

import io.schedext.framework.ClusterObjects;
import io.schedext.framework.CycleState;
import io.schedext.framework.FilterPlugin;
import io.schedext.framework.FrameworkException;
import io.schedext.framework.Handle;
import io.schedext.framework.NodeInfo;
import io.schedext.framework.PluginArgs;
import io.schedext.framework.PodInfo;
import io.schedext.framework.PreBindPlugin;
import io.schedext.framework.PreFilterPlugin;
import io.schedext.framework.PreFilterResult;
import io.schedext.framework.ReservePlugin;
import io.schedext.framework.Status;
import io.schedext.framework.VolumeWriter;
import io.schedext.plugins.Names;
import java.time.Clock;
import java.time.Duration;

/**
 * Binds a pod's PersistentVolumeClaims as part of scheduling it. PreFilter rejects pods whose
 * claims are missing, lost, being deleted or unbound with immediate binding, and narrows to the
 * nodes of bound local volumes; Filter finds, per node, existing volumes for the
 * WaitForFirstConsumer claims or checks they can be provisioned there, and keeps the result;
 * Reserve assumes the chosen node's result in the PV and PVC assume caches (so later pods see those
 * volumes taken) and Unreserve puts the caches back; PreBind writes the PVs and claims through the
 * API and waits for the PV controller to bind them. Claims and volumes are read through the assume
 * caches, fed lazily from the cluster objects.
 */
public final class VolumeBinding
    implements PreFilterPlugin, FilterPlugin, ReservePlugin, PreBindPlugin {

  /** The reason when a claim with immediate binding is not bound yet. */
  public static final String ERR_REASON_UNBOUND_IMMEDIATE =
      "pod has unbound immediate PersistentVolumeClaims";

  static final String STATE_KEY = "PreFilter" + Names.VOLUME_BINDING;

  private static final Status UNBOUND_IMMEDIATE =
      Status.unresolvable(ERR_REASON_UNBOUND_IMMEDIATE).withPlugin(Names.VOLUME_BINDING);

  private final ClaimClassifier classifier;
  private final long bindTimeoutSeconds;
  private final VolumeAssumeCaches caches;
  private final PodVolumeAssumer assumer;
  private final PodVolumeBinder binder;

  private VolumeBinding(
      ClusterObjects objects,
      long bindTimeoutSeconds,
      VolumeWriter writer,
      Clock clock,
      Sleeper sleeper) {
    this.caches = new VolumeAssumeCaches(objects);
    this.classifier = new ClaimClassifier(caches, objects);
    this.bindTimeoutSeconds = bindTimeoutSeconds;
    this.assumer = new PodVolumeAssumer(caches);
    this.binder =
        new PodVolumeBinder(caches, writer, Duration.ofSeconds(bindTimeoutSeconds), clock, sleeper);
  }

  @Override
  public String name() {
    return Names.VOLUME_BINDING;
  }

  /** How long PreBind will wait for the volumes to be bound. */
  public long bindTimeoutSeconds() {
    return bindTimeoutSeconds;
  }

  /** The PV and PVC assume caches this plugin decides on. */
  public VolumeAssumeCaches caches() {
    return caches;
  }

  /**
   * Skips pods without claims; rejects (unresolvable) pods whose claims cannot be used as they are;
   * otherwise stores the classified claims. It never narrows the nodes: 1.34 checks bound local
   * volumes' node affinity in Filter only (older releases narrowed to their hostnames here).
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
    return PreFilterResult.success();
  }

  /**
   * Rejects (unresolvable, every reason that applies) a node where the claims cannot be satisfied;
   * otherwise records what binding takes there.
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

  /**
   * Assumes the volumes Filter found for {@code nodeName} (PVs bound to their claims, claims to
   * provision with the selected node) unless every claim is bound already; an assume-cache failure
   * is an Error.
   */
  @Override
  public Status reserve(CycleState state, PodInfo pod, String nodeName) {
    VolumeBindingState s = state.read(STATE_KEY, VolumeBindingState.class);
    PodVolumes volumes = s.podVolumesByNode().get(nodeName);
    if (volumes == null) {
      s.setAllBound(true);
      return Status.success();
    }
    PodVolumeAssumer.Assumed assumed;
    try {
      assumed = assumer.assume(pod.pod(), nodeName, volumes);
    } catch (AssumeCacheException e) {
      return Status.error(e.getMessage()).withPlugin(name());
    }
    s.assumed(nodeName, assumed.volumes());
    s.setAllBound(assumed.allBound());
    return Status.success();
  }

  /**
   * Puts back the cache entries Reserve assumed for {@code nodeName}; does nothing when there are
   * none.
   */
  @Override
  public void unreserve(CycleState state, PodInfo pod, String nodeName) {
    if (!(state.readOrNull(STATE_KEY) instanceof VolumeBindingState s)) {
      return;
    }
    PodVolumes volumes = s.podVolumesByNode().get(nodeName);
    if (volumes != null) {
      assumer.revert(volumes);
    }
  }

  /**
   * Writes the assumed PVs and claims and waits (up to {@code bindTimeoutSeconds}) for the PV
   * controller to bind them; any failure is an Error, so the pod is unreserved and retried.
   */
  @Override
  public Status preBind(CycleState state, PodInfo pod, String nodeName) {
    VolumeBindingState s = state.read(STATE_KEY, VolumeBindingState.class);
    if (s.allBound()) {
      return Status.success();
    }
    PodVolumes volumes = s.podVolumesByNode().get(nodeName);
    if (volumes == null) {
      return Status.error("no pod volumes found for node \"" + nodeName + "\"").withPlugin(name());
    }
    try {
      binder.bindPodVolumes(
          pod,
          nodeName,
          volumes,
          n -> {
            NodeInfo node = state.snapshot().get(n);
            return node == null ? null : node.labels();
          });
    } catch (FrameworkException e) {
      return Status.error(e.getMessage()).withPlugin(name());
    }
    return Status.success();
  }

  /**
   * The factory registered under {@link Names#VOLUME_BINDING}; rejects a negative {@code
   * bindTimeoutSeconds}.
   */
  public static VolumeBinding create(PluginArgs args, Handle handle) {
    return create(args, handle, handle.clock(), Sleeper.SYSTEM);
  }

  /**
   * Like {@link #create(PluginArgs, Handle)}, with PreBind's waits on {@code clock} and {@code
   * sleeper}.
   */
  static VolumeBinding create(PluginArgs args, Handle handle, Clock clock, Sleeper sleeper) {
    VolumeBindingArgs a = args.as(VolumeBindingArgs.class);
    if (a.bindTimeoutSeconds() < 0) {
      throw new FrameworkException(
          "bindTimeoutSeconds: Invalid value: "
              + a.bindTimeoutSeconds()
              + ": invalid BindTimeoutSeconds, should not be a negative value");
    }
    return new VolumeBinding(
        handle.clusterObjects(), a.bindTimeoutSeconds(), handle.volumeWriter(), clock, sleeper);
  }
}
