package io.schedext.profiles;

import io.schedext.framework.ExtensionPoint;
import java.util.Map;

/**
 * Where one profile's parts are in the file it was read from, so that errors found while building
 * its framework name the field. Immutable.
 *
 * @param profile the profile's field path ({@code profiles[1]}); empty for a translated Policy and
 *     the built-in profile
 * @param args plugin name to the field path of its configured args ({@code
 *     profiles[1].pluginConfig[0].args}); plugins whose args are upstream's defaults are absent
 * @param enabled per extension point, plugin name to the field path of its explicit {@code enabled}
 *     entry
 */
record FieldPaths(
    String profile, Map<String, String> args, Map<ExtensionPoint, Map<String, String>> enabled) {

  /** No paths: the built-in profile. */
  static final FieldPaths NONE = new FieldPaths("", Map.of(), Map.of());

  /** Copies the maps. */
  FieldPaths {
    args = Map.copyOf(args);
    enabled = Map.copyOf(enabled);
  }
}
