package io.schedext.plugins;

import io.schedext.framework.Registry;
import io.schedext.plugins.defaultbinder.DefaultBinder;
import io.schedext.plugins.nodename.NodeName;

/** The registry of every plugin shipped with the extender. */
public final class InTreeRegistry {

  private InTreeRegistry() {}

  /** A new registry holding every in-tree plugin factory. */
  public static Registry create() {
    Registry r = new Registry();
    r.register(Names.NODE_NAME, NodeName::create);
    r.register(Names.DEFAULT_BINDER, DefaultBinder::create);
    return r;
  }
}
