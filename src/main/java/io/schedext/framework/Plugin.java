package io.schedext.framework;

/** The parent of every plugin interface: a plugin has a name, unique in a {@link Registry}. */
public interface Plugin {

  /** The plugin's registered name. */
  String name();
}
