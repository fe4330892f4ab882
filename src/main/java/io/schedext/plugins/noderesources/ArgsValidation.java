package io.schedext.plugins.noderesources;

import io.schedext.framework.FrameworkException;
import io.schedext.plugins.noderesources.NodeResourcesFitArgs.ScoringStrategy;
import io.schedext.plugins.noderesources.NodeResourcesFitArgs.UtilizationShapePoint;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Validates the resource plugins' arguments as upstream's {@code validation_pluginargs.go}, with
 * its messages: each error reads {@code <field>: <kind>: <value>: <detail>} and several errors are
 * joined as {@code [e1, e2]}.
 */
final class ArgsValidation {

  static final List<String> SUPPORTED_STRATEGIES =
      List.of(
          NodeResourcesFitArgs.LEAST_ALLOCATED,
          NodeResourcesFitArgs.MOST_ALLOCATED,
          NodeResourcesFitArgs.REQUESTED_TO_CAPACITY_RATIO);

  private static final int MAX_WEIGHT = 100;
  private static final int MAX_UTILIZATION = 100;
  private static final int MAX_CUSTOM_PRIORITY_SCORE = 10;
  private static final int QUALIFIED_NAME_MAX_LENGTH = 63;
  private static final int DNS1123_SUBDOMAIN_MAX_LENGTH = 253;
  private static final String QUALIFIED_NAME_FMT = "([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]";
  private static final Pattern QUALIFIED_NAME = Pattern.compile(QUALIFIED_NAME_FMT);
  private static final String QUALIFIED_NAME_MSG =
      "must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character";
  private static final String DNS1123_SUBDOMAIN_FMT =
      "[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*";
  private static final Pattern DNS1123_SUBDOMAIN = Pattern.compile(DNS1123_SUBDOMAIN_FMT);
  private static final String DNS1123_SUBDOMAIN_MSG =
      "a lowercase RFC 1123 subdomain must consist of lower case "
          + "alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character";

  private ArgsValidation() {}

  /** Throws {@link FrameworkException} listing every invalid field of {@code args}. */
  static void validate(NodeResourcesFitArgs args) {
    List<String> errs = new ArrayList<>();
    for (int i = 0; i < args.ignoredResources().size(); i++) {
      labelName(errs, "ignoredResources[" + i + "]", args.ignoredResources().get(i));
    }
    for (int i = 0; i < args.ignoredResourceGroups().size(); i++) {
      String path = "ignoredResourceGroups[" + i + "]";
      String group = args.ignoredResourceGroups().get(i);
      if (group.contains("/")) {
        errs.add(invalid(path, quote(group), "resource group name can't contain '/'"));
      }
      labelName(errs, path, group);
    }
    ScoringStrategy strategy = args.scoringStrategy();
    if (!SUPPORTED_STRATEGIES.contains(strategy.type())) {
      errs.add(
          "scoringStrategy.type: Unsupported value: "
              + quote(strategy.type())
              + ": supported values: "
              + String.join(
                  ", ", SUPPORTED_STRATEGIES.stream().map(ArgsValidation::quote).toList()));
    }
    for (int i = 0; i < strategy.resources().size(); i++) {
      ResourceSpec r = strategy.resources().get(i);
      if (r.weight() <= 0 || r.weight() > MAX_WEIGHT) {
        errs.add(
            invalid(
                "scoringStrategy.resources[" + i + "].weight",
                Integer.toString(r.weight()),
                "resource weight of " + r.name() + " not in valid range (0, " + MAX_WEIGHT + "]"));
      }
    }
    if (strategy.requestedToCapacityRatio() != null) {
      shape(errs, "scoringStrategy.shape", strategy.requestedToCapacityRatio().shape());
    } else if (NodeResourcesFitArgs.REQUESTED_TO_CAPACITY_RATIO.equals(strategy.type())) {
      // Upstream dereferences the missing parameter and panics; report it as the missing shape it
      // is.
      shape(errs, "scoringStrategy.shape", List.of());
    }
    fail(errs);
  }

  /** Throws {@link FrameworkException} listing every invalid field of {@code args}. */
  static void validate(NodeResourcesBalancedAllocationArgs args) {
    List<String> errs = new ArrayList<>();
    Set<String> seen = new HashSet<>();
    for (int i = 0; i < args.resources().size(); i++) {
      ResourceSpec r = args.resources().get(i);
      if (!seen.add(r.name())) {
        errs.add("resources[" + i + "].name: Duplicate value: " + quote(r.name()));
      }
      if (r.weight() != 1) {
        errs.add(invalid("resources[" + i + "].weight", Integer.toString(r.weight()), "must be 1"));
      }
    }
    fail(errs);
  }

  private static void shape(List<String> errs, String path, List<UtilizationShapePoint> shape) {
    if (shape.isEmpty()) {
      errs.add(path + ": Required value: at least one point must be specified");
      return;
    }
    for (int i = 1; i < shape.size(); i++) {
      if (shape.get(i - 1).utilization() >= shape.get(i).utilization()) {
        errs.add(
            invalid(
                path + "[" + i + "].utilization",
                Integer.toString(shape.get(i).utilization()),
                "values must be sorted in increasing order"));
        break;
      }
    }
    for (int i = 0; i < shape.size(); i++) {
      UtilizationShapePoint p = shape.get(i);
      if (p.utilization() < 0 || p.utilization() > MAX_UTILIZATION) {
        errs.add(
            invalid(
                path + "[" + i + "].utilization",
                Integer.toString(p.utilization()),
                "not in valid range [0, " + MAX_UTILIZATION + "]"));
      }
      if (p.score() < 0 || p.score() > MAX_CUSTOM_PRIORITY_SCORE) {
        errs.add(
            invalid(
                path + "[" + i + "].score",
                Integer.toString(p.score()),
                "not in valid range [0, " + MAX_CUSTOM_PRIORITY_SCORE + "]"));
      }
    }
  }

  /** Upstream's {@code ValidateLabelName}: one error per qualified-name problem. */
  private static void labelName(List<String> errs, String path, String value) {
    for (String msg : qualifiedNameErrors(value)) {
      errs.add(invalid(path, quote(value), msg));
    }
  }

  private static List<String> qualifiedNameErrors(String value) {
    List<String> errs = new ArrayList<>();
    String[] parts = value.split("/", -1);
    String name;
    if (parts.length == 1) {
      name = parts[0];
    } else if (parts.length == 2) {
      String prefix = parts[0];
      name = parts[1];
      if (prefix.isEmpty()) {
        errs.add("prefix part must be non-empty");
      } else {
        if (prefix.length() > DNS1123_SUBDOMAIN_MAX_LENGTH) {
          errs.add(
              "prefix part must be no more than " + DNS1123_SUBDOMAIN_MAX_LENGTH + " characters");
        }
        if (!DNS1123_SUBDOMAIN.matcher(prefix).matches()) {
          errs.add(
              "prefix part "
                  + regexError(DNS1123_SUBDOMAIN_MSG, DNS1123_SUBDOMAIN_FMT, "example.com"));
        }
      }
    } else {
      errs.add(
          "a qualified name "
              + regexError(QUALIFIED_NAME_MSG, QUALIFIED_NAME_FMT, "MyName", "my.name", "123-abc")
              + " with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')");
      return errs;
    }
    if (name.isEmpty()) {
      errs.add("name part must be non-empty");
    } else if (name.length() > QUALIFIED_NAME_MAX_LENGTH) {
      errs.add("name part must be no more than " + QUALIFIED_NAME_MAX_LENGTH + " characters");
    }
    if (!QUALIFIED_NAME.matcher(name).matches()) {
      errs.add(
          "name part "
              + regexError(QUALIFIED_NAME_MSG, QUALIFIED_NAME_FMT, "MyName", "my.name", "123-abc"));
    }
    return errs;
  }

  /** Upstream's {@code RegexError}, double spaces before "or" included. */
  private static String regexError(String msg, String fmt, String... examples) {
    StringBuilder sb = new StringBuilder(msg).append(" (e.g. ");
    for (int i = 0; i < examples.length; i++) {
      if (i > 0) {
        sb.append(" or ");
      }
      sb.append('\'').append(examples[i]).append("', ");
    }
    return sb.append("regex used for validation is '").append(fmt).append("')").toString();
  }

  private static String invalid(String path, String value, String detail) {
    return path + ": Invalid value: " + value + ": " + detail;
  }

  /** Go's {@code %q} for the strings that occur in configurations. */
  private static String quote(String s) {
    StringBuilder sb = new StringBuilder(s.length() + 2).append('"');
    for (char c : s.toCharArray()) {
      switch (c) {
        case '"' -> sb.append("\\\"");
        case '\\' -> sb.append("\\\\");
        case '\n' -> sb.append("\\n");
        case '\t' -> sb.append("\\t");
        case '\r' -> sb.append("\\r");
        default -> {
          if (c < 0x20 || c == 0x7f) {
            sb.append(String.format("\\x%02x", (int) c));
          } else {
            sb.append(c);
          }
        }
      }
    }
    return sb.append('"').toString();
  }

  /**
   * Joins errors as apimachinery's aggregate does (duplicates dropped, brackets for more than one).
   */
  private static void fail(List<String> errs) {
    if (errs.isEmpty()) {
      return;
    }
    Set<String> unique = new LinkedHashSet<>(errs);
    String msg =
        unique.size() == 1 ? unique.iterator().next() : "[" + String.join(", ", unique) + "]";
    throw new FrameworkException(msg);
  }
}
