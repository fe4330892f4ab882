package io.schedext.profiles;

import io.schedext.framework.ExtensionPoint;
import io.schedext.framework.Profile;
import java.util.Map;

/**
 * A profile read from a configuration or Policy file, with the field paths its parts came from so that errors found
 * while instantiating its plugins can name the field. Immutable.
 *
 * @param profile the profile after upstream's defaulting
 * @param path the profile's field path ({@code profiles[1]}); empty for a translated Policy
 * @param argsPaths plugin name to the field path of its configured args ({@code profiles[1].pluginConfig[0].args});
 *     plugins whose args are upstream's defaults are absent
 * @param enabledPaths per extension point, plugin name to the field path of its explicit {@code enabled} entry
 * @param translated true for a profile translated from a Policy: it names v1.22's points for each plugin, and a
 *     point the extender's plugin does not implement is left out (logged) instead of failing start-up
 */
public record ConfiguredProfile(Profile profile, String path, Map<String, String> argsPaths,
    Map<ExtensionPoint, Map<String, String>> enabledPaths, boolean translated) {

  /** Copies the maps. */
  public ConfiguredProfile {
    argsPaths = Map.copyOf(argsPaths);
    enabledPaths = Map.copyOf(enabledPaths);
  }

  /** The profile (scheduler) name. */
  public String name() {
    return profile.name();
  }
}
