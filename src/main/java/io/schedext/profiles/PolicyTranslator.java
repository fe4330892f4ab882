package io.schedext.profiles;

import static io.schedext.profiles.ConfigDocument.child;
import static io.schedext.profiles.ConfigDocument.index;
import static io.schedext.profiles.ConfigDocument.lenientField;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.schedext.framework.ExtensionPoint;
import io.schedext.framework.Profile;
import io.schedext.framework.Registry;
import io.schedext.plugins.Names;
import io.schedext.plugins.noderesources.NodeResourcesFitArgs;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Translates a legacy scheduler Policy ({@code kind: Policy}, {@code apiVersion: v1}, JSON or YAML;
 * removed in Kubernetes 1.23) into one profile, as v1.22's kube-scheduler built its framework from
 * it: upstream's Policy validation, each predicate and priority mapped through {@link
 * PolicyPlugins} (mandatory predicates added, defaults used when {@code predicates} or {@code
 * priorities} is absent, predicates in v1.22's order, priorities by name), DefaultBinder at bind,
 * and no merge with the v1 defaults. Field names match case-insensitively, as Go's encoding/json
 * decoded them. Thread-safe.
 */
final class PolicyTranslator {

  private static final Logger log = LoggerFactory.getLogger(PolicyTranslator.class);

  private static final List<String> FIELDS =
      List.of(
          "kind",
          "apiVersion",
          "predicates",
          "priorities",
          "extenders",
          "hardPodAffinitySymmetricWeight",
          "alwaysCheckAllPredicates");
  private static final String EQUAL_PRIORITY = "EqualPriority";

  private final Registry registry;

  /** A translator whose profiles default plugin args by their types in {@code registry}. */
  PolicyTranslator(Registry registry) {
    this.registry = registry;
  }

  /** Translates the Policy at {@code location} into the profile {@code profileName}. */
  KubeSchedulerConfiguration translate(String location, String profileName) {
    return translate(ConfigDocument.read(location), profileName);
  }

  /** Translates an already parsed Policy into the profile {@code profileName}. */
  KubeSchedulerConfiguration translate(ConfigDocument doc, String profileName) {
    JsonNode root = doc.root();
    String kind = doc.text(lenientField(root, "kind"), "kind");
    if (SchedulerConfigLoader.KIND.equals(kind)) {
      throw doc.error(
          "kind", "this is a KubeSchedulerConfiguration; give it as extender.config.file");
    }
    if (!"Policy".equals(kind)) {
      throw kind == null ? doc.required("kind") : doc.unsupported("kind", kind, List.of("Policy"));
    }
    String apiVersion = doc.text(lenientField(root, "apiVersion"), "apiVersion");
    if (!"v1".equals(apiVersion)) {
      throw apiVersion == null
          ? doc.required("apiVersion")
          : doc.unsupported("apiVersion", apiVersion, List.of("v1"));
    }
    root.fieldNames()
        .forEachRemaining(
            f -> {
              if (FIELDS.stream().noneMatch(f::equalsIgnoreCase)) {
                log.warn(
                    "{}: ignoring unknown field {} (allowed fields: {})", doc.source(), f, FIELDS);
              }
            });
    for (String ignored : List.of("extenders", "alwaysCheckAllPredicates")) {
      if (lenientField(root, ignored) != null) {
        log.info(
            "{}: ignoring {}: kube-scheduler settings the extender does not use",
            doc.source(),
            ignored);
      }
    }
    Long hardWeight =
        doc.integer(
            lenientField(root, "hardPodAffinitySymmetricWeight"),
            "hardPodAffinitySymmetricWeight",
            0,
            100);
    JsonNode predicates = lenientField(root, "predicates");
    JsonNode priorities = lenientField(root, "priorities");
    PolicyValidation.validatePriorities(doc, priorities);

    PolicyArgs args = new PolicyArgs();
    Map<String, String> argsPaths = new HashMap<>();
    List<String> unknown = new ArrayList<>();
    Set<String> predicateKeys = predicateKeys(doc, predicates, args, argsPaths, unknown);
    Map<String, Long> priorityKeys = priorityKeys(doc, priorities, args, argsPaths, unknown);
    if (!unknown.isEmpty()) {
      throw doc.error(
          "",
          String.join(", ", unknown)
              + "; known predicates: "
              + String.join(", ", new TreeSet<>(PolicyPlugins.PREDICATES.keySet()))
              + ", PodFitsPorts (or a custom predicate with a serviceAffinity or labelsPresence argument); known "
              + "priorities: "
              + String.join(", ", knownPriorities())
              + " (or a custom priority with a serviceAntiAffinity, labelPreference or "
              + "requestedToCapacityRatioArguments argument)");
    }
    if (hardWeight != null && hardWeight != 0) {
      args.hardPodAffinityWeight(hardWeight.intValue());
      argsPaths.put(Names.INTER_POD_AFFINITY, "hardPodAffinitySymmetricWeight");
    }
    PolicyPlugins.Builder plugins = produce(doc, predicateKeys, priorityKeys, args);
    if (!plugins.dropped().isEmpty()) {
      log.info(
          "{}: dropping {}: its plugin was removed from Kubernetes in 1.24",
          doc.source(),
          plugins.dropped());
    }
    predicateKeys.stream()
        .filter(PolicyPlugins.VOLUME_COUNT_PREDICATES::contains)
        .forEach(
            p ->
                log.info(
                    "{}: {} runs as NodeVolumeLimits, which counts migrated in-tree volumes",
                    doc.source(),
                    p));
    Profile profile =
        SchedulerConfigLoader.assemble(
            doc.source(), profileName, "", plugins.sets(), plugins.args(), argsPaths, registry);
    return new KubeSchedulerConfiguration(
        doc.source(),
        List.of(profile),
        Map.of(profileName, new FieldPaths("", argsPaths, Map.of())),
        true,
        null);
  }

  /**
   * The registry keys of the predicates (v1.22's defaults when the field is absent); unknown names
   * go to unknown.
   */
  private static Set<String> predicateKeys(
      ConfigDocument doc,
      JsonNode predicates,
      PolicyArgs args,
      Map<String, String> argsPaths,
      List<String> unknown) {
    Set<String> keys = new LinkedHashSet<>();
    if (predicates == null || predicates.isNull()) {
      keys.addAll(PolicyPlugins.DEFAULT_PREDICATES);
      return keys;
    }
    List<JsonNode> items = doc.list(predicates, "predicates");
    for (int i = 0; i < items.size(); i++) {
      String key = predicate(doc, items.get(i), index("predicates", i), args, argsPaths, unknown);
      if (key != null) {
        keys.add(key);
      }
    }
    return keys;
  }

  /**
   * The registry keys of the priorities with their weights, by name (v1.22's defaults when the
   * field is absent; a later priority of the same key replaces the weight); unknown names go to
   * unknown.
   */
  private static Map<String, Long> priorityKeys(
      ConfigDocument doc,
      JsonNode priorities,
      PolicyArgs args,
      Map<String, String> argsPaths,
      List<String> unknown) {
    Map<String, Long> keys = new TreeMap<>();
    if (priorities == null || priorities.isNull()) {
      keys.putAll(PolicyPlugins.DEFAULT_PRIORITIES);
      return keys;
    }
    List<JsonNode> items = doc.list(priorities, "priorities");
    for (int i = 0; i < items.size(); i++) {
      String path = index("priorities", i);
      String key = priority(doc, items.get(i), path, args, argsPaths, unknown);
      if (key != null && !key.equals(EQUAL_PRIORITY)) {
        keys.put(
            key,
            doc.integer(
                lenientField(items.get(i), "weight"),
                child(path, "weight"),
                Long.MIN_VALUE,
                Long.MAX_VALUE));
      }
    }
    return keys;
  }

  private static PolicyPlugins.Builder produce(
      ConfigDocument doc,
      Set<String> predicateKeys,
      Map<String, Long> priorityKeys,
      PolicyArgs args) {
    PolicyPlugins.Builder plugins = new PolicyPlugins.Builder();
    plugins.add(ExtensionPoint.BIND, Names.DEFAULT_BINDER);
    Set<String> all = new TreeSet<>(predicateKeys);
    all.addAll(PolicyPlugins.MANDATORY_PREDICATES);
    List<String> ordered =
        new ArrayList<>(PolicyPlugins.PREDICATE_ORDER.stream().filter(all::contains).toList());
    all.stream().filter(k -> !ordered.contains(k)).forEach(ordered::add);
    try {
      ordered.forEach(k -> PolicyPlugins.PREDICATES.get(k).produce(args, 0, plugins));
      priorityKeys.forEach((k, w) -> PolicyPlugins.PRIORITIES.get(k).produce(args, w, plugins));
    } catch (IllegalArgumentException | ArithmeticException e) {
      throw doc.error("priorities", e.getMessage() == null ? "weight overflow" : e.getMessage());
    }
    return plugins;
  }

  /**
   * ProcessPredicatePolicy: the registry key of the predicate, or null (and a line in {@code
   * unknown}).
   */
  private static String predicate(
      ConfigDocument doc,
      JsonNode item,
      String path,
      PolicyArgs args,
      Map<String, String> argsPaths,
      List<String> unknown) {
    JsonNode node = doc.object(item, path);
    String name = node == null ? null : doc.text(lenientField(node, "name"), child(path, "name"));
    if (name == null || name.isEmpty()) {
      throw doc.required(child(path, "name"));
    }
    String argPath = child(path, "argument");
    JsonNode argument = doc.object(lenientField(node, "argument"), argPath);
    JsonNode serviceAffinity =
        argument == null
            ? null
            : doc.object(
                lenientField(argument, "serviceAffinity"), child(argPath, "serviceAffinity"));
    JsonNode labelsPresence =
        argument == null
            ? null
            : doc.object(
                lenientField(argument, "labelsPresence"), child(argPath, "labelsPresence"));
    if (argument != null && (serviceAffinity == null) == (labelsPresence == null)) {
      throw doc.error(
          argPath,
          "exactly 1 predicate argument is required, numArgs: "
              + (serviceAffinity == null ? 0 : 2)
              + ", predicate "
              + name);
    }
    String key = "PodFitsPorts".equals(name) ? "PodFitsHostPorts" : name;
    if (PolicyPlugins.PREDICATES.containsKey(key)) {
      return key;
    }
    if (argument == null) {
      unknown.add(child(path, "name") + ": predicate type not found for \"" + name + "\"");
      return null;
    }
    if (serviceAffinity != null) {
      args.serviceAffinity(
          strings(
              doc,
              lenientField(serviceAffinity, "labels"),
              child(child(argPath, "serviceAffinity"), "labels")));
      argsPaths.putIfAbsent(Names.SERVICE_AFFINITY, argPath);
      return "CheckServiceAffinity";
    }
    String lpPath = child(argPath, "labelsPresence");
    Boolean presence =
        doc.bool(lenientField(labelsPresence, "presence"), child(lpPath, "presence"));
    args.labelsPresence(
        strings(doc, lenientField(labelsPresence, "labels"), child(lpPath, "labels")),
        Boolean.TRUE.equals(presence));
    argsPaths.putIfAbsent(Names.NODE_LABEL, argPath);
    return "CheckNodeLabelPresence";
  }

  /**
   * ProcessPriorityPolicy: the registry key of the priority, or null (and a line in {@code
   * unknown}).
   */
  private static String priority(
      ConfigDocument doc,
      JsonNode item,
      String path,
      PolicyArgs args,
      Map<String, String> argsPaths,
      List<String> unknown) {
    JsonNode node = doc.object(item, path);
    String name = node == null ? null : doc.text(lenientField(node, "name"), child(path, "name"));
    if (name == null || name.isEmpty()) {
      throw doc.required(child(path, "name"));
    }
    String argPath = child(path, "argument");
    JsonNode argument = doc.object(lenientField(node, "argument"), argPath);
    String key = "ServiceSpreadingPriority".equals(name) ? "SelectorSpreadPriority" : name;
    if (PolicyPlugins.PRIORITIES.containsKey(key) || key.equals(EQUAL_PRIORITY)) {
      return key;
    }
    if (argument == null || PolicyValidation.customArguments(argument) == 0) {
      unknown.add(child(path, "name") + ": priority type not found for \"" + name + "\"");
      return null;
    }
    JsonNode anti = lenientField(argument, "serviceAntiAffinity");
    if (anti != null && !anti.isNull()) {
      String p = child(argPath, "serviceAntiAffinity");
      args.serviceAntiAffinity(label(doc, anti, p));
      argsPaths.putIfAbsent(Names.SERVICE_AFFINITY, argPath);
      return Names.SERVICE_AFFINITY;
    }
    JsonNode preference = lenientField(argument, "labelPreference");
    if (preference != null && !preference.isNull()) {
      String p = child(argPath, "labelPreference");
      args.labelPreference(
          label(doc, preference, p),
          Boolean.TRUE.equals(
              doc.bool(lenientField(preference, "presence"), child(p, "presence"))));
      argsPaths.putIfAbsent(Names.NODE_LABEL, argPath);
      return Names.NODE_LABEL;
    }
    String p = child(argPath, "requestedToCapacityRatioArguments");
    args.requestedToCapacityRatio(
        ratioStrategy(doc, lenientField(argument, "requestedToCapacityRatioArguments"), p));
    argsPaths.put(Names.NODE_RESOURCES_FIT, p);
    return "RequestedToCapacityRatio";
  }

  private static ObjectNode ratioStrategy(ConfigDocument doc, JsonNode arguments, String path) {
    ObjectNode strategy =
        JsonNodeFactory.instance
            .objectNode()
            .put("type", NodeResourcesFitArgs.REQUESTED_TO_CAPACITY_RATIO);
    List<JsonNode> resources =
        doc.list(lenientField(arguments, "resources"), child(path, "resources"));
    if (!resources.isEmpty()) {
      ArrayNode out = strategy.putArray("resources");
      for (int i = 0; i < resources.size(); i++) {
        String rp = index(child(path, "resources"), i);
        JsonNode r = resources.get(i);
        Long weight =
            doc.integer(lenientField(r, "weight"), child(rp, "weight"), 0, Integer.MAX_VALUE);
        out.addObject()
            .put("name", doc.text(lenientField(r, "name"), child(rp, "name")))
            .put("weight", weight == null ? 0 : weight.intValue());
      }
    }
    ArrayNode shape = strategy.putObject("requestedToCapacityRatio").putArray("shape");
    List<JsonNode> points = doc.list(lenientField(arguments, "shape"), child(path, "shape"));
    for (int i = 0; i < points.size(); i++) {
      String sp = index(child(path, "shape"), i);
      Long utilization =
          doc.integer(
              lenientField(points.get(i), "utilization"),
              child(sp, "utilization"),
              Integer.MIN_VALUE,
              Integer.MAX_VALUE);
      Long score =
          doc.integer(
              lenientField(points.get(i), "score"),
              child(sp, "score"),
              Integer.MIN_VALUE,
              Integer.MAX_VALUE);
      shape
          .addObject()
          .put("utilization", utilization == null ? 0 : utilization)
          .put("score", score == null ? 0 : score);
    }
    return strategy;
  }

  private static List<String> strings(ConfigDocument doc, JsonNode node, String path) {
    List<String> out = new ArrayList<>();
    List<JsonNode> items = doc.list(node, path);
    for (int i = 0; i < items.size(); i++) {
      out.add(doc.text(items.get(i), index(path, i)));
    }
    return out;
  }

  private static String label(ConfigDocument doc, JsonNode argument, String path) {
    String value = doc.text(lenientField(argument, "label"), child(path, "label"));
    if (value == null || value.isEmpty()) {
      throw doc.required(child(path, "label"));
    }
    return value;
  }

  private static List<String> knownPriorities() {
    Set<String> names = new TreeSet<>(PolicyPlugins.PRIORITIES.keySet());
    names.add(EQUAL_PRIORITY);
    names.add("ServiceSpreadingPriority");
    return List.copyOf(names);
  }
}
