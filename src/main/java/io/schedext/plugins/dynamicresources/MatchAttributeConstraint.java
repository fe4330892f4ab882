package io.schedext.plugins.dynamicresources;

import io.fabric8.kubernetes.api.model.resource.v1.Device;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceAttribute;
import io.schedext.framework.DeviceId;
import java.util.Objects;
import java.util.Set;

/**
 * A claim's {@code matchAttribute} constraint while one allocation is searched: every device picked
 * for the requests it names (all requests when it names none) has the attribute, with one value.
 * The first device sets the value; only devices with the same value can follow. Only the number of
 * devices in the set is tracked, as upstream. Not thread-safe: one search owns it.
 */
final class MatchAttributeConstraint {

  private final Set<String> requestNames;
  private final String attributeName;
  private DeviceAttribute value;
  private int devices;

  MatchAttributeConstraint(Set<String> requestNames, String attributeName) {
    this.requestNames = requestNames;
    this.attributeName = attributeName;
  }

  /** The same constraint with no device added yet, for another search. */
  MatchAttributeConstraint fresh() {
    return new MatchAttributeConstraint(requestNames, attributeName);
  }

  String attributeName() {
    return attributeName;
  }

  /** Whether the constraint applies to devices of request {@code request} (or its subrequest). */
  boolean appliesTo(String request, String subRequest) {
    if (requestNames.isEmpty()) {
      return true;
    }
    return requestNames.contains(request)
        || (subRequest != null && requestNames.contains(request + "/" + subRequest));
  }

  /** Adds the device if it satisfies the constraint; false (nothing changed) if it does not. */
  boolean add(String request, String subRequest, Device device, DeviceId id) {
    if (!appliesTo(request, subRequest)) {
      return true;
    }
    DeviceAttribute a = lookup(device, id, attributeName);
    if (a == null) {
      return false;
    }
    if (devices == 0) {
      value = a;
      devices = 1;
      return true;
    }
    if (!sameValue(a, value)) {
      return false;
    }
    devices++;
    return true;
  }

  /** Undoes one {@link #add} that returned true, with the same arguments. */
  void remove(String request, String subRequest) {
    if (!appliesTo(request, subRequest)) {
      return;
    }
    devices--;
  }

  /**
   * The attribute of the device by its fully qualified name, or by its bare name when the domain is
   * the device's driver (upstream's {@code lookupAttribute}); null when it has none.
   */
  static DeviceAttribute lookup(Device device, DeviceId id, String name) {
    var attrs = device.getAttributes();
    if (attrs == null) {
      return null;
    }
    DeviceAttribute a = attrs.get(name);
    if (a != null) {
      return a;
    }
    int slash = name.indexOf('/');
    if (slash < 0 || !name.substring(0, slash).equals(id.driver())) {
      return null;
    }
    return attrs.get(name.substring(slash + 1));
  }

  /**
   * Whether {@code a} has a value of the same type as {@code first}, and the same value; versions
   * compare as strings (semver requires their minimal form).
   */
  static boolean sameValue(DeviceAttribute a, DeviceAttribute first) {
    if (a.getString() != null) {
      return first.getString() != null && a.getString().equals(first.getString());
    }
    if (a.getInt() != null) {
      return first.getInt() != null && Objects.equals(a.getInt(), first.getInt());
    }
    if (a.getBool() != null) {
      return first.getBool() != null && Objects.equals(a.getBool(), first.getBool());
    }
    if (a.getVersion() != null) {
      return first.getVersion() != null && a.getVersion().equals(first.getVersion());
    }
    return false;
  }
}
