package io.schedext.plugins.dynamicresources;

import io.fabric8.kubernetes.api.model.resource.v1.Device;
import io.schedext.framework.DeviceId;
import io.schedext.plugins.dynamicresources.cel.CelDevice;
import io.schedext.plugins.dynamicresources.cel.CompiledSelector;
import io.schedext.plugins.dynamicresources.cel.SelectorException;
import java.util.concurrent.ConcurrentHashMap;

/**
 * One device of a ResourceSlice as the allocator works with it: its ID, the API object, its
 * selector input built on first use, and what each selector expression answered for it. A
 * selector's answer depends on the device alone, so it is kept for as long as the slice is
 * unchanged (a new slice version gets new views) and every pod, node and cycle after the first asks
 * a map instead of evaluating CEL. Thread-safe.
 */
final class DeviceView {

  /** Expressions remembered per device; past this the memo starts over. */
  private static final int MEMO_LIMIT = 64;

  private final DeviceId id;
  private final Device device;
  private final String driver;
  private volatile CelDevice cel;
  private final ConcurrentHashMap<String, Object> memo = new ConcurrentHashMap<>();

  DeviceView(String driver, String pool, Device device) {
    this.driver = driver;
    this.device = device;
    this.id = new DeviceId(driver, pool, device.getName());
  }

  DeviceId id() {
    return id;
  }

  Device device() {
    return device;
  }

  String name() {
    return device.getName();
  }

  /**
   * Whether {@code selector} (compiled) matches this device; throws {@link SelectorException} with
   * the runtime error, every time it is asked.
   */
  boolean matches(CompiledSelector selector) {
    Object known = memo.get(selector.expression());
    if (known == null) {
      try {
        known = selector.matches(celDevice());
      } catch (SelectorException e) {
        known = e;
      }
      if (memo.size() >= MEMO_LIMIT) {
        memo.clear();
      }
      memo.put(selector.expression(), known);
    }
    if (known instanceof SelectorException e) {
      throw new SelectorException(e.getMessage());
    }
    return (Boolean) known;
  }

  private CelDevice celDevice() {
    CelDevice c = cel;
    if (c == null) {
      c = CelDevice.of(driver, device.getAttributes(), device.getCapacity());
      cel = c;
    }
    return c;
  }
}
