package io.schedext.plugins.defaultpreemption;

import java.util.ArrayList;
import java.util.List;

/**
 * The DefaultPreemption plugin's arguments ({@code DefaultPreemptionArgs}); missing fields take
 * upstream's defaults.
 *
 * @param minCandidateNodesPercentage the share of potential nodes (0–100) the dry run wants as
 *     candidates before it stops (default 10)
 * @param minCandidateNodesAbsolute the least number of candidates the dry run wants before it stops
 *     (default 100)
 */
public record DefaultPreemptionArgs(
    Integer minCandidateNodesPercentage, Integer minCandidateNodesAbsolute) {

  /** Upstream's default {@code minCandidateNodesPercentage}. */
  public static final int DEFAULT_MIN_CANDIDATE_NODES_PERCENTAGE = 10;

  /** Upstream's default {@code minCandidateNodesAbsolute}. */
  public static final int DEFAULT_MIN_CANDIDATE_NODES_ABSOLUTE = 100;

  /** Applies the defaults to missing fields. */
  public DefaultPreemptionArgs {
    if (minCandidateNodesPercentage == null) {
      minCandidateNodesPercentage = DEFAULT_MIN_CANDIDATE_NODES_PERCENTAGE;
    }
    if (minCandidateNodesAbsolute == null) {
      minCandidateNodesAbsolute = DEFAULT_MIN_CANDIDATE_NODES_ABSOLUTE;
    }
  }

  /** The arguments with every field defaulted. */
  public static DefaultPreemptionArgs defaults() {
    return new DefaultPreemptionArgs(null, null);
  }

  /**
   * Upstream's validation errors for these arguments, in upstream's order, each in apimachinery's
   * {@code <field>: Invalid value: <value>: <detail>} form; empty when the arguments are valid.
   */
  List<String> validationErrors() {
    List<String> errs = new ArrayList<>();
    int pct = minCandidateNodesPercentage;
    int abs = minCandidateNodesAbsolute;
    if (pct < 0 || pct > 100) {
      errs.add(
          "minCandidateNodesPercentage: Invalid value: " + pct + ": not in valid range [0, 100]");
    }
    if (abs < 0) {
      errs.add(
          "minCandidateNodesAbsolute: Invalid value: " + abs + ": not in valid range [0, inf)");
    }
    if (pct == 0 && abs == 0) {
      errs.add(
          "minCandidateNodesPercentage: Invalid value: 0: cannot be zero at the same time as "
              + "minCandidateNodesAbsolute");
      errs.add(
          "minCandidateNodesAbsolute: Invalid value: 0: cannot be zero at the same time as "
              + "minCandidateNodesPercentage");
    }
    return errs;
  }
}
