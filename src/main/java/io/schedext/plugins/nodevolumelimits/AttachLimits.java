package io.schedext.plugins.nodevolumelimits;

import io.fabric8.kubernetes.api.model.storage.CSINode;
import io.fabric8.kubernetes.api.model.storage.CSINodeDriver;
import io.schedext.framework.NodeInfo;
import io.schedext.kube.ResourceNames;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.Map;

/**
 * Per-driver attach limits of a node, keyed {@code attachable-volumes-csi-<driver>}: the node's
 * allocatable {@code attachable-volumes-*} entries, overridden by the CSINode's {@code
 * drivers[].allocatable.count}. Stateless.
 */
final class AttachLimits {

  static final String CSI_PREFIX = ResourceNames.ATTACHABLE_VOLUMES_PREFIX + "csi-";
  private static final int RESOURCE_NAME_LENGTH_LIMIT = 63;

  private AttachLimits() {}

  /**
   * The limit key of {@code driver}, hashed when too long, as component-helpers' {@code
   * GetCSIAttachLimitKey}.
   */
  static String key(String driver) {
    if (CSI_PREFIX.length() + driver.length() >= RESOURCE_NAME_LENGTH_LIMIT) {
      try {
        byte[] sum =
            MessageDigest.getInstance("SHA-1").digest(driver.getBytes(StandardCharsets.UTF_8));
        return CSI_PREFIX
            + driver.substring(0, 23)
            + HexFormat.of().formatHex(sum).substring(0, 16);
      } catch (NoSuchAlgorithmException e) {
        throw new IllegalStateException("SHA-1 is not available", e);
      }
    }
    return CSI_PREFIX + driver;
  }

  /** The limits of {@code node}; empty when it declares none. */
  static Map<String, Long> of(NodeInfo node, CSINode csiNode) {
    Map<String, Long> limits = new HashMap<>();
    node.allocatable()
        .scalarResources()
        .forEach(
            (name, value) -> {
              if (ResourceNames.isAttachableVolume(name)) {
                limits.put(name, value);
              }
            });
    if (csiNode != null && csiNode.getSpec() != null && csiNode.getSpec().getDrivers() != null) {
      for (CSINodeDriver d : csiNode.getSpec().getDrivers()) {
        if (d.getAllocatable() != null && d.getAllocatable().getCount() != null) {
          limits.put(key(d.getName()), d.getAllocatable().getCount().longValue());
        }
      }
    }
    return limits;
  }
}
