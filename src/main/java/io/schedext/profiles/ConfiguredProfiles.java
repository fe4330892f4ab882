package io.schedext.profiles;

import java.util.List;

/**
 * Every profile the extender serves, as read from one source. Immutable.
 *
 * @param source the file the profiles come from, or a description of the built-in default
 * @param profiles the profiles in file order; the first serves {@code /scheduler/*} unless
 *     {@code extender.scheduling.default-profile} names another
 * @param percentageOfNodesToScore the configured value, recorded only (the extender answers for every node it is
 *     asked about); null when not set
 */
public record ConfiguredProfiles(String source, List<ConfiguredProfile> profiles, Integer percentageOfNodesToScore) {

  /** Copies the list. */
  public ConfiguredProfiles {
    profiles = List.copyOf(profiles);
  }
}
