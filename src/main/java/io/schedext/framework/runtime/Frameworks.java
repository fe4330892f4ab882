package io.schedext.framework.runtime;

import io.schedext.framework.FrameworkException;
import java.util.Collection;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The frameworks of every configured profile, by profile name, and which one serves {@code
 * /scheduler}. Immutable.
 */
public final class Frameworks {

  private final Map<String, Framework> byName;
  private final String defaultName;

  /** Frameworks keyed by profile name; {@code defaultName} must be one of them. */
  public Frameworks(Map<String, Framework> byName, String defaultName) {
    if (!byName.containsKey(defaultName)) {
      throw new FrameworkException(
          "default profile \"" + defaultName + "\" is not among the profiles " + byName.keySet());
    }
    this.byName = Collections.unmodifiableMap(new LinkedHashMap<>(byName));
    this.defaultName = defaultName;
  }

  /** The framework of profile {@code name}, or null. */
  public Framework get(String name) {
    return byName.get(name);
  }

  /** The default profile's framework. */
  public Framework defaultFramework() {
    return byName.get(defaultName);
  }

  /** The default profile's name. */
  public String defaultName() {
    return defaultName;
  }

  /** Every framework, in configuration order. */
  public Collection<Framework> all() {
    return byName.values();
  }
}
