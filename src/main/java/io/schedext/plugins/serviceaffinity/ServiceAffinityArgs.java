package io.schedext.plugins.serviceaffinity;

import java.util.List;

/**
 * The arguments of {@link ServiceAffinity}, as v1.22's {@code ServiceAffinityArgs}. Missing fields
 * default to empty lists.
 *
 * @param affinityLabels node labels whose values must be the same for every pod of a service
 *     (Filter)
 * @param antiAffinityLabelsPreference node labels over whose values a service's pods are spread
 *     (Score); this is how the old ServiceAntiAffinity priority is expressed
 */
public record ServiceAffinityArgs(
    List<String> affinityLabels, List<String> antiAffinityLabelsPreference) {

  /** Replaces null lists by empty ones and makes both lists immutable. */
  public ServiceAffinityArgs {
    affinityLabels = affinityLabels == null ? List.of() : List.copyOf(affinityLabels);
    antiAffinityLabelsPreference =
        antiAffinityLabelsPreference == null
            ? List.of()
            : List.copyOf(antiAffinityLabelsPreference);
  }
}
