package io.schedext.plugins.dynamicresources;

import io.fabric8.kubernetes.api.model.resource.v1.Device;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceSlice;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceSliceSpec;
import java.util.ArrayList;
import java.util.List;

/**
 * One ResourceSlice with its devices as {@link DeviceView}s, made once per slice version. Immutable
 * (the views' memos aside).
 */
final class SliceView {

  private final ResourceSlice slice;
  private final String driver;
  private final String pool;
  private final long generation;
  private final long sliceCount;
  private final List<DeviceView> devices;

  SliceView(ResourceSlice slice) {
    this.slice = slice;
    ResourceSliceSpec spec = slice.getSpec();
    this.driver = spec == null || spec.getDriver() == null ? "" : spec.getDriver();
    var p = spec == null ? null : spec.getPool();
    this.pool = p == null || p.getName() == null ? "" : p.getName();
    this.generation = p == null || p.getGeneration() == null ? 0 : p.getGeneration();
    this.sliceCount =
        p == null || p.getResourceSliceCount() == null ? 0 : p.getResourceSliceCount();
    List<DeviceView> ds = new ArrayList<>();
    if (spec != null && spec.getDevices() != null) {
      for (Device d : spec.getDevices()) {
        ds.add(new DeviceView(driver, pool, d));
      }
    }
    this.devices = List.copyOf(ds);
  }

  ResourceSlice slice() {
    return slice;
  }

  ResourceSliceSpec spec() {
    return slice.getSpec();
  }

  String name() {
    return slice.getMetadata() == null ? "" : slice.getMetadata().getName();
  }

  String driver() {
    return driver;
  }

  String pool() {
    return pool;
  }

  long generation() {
    return generation;
  }

  long sliceCount() {
    return sliceCount;
  }

  List<DeviceView> devices() {
    return devices;
  }
}
