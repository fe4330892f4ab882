package io.schedext.framework;

/**
 * Receives the framework's timings; the web layer backs it with Micrometer. Implementations are
 * thread-safe.
 */
public interface FrameworkMetrics {

  /** Discards everything. */
  FrameworkMetrics NONE = new FrameworkMetrics() {};

  /** One run of an extension point for one pod (all nodes, all plugins). */
  default void extensionPoint(String profile, ExtensionPoint point, Code status, long nanos) {}

  /** One plugin call, recorded only for cycles sampled for plugin metrics. */
  default void plugin(String plugin, String extensionPoint, Code status, long nanos) {}
}
