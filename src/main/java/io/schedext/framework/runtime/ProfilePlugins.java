package io.schedext.framework.runtime;

import io.schedext.framework.ExtensionPoint;
import io.schedext.framework.FrameworkException;
import io.schedext.framework.Handle;
import io.schedext.framework.Plugin;
import io.schedext.framework.PluginArgs;
import io.schedext.framework.PluginFactory;
import io.schedext.framework.Profile;
import io.schedext.framework.Registry;
import io.schedext.framework.ScorePlugin;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A profile's plugins, each instantiated once from the registry, and each extension point's list of
 * them in upstream's order (multiPoint expanded, explicit enables and disables applied), as
 * upstream's framework builds them in {@code NewFramework}. Immutable once built.
 *
 * @param byName every instance by plugin name, in the order first named
 * @param expanded per extension point, its plugins in the order they run
 */
record ProfilePlugins(
    Map<String, Plugin> byName, Map<ExtensionPoint, List<Profile.PluginRef>> expanded) {

  /**
   * Instantiates {@code profile}'s plugins from {@code registry}, handing them {@code handle}.
   * Throws {@link FrameworkException} naming the profile and plugin when a plugin is unknown, does
   * not implement a point it is enabled at, rejects its args, or has args but is not enabled.
   */
  static ProfilePlugins create(Profile profile, Registry registry, Handle handle) {
    Set<String> needed = new LinkedHashSet<>();
    for (Profile.PluginRef r : profile.multiPoint()) {
      needed.add(r.name());
    }
    for (Profile.PluginSet s : profile.points().values()) {
      s.enabled().forEach(r -> needed.add(r.name()));
    }
    Map<String, Plugin> instances = new LinkedHashMap<>();
    for (String name : needed) {
      PluginFactory f = registry.get(name);
      if (f == null) {
        throw new FrameworkException(
            "plugin \""
                + name
                + "\" does not exist (profile \""
                + profile.name()
                + "\"); registered plugins: "
                + registry.names());
      }
      Plugin p = f.create(PluginArgs.of(name, profile.pluginArgs().get(name)), handle);
      if (p == null || !name.equals(p.name())) {
        throw new FrameworkException(
            "plugin factory for \""
                + name
                + "\" returned a plugin named "
                + (p == null ? "null" : "\"" + p.name() + "\""));
      }
      instances.put(name, p);
    }
    for (String argsFor : profile.pluginArgs().keySet()) {
      if (!instances.containsKey(argsFor)) {
        throw new FrameworkException(
            "pluginConfig has args for plugin \""
                + argsFor
                + "\", which is not enabled in profile \""
                + profile.name()
                + "\"");
      }
    }
    Map<ExtensionPoint, List<Profile.PluginRef>> expanded = new LinkedHashMap<>();
    for (ExtensionPoint point : ExtensionPoint.values()) {
      expanded.put(point, expand(point, profile, instances));
    }
    return new ProfilePlugins(Collections.unmodifiableMap(instances), expanded);
  }

  /** The plugins of {@code point}, in the order they run, as {@code type}. */
  @SuppressWarnings("unchecked")
  <T> T[] at(ExtensionPoint point, Class<T> type) {
    List<Profile.PluginRef> refs = expanded.get(point);
    T[] out = (T[]) java.lang.reflect.Array.newInstance(type, refs.size());
    for (int i = 0; i < out.length; i++) {
      out[i] = type.cast(byName.get(refs.get(i).name()));
    }
    return out;
  }

  /**
   * The Score plugins' weights, in the order they run (0 counts as 1); throws {@link
   * FrameworkException} on a negative weight or when the weighted maximum could overflow.
   */
  int[] scoreWeights() {
    List<Profile.PluginRef> scoreRefs = expanded.get(ExtensionPoint.SCORE);
    int[] scoreWeights = new int[scoreRefs.size()];
    long total = 0;
    for (int i = 0; i < scoreWeights.length; i++) {
      int w = scoreRefs.get(i).weight();
      if (w < 0) {
        throw new FrameworkException(
            "score plugin \"" + scoreRefs.get(i).name() + "\" has a negative weight " + w);
      }
      scoreWeights[i] = w == 0 ? 1 : w;
      total += (long) scoreWeights[i] * ScorePlugin.MAX_NODE_SCORE;
      if (total < 0) {
        throw new FrameworkException("total score of Score plugins could overflow");
      }
    }
    return scoreWeights;
  }

  /**
   * The plugins of one point, as upstream orders them: plugins enabled both explicitly and in
   * multiPoint (explicit order), then multiPoint-only plugins, then explicit-only plugins. A
   * multiPoint plugin disabled at the point is left out there (and, when also enabled explicitly,
   * keeps the explicit-only position); {@code "*"} disabled at the point skips the multiPoint
   * expansion there, leaving the explicit list exactly as written.
   */
  private static List<Profile.PluginRef> expand(
      ExtensionPoint point, Profile profile, Map<String, Plugin> instances) {
    Profile.PluginSet explicit =
        profile.points().getOrDefault(point, new Profile.PluginSet(null, null));
    Set<String> disabled = new HashSet<>(explicit.disabled());
    Map<String, Profile.PluginRef> explicitByName = new LinkedHashMap<>();
    for (Profile.PluginRef r : explicit.enabled()) {
      if (!point.pluginType().isInstance(instances.get(r.name()))) {
        throw new FrameworkException(
            "plugin \""
                + r.name()
                + "\" does not extend "
                + point.upstreamName()
                + " plugin (profile \""
                + profile.name()
                + "\")");
      }
      if (explicitByName.put(r.name(), r) != null) {
        throw new FrameworkException(
            "plugin \"" + r.name() + "\" is enabled twice at " + point.upstreamName());
      }
    }
    Set<String> seen = new HashSet<>();
    for (Profile.PluginRef r : profile.multiPoint()) {
      if (!seen.add(r.name())) {
        throw new FrameworkException("plugin \"" + r.name() + "\" is listed twice in multiPoint");
      }
    }
    if (disabled.contains("*")) {
      return new ArrayList<>(explicitByName.values());
    }
    Set<String> overridden = new HashSet<>();
    List<Profile.PluginRef> multiOnly = new ArrayList<>();
    for (Profile.PluginRef r : profile.multiPoint()) {
      if (!point.pluginType().isInstance(instances.get(r.name())) || disabled.contains(r.name())) {
        continue;
      }
      if (explicitByName.containsKey(r.name())) {
        overridden.add(r.name());
      } else {
        multiOnly.add(r);
      }
    }
    List<Profile.PluginRef> out = new ArrayList<>();
    List<Profile.PluginRef> tail = new ArrayList<>();
    for (Profile.PluginRef r : explicitByName.values()) {
      (overridden.contains(r.name()) ? out : tail).add(r);
    }
    out.addAll(multiOnly);
    out.addAll(tail);
    return out;
  }
}
