package com.example.schedext;

import io.schedext.framework.PluginProvider;
import io.schedext.framework.Registry;

/** Registers this jar's plugins; listed in META-INF/services/io.schedext.framework.PluginProvider. */
public final class ExamplePlugins implements PluginProvider {

  @Override
  public void register(Registry registry) {
    registry.register(PreferLabel.NAME, PreferLabel::create);
  }
}
