package io.schedext.plugins.volumebinding;

import io.schedext.framework.StateData;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * VolumeBinding's cycle state: the pod's prepared claims (null when it has none) and, per node that passed Filter,
 * what binding the pod's volumes there takes, for a later Reserve. As upstream, Filter adds to the per-node map while
 * running in parallel (a concurrent map here, a mutex there) and {@link #copy()} shares this instance, so results of
 * simulated cycles land in the same map.
 */
public final class VolumeBindingState implements StateData {

  private final PreparedClaims claims;
  private final ConcurrentHashMap<String, PodVolumes> podVolumesByNode = new ConcurrentHashMap<>();
  private volatile boolean hasStaticBindings;

  VolumeBindingState(PreparedClaims claims) {
    this.claims = claims;
  }

  /** The pod's prepared claims, or null when the pod uses none. */
  public PreparedClaims claims() {
    return claims;
  }

  /** The volumes to bind per node that passed Filter; read-only view. */
  public Map<String, PodVolumes> podVolumesByNode() {
    return java.util.Collections.unmodifiableMap(podVolumesByNode);
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

  @Override
  public StateData copy() {
    return this;
  }
}
