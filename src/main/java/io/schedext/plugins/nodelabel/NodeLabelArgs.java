package io.schedext.plugins.nodelabel;

import java.util.List;

/**
 * The arguments of {@link NodeLabel}, as v1.22's {@code NodeLabelArgs}: labels a node must carry or
 * lack (Filter) and labels it preferably carries or lacks (Score). Missing fields default to empty
 * lists.
 *
 * @param presentLabels labels a feasible node must have, whatever their value
 * @param absentLabels labels a feasible node must not have
 * @param presentLabelsPreference labels that raise a node's score when present
 * @param absentLabelsPreference labels that raise a node's score when absent
 */
public record NodeLabelArgs(
    List<String> presentLabels,
    List<String> absentLabels,
    List<String> presentLabelsPreference,
    List<String> absentLabelsPreference) {

  /** Replaces null lists by empty ones and makes every list immutable. */
  public NodeLabelArgs {
    presentLabels = presentLabels == null ? List.of() : List.copyOf(presentLabels);
    absentLabels = absentLabels == null ? List.of() : List.copyOf(absentLabels);
    presentLabelsPreference =
        presentLabelsPreference == null ? List.of() : List.copyOf(presentLabelsPreference);
    absentLabelsPreference =
        absentLabelsPreference == null ? List.of() : List.copyOf(absentLabelsPreference);
  }
}
