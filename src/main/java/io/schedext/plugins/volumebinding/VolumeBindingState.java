package io.schedext.plugins.volumebinding;

import io.schedext.framework.StateData;
import java.util.Collections;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * VolumeBinding's cycle state: the pod's prepared claims (null when it has none), per node that
 * passed Filter what binding the pod's volumes there takes (replaced by its assumed form in
 * Reserve, read by PreBind and Unreserve), and whether Reserve found every claim already bound. As
 * upstream, Filter adds to the per-node map while running in parallel (a concurrent map here, a
 * mutex there) and {@link #copy()} shares this instance, so results of simulated cycles land in the
 * same map.
 */
public final class VolumeBindingState implements StateData {

  private final PreparedClaims claims;
  private final ConcurrentHashMap<String, PodVolumes> podVolumesByNode = new ConcurrentHashMap<>();
  private volatile boolean hasStaticBindings;
  private volatile boolean allBound;

  VolumeBindingState(PreparedClaims claims) {
    this.claims = claims;
  }

  /** The pod's prepared claims, or null when the pod uses none. */
  public PreparedClaims claims() {
    return claims;
  }

  /** The volumes to bind per node that passed Filter; read-only view. */
  public Map<String, PodVolumes> podVolumesByNode() {
    return Collections.unmodifiableMap(podVolumesByNode);
  }

  /** True when some node's result has a static binding (what upstream's PreScore checks). */
  public boolean hasStaticBindings() {
    return hasStaticBindings;
  }

  void record(String nodeName, PodVolumes volumes) {
    podVolumesByNode.put(nodeName, volumes);
    if (!volumes.staticBindings().isEmpty()) {
      hasStaticBindings = true;
    }
  }

  /**
   * True once Reserve found every claim of the pod bound (or the pod has none): PreBind has nothing
   * to do.
   */
  public boolean allBound() {
    return allBound;
  }

  void setAllBound(boolean allBound) {
    this.allBound = allBound;
  }

  /**
   * Replaces the node's entry with what Reserve assumed, which PreBind writes and Unreserve
   * reverts.
   */
  void assumed(String nodeName, PodVolumes volumes) {
    podVolumesByNode.put(nodeName, volumes);
  }

  @Override
  public StateData copy() {
    return this;
  }
}
