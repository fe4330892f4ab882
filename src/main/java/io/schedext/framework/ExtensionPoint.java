package io.schedext.framework;

/**
 * The framework's extension points, with their upstream names and the interface a plugin implements
 * for each.
 */
public enum ExtensionPoint {
  PRE_FILTER("PreFilter", PreFilterPlugin.class),
  FILTER("Filter", FilterPlugin.class),
  POST_FILTER("PostFilter", PostFilterPlugin.class),
  PRE_SCORE("PreScore", PreScorePlugin.class),
  SCORE("Score", ScorePlugin.class),
  RESERVE("Reserve", ReservePlugin.class),
  PERMIT("Permit", PermitPlugin.class),
  PRE_BIND("PreBind", PreBindPlugin.class),
  BIND("Bind", BindPlugin.class),
  POST_BIND("PostBind", PostBindPlugin.class);

  private final String upstreamName;
  private final Class<? extends Plugin> pluginType;

  ExtensionPoint(String upstreamName, Class<? extends Plugin> pluginType) {
    this.upstreamName = upstreamName;
    this.pluginType = pluginType;
  }

  /**
   * The name used in configuration and metrics ({@code preFilter} in config is matched
   * case-insensitively).
   */
  public String upstreamName() {
    return upstreamName;
  }

  /** The interface a plugin implements to run at this point. */
  public Class<? extends Plugin> pluginType() {
    return pluginType;
  }

  /** Looks up a point by upstream name, ignoring case; null when unknown. */
  public static ExtensionPoint byName(String name) {
    for (ExtensionPoint p : values()) {
      if (p.upstreamName.equalsIgnoreCase(name)) {
        return p;
      }
    }
    return null;
  }

  @Override
  public String toString() {
    return upstreamName;
  }
}
