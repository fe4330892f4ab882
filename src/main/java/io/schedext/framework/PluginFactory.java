package io.schedext.framework;

/** Creates a plugin from its typed arguments and the framework handle. */
@FunctionalInterface
public interface PluginFactory {

  /** Builds the plugin; throws {@link FrameworkException} when the arguments are invalid. */
  Plugin create(PluginArgs args, Handle handle);
}
