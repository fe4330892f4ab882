package io.schedext.framework;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

/** Plugin factories by name. Not thread-safe: build it at start-up, then only read it. */
public final class Registry {

  private final Map<String, PluginFactory> factories = new LinkedHashMap<>();

  /** Adds a factory; throws {@link FrameworkException} when the name is taken. */
  public Registry register(String name, PluginFactory factory) {
    if (factories.containsKey(name)) {
      throw new FrameworkException("a plugin named " + name + " already exists");
    }
    factories.put(name, factory);
    return this;
  }

  /** Removes a factory; throws {@link FrameworkException} when there is none by that name. */
  public Registry unregister(String name) {
    if (factories.remove(name) == null) {
      throw new FrameworkException("no plugin named " + name + " exists");
    }
    return this;
  }

  /** Adds every factory of {@code other}; throws {@link FrameworkException} on the first name both hold. */
  public Registry merge(Registry other) {
    for (Map.Entry<String, PluginFactory> e : other.factories.entrySet()) {
      register(e.getKey(), e.getValue());
    }
    return this;
  }

  /** The factory for {@code name}, or null. */
  public PluginFactory get(String name) {
    return factories.get(name);
  }

  /** The registered names, in registration order. */
  public Set<String> names() {
    return Collections.unmodifiableSet(factories.keySet());
  }
}
