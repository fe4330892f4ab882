package io.schedext.plugins.interpodaffinity;

/**
 * The InterPodAffinity plugin's arguments ({@code InterPodAffinityArgs}); missing fields take
 * upstream's defaults.
 *
 * @param hardPodAffinityWeight the score an existing pod's required affinity term adds when the
 *     incoming pod matches it, 0–100 (default 1)
 * @param ignorePreferredTermsOfExistingPods when true, scoring is skipped for pods without
 *     preferred (anti-)affinity terms of their own (default false)
 */
public record InterPodAffinityArgs(
    Integer hardPodAffinityWeight, Boolean ignorePreferredTermsOfExistingPods) {

  /**
   * Upstream's default {@code hardPodAffinityWeight} ({@code
   * v1.DefaultHardPodAffinitySymmetricWeight}).
   */
  public static final int DEFAULT_HARD_POD_AFFINITY_WEIGHT = 1;

  /** Applies the defaults to missing fields. */
  public InterPodAffinityArgs {
    if (hardPodAffinityWeight == null) {
      hardPodAffinityWeight = DEFAULT_HARD_POD_AFFINITY_WEIGHT;
    }
    if (ignorePreferredTermsOfExistingPods == null) {
      ignorePreferredTermsOfExistingPods = false;
    }
  }

  /** The arguments with every field defaulted. */
  public static InterPodAffinityArgs defaults() {
    return new InterPodAffinityArgs(null, null);
  }
}
