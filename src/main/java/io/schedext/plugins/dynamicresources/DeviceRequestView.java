package io.schedext.plugins.dynamicresources;

import io.fabric8.kubernetes.api.model.resource.v1.DeviceRequest;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceSelector;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceSubRequest;
import io.fabric8.kubernetes.api.model.resource.v1.ExactDeviceRequest;
import java.util.List;

/**
 * A request of a claim, or one of the subrequests of its {@code firstAvailable} list, read the same
 * way (upstream's {@code requestAccessor}). The API server defaults the allocation mode to {@code
 * ExactCount} and the count to 1; an object that skipped defaulting (a cluster file) reads the
 * same.
 */
abstract sealed class DeviceRequestView {

  static final String EXACT_COUNT = "ExactCount";
  static final String ALL = "All";

  abstract String name();

  abstract String deviceClassName();

  abstract String rawMode();

  abstract Long rawCount();

  abstract List<DeviceSelector> selectors();

  /** Whether the request asks for admin access (subrequests never do). */
  abstract boolean adminAccess();

  /** Whether the request sets the admin access field at all. */
  abstract boolean hasAdminAccess();

  String allocationMode() {
    String m = rawMode();
    return m == null ? EXACT_COUNT : m;
  }

  long count() {
    Long c = rawCount();
    return c == null ? 1 : c;
  }

  static DeviceRequestView of(DeviceRequest r) {
    return new Exact(r);
  }

  static DeviceRequestView of(DeviceSubRequest r) {
    return new Sub(r);
  }

  static final class Exact extends DeviceRequestView {
    private final DeviceRequest request;
    private final ExactDeviceRequest exactly;

    Exact(DeviceRequest request) {
      this.request = request;
      this.exactly = request.getExactly() == null ? new ExactDeviceRequest() : request.getExactly();
    }

    @Override
    String name() {
      return request.getName();
    }

    @Override
    String deviceClassName() {
      return exactly.getDeviceClassName() == null ? "" : exactly.getDeviceClassName();
    }

    @Override
    String rawMode() {
      return exactly.getAllocationMode();
    }

    @Override
    Long rawCount() {
      return exactly.getCount();
    }

    @Override
    List<DeviceSelector> selectors() {
      return exactly.getSelectors() == null ? List.of() : exactly.getSelectors();
    }

    @Override
    boolean adminAccess() {
      return Boolean.TRUE.equals(exactly.getAdminAccess());
    }

    @Override
    boolean hasAdminAccess() {
      return exactly.getAdminAccess() != null;
    }
  }

  static final class Sub extends DeviceRequestView {
    private final DeviceSubRequest sub;

    Sub(DeviceSubRequest sub) {
      this.sub = sub;
    }

    @Override
    String name() {
      return sub.getName();
    }

    @Override
    String deviceClassName() {
      return sub.getDeviceClassName() == null ? "" : sub.getDeviceClassName();
    }

    @Override
    String rawMode() {
      return sub.getAllocationMode();
    }

    @Override
    Long rawCount() {
      return sub.getCount();
    }

    @Override
    List<DeviceSelector> selectors() {
      return sub.getSelectors() == null ? List.of() : sub.getSelectors();
    }

    @Override
    boolean adminAccess() {
      return false;
    }

    @Override
    boolean hasAdminAccess() {
      return false;
    }
  }
}
