package io.schedext.framework;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

/**
 * Plugin factories by name, each with the type of its args when it declares one. Not thread-safe:
 * build it at start-up, then only read it.
 */
public final class Registry {

  private final Map<String, Entry> entries = new LinkedHashMap<>();

  /**
   * Adds a factory for a plugin without an args type; throws {@link FrameworkException} when the
   * name is taken.
   */
  public Registry register(String name, PluginFactory factory) {
    return register(name, null, factory);
  }

  /**
   * Adds a factory for a plugin whose args decode into {@code argsType} (null: none declared). With
   * a type, a profile's args for the plugin are checked and defaulted when the profile is loaded,
   * as kube-scheduler does for its v1 args kinds: an unknown or mistyped field stops start-up with
   * its path, and the effective args (the type's defaults filled in) are what the factory receives
   * and {@code /debug/config} shows. The factory still decodes them ({@link PluginArgs#as}) and
   * validates them. Throws {@link FrameworkException} when the name is taken.
   */
  public Registry register(String name, Class<?> argsType, PluginFactory factory) {
    if (entries.containsKey(name)) {
      throw new FrameworkException("a plugin named " + name + " already exists");
    }
    entries.put(name, new Entry(factory, argsType));
    return this;
  }

  /** Removes a factory; throws {@link FrameworkException} when there is none by that name. */
  public Registry unregister(String name) {
    if (entries.remove(name) == null) {
      throw new FrameworkException("no plugin named " + name + " exists");
    }
    return this;
  }

  /**
   * Adds every factory of {@code other}; throws {@link FrameworkException} on the first name both
   * hold.
   */
  public Registry merge(Registry other) {
    for (Map.Entry<String, Entry> e : other.entries.entrySet()) {
      register(e.getKey(), e.getValue().argsType(), e.getValue().factory());
    }
    return this;
  }

  /** The factory for {@code name}, or null. */
  public PluginFactory get(String name) {
    Entry e = entries.get(name);
    return e == null ? null : e.factory();
  }

  /**
   * The args type registered for {@code name}; null when the plugin is unknown or declared none.
   */
  public Class<?> argsType(String name) {
    Entry e = entries.get(name);
    return e == null ? null : e.argsType();
  }

  /** The registered names, in registration order. */
  public Set<String> names() {
    return Collections.unmodifiableSet(entries.keySet());
  }

  private record Entry(PluginFactory factory, Class<?> argsType) {}
}
