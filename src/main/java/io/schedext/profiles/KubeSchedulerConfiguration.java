package io.schedext.profiles;

import io.schedext.framework.Profile;
import java.util.List;
import java.util.Map;

/**
 * What one source of profiles amounts to after kube-scheduler's defaulting: the profiles to run and
 * where in the file each came from. The source is a KubeSchedulerConfiguration file, a translated
 * Policy or the built-in default; only the parts the extender uses are kept. Immutable.
 *
 * @param source the file the profiles come from, or a description of the built-in default
 * @param profiles the profiles in file order; the first serves {@code /scheduler/*} unless {@code
 *     extender.scheduling.default-profile} names another
 * @param fieldPaths where each profile's parts are in the file, by profile name
 * @param translated true for a translated Policy: its profile names v1.22's points for each plugin,
 *     and a point the extender's plugin does not implement is left out (logged) instead of failing
 *     start-up
 * @param percentageOfNodesToScore the configured value, recorded only (the extender answers for
 *     every node it is asked about); null when not set
 */
record KubeSchedulerConfiguration(
    String source,
    List<Profile> profiles,
    Map<String, FieldPaths> fieldPaths,
    boolean translated,
    Integer percentageOfNodesToScore) {

  /** Copies the list and the map. */
  KubeSchedulerConfiguration {
    profiles = List.copyOf(profiles);
    fieldPaths = Map.copyOf(fieldPaths);
  }

  /**
   * Where the parts of profile {@code name} are in the file; no paths for a profile not in the
   * file.
   */
  FieldPaths fieldPaths(String name) {
    return fieldPaths.getOrDefault(name, FieldPaths.NONE);
  }
}
