package io.schedext.plugins.podtopologyspread;

import io.fabric8.kubernetes.api.model.TopologySpreadConstraint;
import io.schedext.kube.QualifiedNames;
import java.util.ArrayList;
import java.util.List;

/**
 * The PodTopologySpread arguments, as upstream's {@code PodTopologySpreadArgs} (v1 defaults): the
 * cluster-level default constraints, used for pods that declare none, and where they come from.
 * Immutable.
 *
 * @param defaultConstraints the constraints of {@link #LIST_DEFAULTING}; must not set a label
 *     selector
 * @param defaultingType {@link #SYSTEM_DEFAULTING} (the built-in hostname/zone constraints, the
 *     default) or {@link #LIST_DEFAULTING} (exactly {@code defaultConstraints})
 */
public record PodTopologySpreadArgs(
    List<TopologySpreadConstraint> defaultConstraints, String defaultingType) {

  /** Use the built-in soft hostname and zone constraints. */
  public static final String SYSTEM_DEFAULTING = "System";

  /** Use {@code defaultConstraints} as given. */
  public static final String LIST_DEFAULTING = "List";

  private static final String DO_NOT_SCHEDULE = "DoNotSchedule";
  private static final String SCHEDULE_ANYWAY = "ScheduleAnyway";

  /** Applies the v1 defaults: no default constraints and System defaulting. */
  public PodTopologySpreadArgs {
    defaultConstraints = defaultConstraints == null ? List.of() : List.copyOf(defaultConstraints);
    defaultingType =
        defaultingType == null || defaultingType.isEmpty() ? SYSTEM_DEFAULTING : defaultingType;
  }

  /**
   * The validation errors, worded as upstream's {@code ValidatePodTopologySpreadArgs} field errors;
   * empty when the arguments are valid.
   */
  List<String> validate() {
    List<String> errors = new ArrayList<>();
    if (!SYSTEM_DEFAULTING.equals(defaultingType) && !LIST_DEFAULTING.equals(defaultingType)) {
      errors.add(
          "defaultingType: Unsupported value: \""
              + defaultingType
              + "\": supported values: \""
              + SYSTEM_DEFAULTING
              + "\", \""
              + LIST_DEFAULTING
              + "\"");
    } else if (SYSTEM_DEFAULTING.equals(defaultingType) && !defaultConstraints.isEmpty()) {
      errors.add(
          "defaultingType: Invalid value: \""
              + SYSTEM_DEFAULTING
              + "\": when .defaultConstraints are not empty");
    }
    for (int i = 0; i < defaultConstraints.size(); i++) {
      TopologySpreadConstraint c = defaultConstraints.get(i);
      String p = "defaultConstraints[" + i + "]";
      int maxSkew = c.getMaxSkew() == null ? 0 : c.getMaxSkew();
      if (maxSkew <= 0) {
        errors.add(p + ".maxSkew: Invalid value: " + maxSkew + ": not in valid range (0, inf)");
      }
      String key = c.getTopologyKey() == null ? "" : c.getTopologyKey();
      if (key.isEmpty()) {
        errors.add(p + ".topologyKey: Required value: can not be empty");
      } else if (!QualifiedNames.isQualifiedName(key)) {
        errors.add(
            p
                + ".topologyKey: Invalid value: \""
                + key
                + "\": must be a qualified name (an optional DNS "
                + "subdomain prefix and '/', then at most 63 alphanumeric characters, '-', '_' or '.', starting and "
                + "ending with an alphanumeric character)");
      }
      String when = c.getWhenUnsatisfiable() == null ? "" : c.getWhenUnsatisfiable();
      if (when.isEmpty()) {
        errors.add(p + ".whenUnsatisfiable: Required value: can not be empty");
      } else if (!DO_NOT_SCHEDULE.equals(when) && !SCHEDULE_ANYWAY.equals(when)) {
        errors.add(
            p
                + ".whenUnsatisfiable: Unsupported value: \""
                + when
                + "\": supported values: \""
                + DO_NOT_SCHEDULE
                + "\", \""
                + SCHEDULE_ANYWAY
                + "\"");
      }
      if (c.getLabelSelector() != null) {
        errors.add(
            p
                + ".labelSelector: Forbidden: constraint must not define a selector, as they deduced for "
                + "each pod");
      }
      for (int j = 0; j < i; j++) {
        TopologySpreadConstraint other = defaultConstraints.get(j);
        if (key.equals(other.getTopologyKey() == null ? "" : other.getTopologyKey())
            && when.equals(
                other.getWhenUnsatisfiable() == null ? "" : other.getWhenUnsatisfiable())) {
          errors.add(p + ": Duplicate value: \"{" + key + ", " + when + "}\"");
          break;
        }
      }
    }
    return errors;
  }
}
