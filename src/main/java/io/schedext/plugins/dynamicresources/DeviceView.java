package io.schedext.plugins.dynamicresources;

import io.fabric8.kubernetes.api.model.resource.v1.Device;
import io.schedext.framework.DeviceId;
import io.schedext.plugins.dynamicresources.cel.CelDevice;
import io.schedext.plugins.dynamicresources.cel.CompiledSelector;
import io.schedext.plugins.dynamicresources.cel.SelectorException;
import java.util.Arrays;

/**
 * One device of a ResourceSlice as the allocator works with it: its ID, the API object, its
 * selector input built on first use, and what each selector expression answered for it. A
 * selector's answer depends on the device alone, so it is kept for as long as the slice is
 * unchanged (a new slice version gets new views) and every pod, node and cycle after the first
 * looks it up instead of evaluating CEL. The memo is keyed by the compiled selector itself (the
 * selector cache hands out one per expression), a short array scanned by identity: a device meets
 * few expressions, and a lookup must cost less than comparing expression strings. Thread-safe.
 */
final class DeviceView {

  /** Selectors remembered per device; past this the memo starts over. */
  private static final int MEMO_LIMIT = 16;

  private static final Object[] EMPTY = new Object[0];

  private final DeviceId id;
  private final Device device;
  private final String driver;
  private volatile CelDevice cel;
  // Pairs of (CompiledSelector, Boolean or SelectorException), replaced whole on every addition.
  private volatile Object[] memo = EMPTY;

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
    Object known = remembered(selector);
    if (known == null) {
      try {
        known = selector.matches(celDevice());
      } catch (SelectorException e) {
        known = e;
      }
      remember(selector, known);
    }
    if (known instanceof SelectorException e) {
      throw new SelectorException(e.getMessage());
    }
    return (Boolean) known;
  }

  private Object remembered(CompiledSelector selector) {
    Object[] m = memo;
    for (int i = 0; i < m.length; i += 2) {
      if (m[i] == selector) {
        return m[i + 1];
      }
    }
    return null;
  }

  // Two threads adding at once may lose one addition: it is evaluated again next time.
  private void remember(CompiledSelector selector, Object answer) {
    Object[] m = memo;
    Object[] next;
    if (m.length >= 2 * MEMO_LIMIT) {
      next = new Object[2];
    } else {
      next = Arrays.copyOf(m, m.length + 2);
    }
    next[next.length - 2] = selector;
    next[next.length - 1] = answer;
    memo = next;
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
