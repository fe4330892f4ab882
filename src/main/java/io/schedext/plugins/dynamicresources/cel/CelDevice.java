package io.schedext.plugins.dynamicresources.cel;

import io.fabric8.kubernetes.api.model.resource.v1.DeviceAttribute;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceCapacity;
import java.util.HashMap;
import java.util.Map;

/**
 * One device as a selector sees it, the {@code device} variable: {@code driver}, {@code attributes}
 * and {@code capacity} by domain (a name without a domain is in the driver's), built once per
 * device. A device whose attribute cannot be converted (a version that is not semver) keeps the
 * error, which every selector evaluated on it reports, as upstream's conversion fails on every
 * evaluation. Immutable.
 */
public final class CelDevice {

  private final Map<String, Object> activation;
  private final String error;

  private CelDevice(Map<String, Object> activation, String error) {
    this.activation = activation;
    this.error = error;
  }

  /** The device of {@code driver} with these attributes and capacity (either may be null). */
  public static CelDevice of(
      String driver,
      Map<String, DeviceAttribute> attributes,
      Map<String, DeviceCapacity> capacity) {
    Map<String, Object> attrs = new HashMap<>();
    if (attributes != null) {
      for (Map.Entry<String, DeviceAttribute> e : attributes.entrySet()) {
        Object value;
        try {
          value = value(e.getValue());
        } catch (IllegalArgumentException ex) {
          return new CelDevice(Map.of(), "attribute " + e.getKey() + ": " + ex.getMessage());
        }
        put(attrs, e.getKey(), driver, value);
      }
    }
    Map<String, Object> caps = new HashMap<>();
    if (capacity != null) {
      for (Map.Entry<String, DeviceCapacity> e : capacity.entrySet()) {
        if (e.getValue() == null || e.getValue().getValue() == null) {
          continue;
        }
        KubeQuantity q;
        try {
          q = KubeQuantity.of(e.getValue().getValue());
        } catch (IllegalArgumentException ex) {
          return new CelDevice(Map.of(), "capacity " + e.getKey() + ": " + ex.getMessage());
        }
        put(caps, e.getKey(), driver, q);
      }
    }
    Map<String, Object> device = new HashMap<>();
    device.put("driver", driver == null ? "" : driver);
    device.put("attributes", new DomainMap(freeze(attrs)));
    device.put("capacity", new DomainMap(freeze(caps)));
    return new CelDevice(Map.of("device", Map.copyOf(device)), null);
  }

  @SuppressWarnings("unchecked")
  private static void put(Map<String, Object> byDomain, String name, String driver, Object value) {
    int slash = name.indexOf('/');
    String domain = slash < 0 ? driver : name.substring(0, slash);
    String id = slash < 0 ? name : name.substring(slash + 1);
    ((Map<String, Object>) byDomain.computeIfAbsent(domain, d -> new HashMap<>())).put(id, value);
  }

  @SuppressWarnings("unchecked")
  private static Map<String, Object> freeze(Map<String, Object> byDomain) {
    Map<String, Object> out = new HashMap<>();
    byDomain.forEach((d, m) -> out.put(d, Map.copyOf((Map<String, Object>) m)));
    return Map.copyOf(out);
  }

  /** The one value of an attribute, as upstream's {@code getAttributeValue}. */
  private static Object value(DeviceAttribute a) {
    if (a == null) {
      throw new IllegalArgumentException("unsupported attribute value");
    }
    if (a.getInt() != null) {
      return a.getInt();
    }
    if (a.getBool() != null) {
      return a.getBool();
    }
    if (a.getString() != null) {
      return a.getString();
    }
    if (a.getVersion() != null) {
      try {
        return KubeSemver.parse(a.getVersion());
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException("parse semantic version: " + e.getMessage());
      }
    }
    throw new IllegalArgumentException("unsupported attribute value");
  }

  /** The variables an expression is evaluated with ({@code device}). */
  Map<String, Object> activation() {
    return activation;
  }

  /** Why the device cannot be given to a selector, or null. */
  public String error() {
    return error;
  }
}
