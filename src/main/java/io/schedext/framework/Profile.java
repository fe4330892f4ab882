package io.schedext.framework;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.List;
import java.util.Map;

/**
 * One scheduling profile, as a KubeSchedulerConfiguration profile after defaults are applied: the
 * plugins enabled at every extension point they implement ({@code multiPoint}), per-point
 * overrides, and plugin arguments. Immutable.
 *
 * @param name the profile (scheduler) name
 * @param multiPoint plugins enabled at every point they implement, in order, with their score
 *     weight
 * @param points per-extension-point enabled/disabled overrides
 * @param pluginArgs raw args by plugin name
 */
public record Profile(
    String name,
    List<PluginRef> multiPoint,
    Map<ExtensionPoint, PluginSet> points,
    Map<String, JsonNode> pluginArgs) {

  /** Normalises nulls to empty collections. */
  public Profile {
    multiPoint = multiPoint == null ? List.of() : List.copyOf(multiPoint);
    points = points == null ? Map.of() : Map.copyOf(points);
    pluginArgs = pluginArgs == null ? Map.of() : Map.copyOf(pluginArgs);
  }

  /**
   * A plugin reference with its score weight (0 = not set, which counts as 1).
   *
   * @param name the plugin name
   * @param weight the score weight
   */
  public record PluginRef(String name, int weight) {

    /** A reference without a weight. */
    public static PluginRef of(String name) {
      return new PluginRef(name, 0);
    }
  }

  /**
   * Plugins enabled and disabled at one extension point; {@code "*"} in disabled disables every
   * multiPoint plugin there.
   *
   * @param enabled enabled plugins in order
   * @param disabled disabled plugin names
   */
  public record PluginSet(List<PluginRef> enabled, List<String> disabled) {

    /** Normalises nulls. */
    public PluginSet {
      enabled = enabled == null ? List.of() : List.copyOf(enabled);
      disabled = disabled == null ? List.of() : List.copyOf(disabled);
    }
  }
}
