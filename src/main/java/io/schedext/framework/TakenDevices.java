package io.schedext.framework;

import java.util.Collection;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.Map;
import java.util.Set;
import java.util.function.Predicate;

/**
 * A set of devices indexed by driver and pool, so that a search over one pool looks the pool up
 * once and then asks only for device names: most pools have no device taken at all, and their
 * devices are then checked against an empty set. Immutable; {@link #plus} copies only the pool it
 * adds to.
 */
public final class TakenDevices {

  /** No device taken. */
  public static final TakenDevices NONE = new TakenDevices(Map.of(), 0);

  // driver -> pool -> device names; nothing in here is changed after construction.
  private final Map<String, Map<String, Set<String>>> byDriver;
  private final int size;

  private TakenDevices(Map<String, Map<String, Set<String>>> byDriver, int size) {
    this.byDriver = byDriver;
    this.size = size;
  }

  /** The devices in {@code ids}. */
  public static TakenDevices of(Collection<DeviceId> ids) {
    return NONE.plus(ids);
  }

  /** These devices and those in {@code ids}. */
  public TakenDevices plus(Collection<DeviceId> ids) {
    return update(ids, id -> true);
  }

  /**
   * These devices, with each of {@code ids} taken or not as {@code taken} says. Only the pools of
   * {@code ids} are copied: every other pool's set stays the same object, so a reader can tell a
   * pool unchanged by identity.
   */
  public TakenDevices update(Collection<DeviceId> ids, Predicate<DeviceId> taken) {
    if (ids.isEmpty()) {
      return this;
    }
    Map<String, Map<String, Set<String>>> drivers = new HashMap<>(byDriver);
    // The maps and sets copied by this call, which it may change.
    Set<Object> own = Collections.newSetFromMap(new IdentityHashMap<>());
    int n = size;
    for (DeviceId id : ids) {
      boolean add = taken.test(id);
      Map<String, Set<String>> pools = drivers.get(id.driver());
      Set<String> names = pools == null ? null : pools.get(id.pool());
      if (add
          ? names != null && names.contains(id.device())
          : names == null || !names.contains(id.device())) {
        continue;
      }
      if (pools == null || !own.contains(pools)) {
        pools = pools == null ? new HashMap<>() : new HashMap<>(pools);
        own.add(pools);
        drivers.put(id.driver(), pools);
      }
      if (names == null || !own.contains(names)) {
        names = names == null ? new HashSet<>() : new HashSet<>(names);
        own.add(names);
        pools.put(id.pool(), names);
      }
      if (add) {
        names.add(id.device());
        n++;
      } else {
        names.remove(id.device());
        n--;
        if (names.isEmpty()) {
          pools.remove(id.pool());
          if (pools.isEmpty()) {
            drivers.remove(id.driver());
          }
        }
      }
    }
    return new TakenDevices(drivers, n);
  }

  /** The names of the devices taken in pool {@code pool} of {@code driver}; empty when none. */
  public Set<String> inPool(String driver, String pool) {
    Map<String, Set<String>> pools = byDriver.get(driver);
    if (pools == null) {
      return Set.of();
    }
    Set<String> names = pools.get(pool);
    return names == null ? Set.of() : names;
  }

  /** Whether device {@code id} is taken. */
  public boolean contains(DeviceId id) {
    return inPool(id.driver(), id.pool()).contains(id.device());
  }

  /** How many devices are taken. */
  public int size() {
    return size;
  }

  public boolean isEmpty() {
    return size == 0;
  }

  /** The devices, as a set of IDs (a new set, for tests and debugging). */
  public Set<DeviceId> toSet() {
    Set<DeviceId> out = new HashSet<>();
    byDriver.forEach(
        (driver, pools) ->
            pools.forEach(
                (pool, names) -> names.forEach(d -> out.add(new DeviceId(driver, pool, d)))));
    return out;
  }

  @Override
  public String toString() {
    return toSet().toString();
  }
}
