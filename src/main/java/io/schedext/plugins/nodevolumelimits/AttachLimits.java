package io.schedext.plugins.nodevolumelimits;

import io.fabric8.kubernetes.api.model.storage.CSINode;
import io.fabric8.kubernetes.api.model.storage.CSINodeDriver;
import java.util.HashMap;
import java.util.Map;

/**
 * Per-driver attach limits of a node, keyed by CSI driver name: the CSINode's {@code
 * drivers[].allocatable.count}, as 1.34.9's {@code getVolumeLimits}. The node's allocatable {@code
 * attachable-volumes-*} entries, which 1.26 also read, no longer count. Stateless.
 */
final class AttachLimits {

  private AttachLimits() {}

  /** The limits {@code csiNode} (null when the node has none) declares; empty when none. */
  static Map<String, Long> of(CSINode csiNode) {
    Map<String, Long> limits = new HashMap<>();
    if (csiNode != null && csiNode.getSpec() != null && csiNode.getSpec().getDrivers() != null) {
      for (CSINodeDriver d : csiNode.getSpec().getDrivers()) {
        if (d.getAllocatable() != null && d.getAllocatable().getCount() != null) {
          limits.put(d.getName(), d.getAllocatable().getCount().longValue());
        }
      }
    }
    return limits;
  }
}
