package io.schedext.profiles;

import static io.schedext.profiles.ConfigDocument.child;
import static io.schedext.profiles.ConfigDocument.index;
import static io.schedext.profiles.ConfigDocument.lenientField;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * v1.22's {@code ValidatePolicy} checks of a Policy's priorities, with upstream's messages.
 * Stateless.
 */
final class PolicyValidation {

  /**
   * Upstream's MaxWeight: priority weights must stay below it so that a total score cannot
   * overflow.
   */
  static final long MAX_WEIGHT = Long.MAX_VALUE / 100;

  private PolicyValidation() {}

  /**
   * ValidatePolicy's checks of priority weights and custom priorities, every error reported at
   * once.
   */
  static void validatePriorities(ConfigDocument doc, JsonNode priorities) {
    if (priorities == null || priorities.isNull()) {
      return;
    }
    List<String> errors = new ArrayList<>();
    Map<String, String[]> declared = new HashMap<>();
    List<JsonNode> items = doc.list(priorities, "priorities");
    for (int i = 0; i < items.size(); i++) {
      String path = index("priorities", i);
      JsonNode node = doc.object(items.get(i), path);
      String name = node == null ? null : doc.text(lenientField(node, "name"), child(path, "name"));
      Long weight =
          node == null
              ? null
              : doc.integer(
                  lenientField(node, "weight"),
                  child(path, "weight"),
                  Long.MIN_VALUE,
                  Long.MAX_VALUE);
      long w = weight == null ? 0 : weight;
      if (w <= 0 || w >= MAX_WEIGHT) {
        errors.add(
            "priority "
                + name
                + " should have a positive weight applied to it or it has overflown");
      }
      JsonNode argument =
          node == null ? null : doc.object(lenientField(node, "argument"), child(path, "argument"));
      if (argument == null) {
        continue;
      }
      if (customArguments(argument) > 1) {
        errors.add(
            "exactly 1 priority argument is required, numArgs: "
                + customArguments(argument)
                + ", priority "
                + name);
      } else if (present(argument, "labelPreference") || present(argument, "serviceAntiAffinity")) {
        String type =
            present(argument, "labelPreference") ? "LabelPreference" : "ServiceAntiAffinity";
        String[] existing = declared.putIfAbsent(type, new String[] {name, String.valueOf(w)});
        if (existing != null && !existing[1].equals(String.valueOf(w))) {
          errors.add(
              type
                  + "  priority \""
                  + name
                  + "\" has a different weight with \""
                  + existing[0]
                  + "\"");
        }
      } else if (present(argument, "requestedToCapacityRatioArguments")) {
        String[] existing =
            declared.putIfAbsent("RequestedToCapacityRatio", new String[] {name, ""});
        if (existing != null) {
          errors.add(
              "priority \""
                  + name
                  + "\" redeclares custom priority \"RequestedToCapacityRatio\", from: \""
                  + existing[0]
                  + "\"");
        }
      } else {
        errors.add("no priority arguments set for priority " + name);
      }
    }
    if (!errors.isEmpty()) {
      throw doc.error(
          "priorities", errors.size() == 1 ? errors.get(0) : "[" + String.join(", ", errors) + "]");
    }
  }

  /** How many of the three custom priority arguments {@code argument} sets. */
  static int customArguments(JsonNode argument) {
    int n = 0;
    for (String f :
        List.of("serviceAntiAffinity", "labelPreference", "requestedToCapacityRatioArguments")) {
      n += present(argument, f) ? 1 : 0;
    }
    return n;
  }

  private static boolean present(JsonNode object, String field) {
    JsonNode v = lenientField(object, field);
    return v != null && !v.isNull();
  }
}
