package io.schedext.profiles;

import com.fasterxml.jackson.databind.JsonNode;
import io.schedext.cluster.ObjectStore;
import io.schedext.framework.ExtensionPoint;
import io.schedext.framework.runtime.Framework;
import io.schedext.framework.runtime.Frameworks;
import io.schedext.testing.TestFrameworks;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * What a built framework runs, as comparable values: the plugins per extension point (non-empty
 * points only, keyed as in a configuration file), the score weights and the effective args.
 *
 * @param name the profile name
 * @param plugins plugin names per point, in run order
 * @param weights score weights, in run order
 * @param args effective args by plugin
 */
record FrameworkView(
    String name,
    Map<String, List<String>> plugins,
    Map<String, Integer> weights,
    Map<String, JsonNode> args) {

  static FrameworkView of(Framework fw) {
    Map<String, List<String>> plugins = new LinkedHashMap<>();
    for (ExtensionPoint p : ExtensionPoint.values()) {
      if (!fw.pluginNames(p).isEmpty()) {
        plugins.put(ProfileDefaults.setName(p), fw.pluginNames(p));
      }
    }
    return new FrameworkView(
        fw.profileName(), plugins, fw.scoreWeights(), new TreeMap<>(fw.pluginArgs()));
  }

  /**
   * Builds the frameworks of {@code configured} with the in-tree registry over an empty cluster.
   */
  static Frameworks build(KubeSchedulerConfiguration configured, String defaultProfile) {
    return FrameworkBuilder.build(
        configured,
        InTreeRegistry.create(),
        TestFrameworks.services(new ObjectStore()),
        defaultProfile,
        true);
  }

  /** The views of every framework built from {@code configured}, in profile order. */
  static List<FrameworkView> of(KubeSchedulerConfiguration configured) {
    return build(configured, "").all().stream().map(FrameworkView::of).toList();
  }

  /** The plugins, weights and args as one line per part, for reading a translation. */
  String describe() {
    StringBuilder b = new StringBuilder("profile ").append(name).append('\n');
    plugins.forEach((p, names) -> b.append("  ").append(p).append(": ").append(names).append('\n'));
    b.append("  weights: ").append(weights).append('\n');
    args.forEach((p, a) -> b.append("  args ").append(p).append(": ").append(a).append('\n'));
    return b.toString();
  }
}
