package io.schedext.framework;

/**
 * The extension point for plugins written outside this project. A jar on the service's classpath
 * lists its implementation in {@code META-INF/services/io.schedext.framework.PluginProvider}; at
 * start-up every provider found adds its factories to the registry, and profiles enable the plugins
 * by name, with typed args, like in-tree ones. A name that is already registered stops start-up.
 */
public interface PluginProvider {

  /** Registers this provider's plugin factories. */
  void register(Registry registry);
}
