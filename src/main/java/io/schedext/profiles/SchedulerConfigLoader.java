package io.schedext.profiles;

import static io.schedext.profiles.ConfigDocument.child;
import static io.schedext.profiles.ConfigDocument.index;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import io.schedext.framework.ExtensionPoint;
import io.schedext.framework.Profile;
import io.schedext.framework.Profile.PluginRef;
import io.schedext.framework.Profile.PluginSet;
import io.schedext.framework.Registry;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reads a KubeSchedulerConfiguration file ({@code kubescheduler.config.k8s.io/v1}, or {@code
 * v1beta3}) into profiles the way kube-scheduler does: strict field names, the validation
 * kube-scheduler applies to profiles, every profile's plugins merged onto upstream's defaults
 * ({@link ProfileDefaults}) and plugin args defaulted. Plugins that are kube-scheduler's own (queue
 * sort, scheduling gates) are accepted and dropped; other top-level settings are accepted and
 * ignored. Thread-safe.
 */
final class SchedulerConfigLoader {

  private static final Logger log = LoggerFactory.getLogger(SchedulerConfigLoader.class);

  static final String V1 = "kubescheduler.config.k8s.io/v1";
  static final String V1BETA3 = "kubescheduler.config.k8s.io/v1beta3";
  static final String KIND = "KubeSchedulerConfiguration";

  private static final List<String> TOP_LEVEL_FIELDS =
      List.of(
          "apiVersion",
          "kind",
          "parallelism",
          "leaderElection",
          "clientConnection",
          "healthzBindAddress",
          "metricsBindAddress",
          "enableProfiling",
          "enableContentionProfiling",
          "percentageOfNodesToScore",
          "podInitialBackoffSeconds",
          "podMaxBackoffSeconds",
          "profiles",
          "extenders",
          "delayCacheUntilActive");
  private static final Set<String> READ_FIELDS =
      Set.of("apiVersion", "kind", "profiles", "percentageOfNodesToScore");
  private static final List<String> PROFILE_FIELDS =
      List.of("schedulerName", "percentageOfNodesToScore", "plugins", "pluginConfig");
  private static final List<String> SET_FIELDS = List.of("enabled", "disabled");
  private static final List<String> PLUGIN_FIELDS = List.of("name", "weight");
  private static final List<String> PLUGIN_CONFIG_FIELDS = List.of("name", "args");

  private final Registry registry;
  private final List<String> registered;

  /**
   * A loader accepting the plugins of {@code registry} and defaulting their args by their
   * registered types.
   */
  SchedulerConfigLoader(Registry registry) {
    this.registry = registry;
    this.registered = List.copyOf(registry.names());
  }

  /**
   * Reads and validates the file at {@code location}; throws {@link ConfigFileException} when it is
   * unusable.
   */
  KubeSchedulerConfiguration load(String location) {
    return load(ConfigDocument.read(location));
  }

  /**
   * The built-in profile: upstream's defaults under {@code name}, args defaulted by {@code
   * registry}'s types.
   */
  static KubeSchedulerConfiguration builtIn(String name, Registry registry) {
    Profile p =
        assemble(
            "the built-in default profile",
            name,
            "",
            ProfileDefaults.defaultPlugins(),
            Map.of(),
            Map.of(),
            registry);
    return new KubeSchedulerConfiguration(
        "built-in default profile (upstream's v1 defaults)", List.of(p), Map.of(), false, null);
  }

  /** Validates and defaults the profiles of an already parsed file. */
  KubeSchedulerConfiguration load(ConfigDocument doc) {
    JsonNode root = doc.root();
    String kind = doc.text(root.get("kind"), "kind");
    if ("Policy".equals(kind)) {
      throw doc.error("kind", "this is a legacy Policy; give it as extender.policy.file");
    }
    if (!KIND.equals(kind)) {
      throw kind == null ? doc.required("kind") : doc.unsupported("kind", kind, List.of(KIND));
    }
    String apiVersion = doc.text(root.get("apiVersion"), "apiVersion");
    if (apiVersion == null) {
      throw doc.required("apiVersion");
    }
    if (!V1.equals(apiVersion) && !V1BETA3.equals(apiVersion)) {
      throw doc.unsupported("apiVersion", apiVersion, List.of(V1, V1BETA3));
    }
    doc.onlyFields(root, "", TOP_LEVEL_FIELDS);
    Long percentage =
        doc.integer(root.get("percentageOfNodesToScore"), "percentageOfNodesToScore", 0, 100);
    logIgnoredSettings(doc);
    List<JsonNode> items = doc.list(root.get("profiles"), "profiles");
    if (items.isEmpty()) {
      items = List.of(JsonNodeFactory.instance.objectNode());
    }
    List<Profile> profiles = new ArrayList<>();
    Map<String, FieldPaths> fieldPaths = new HashMap<>();
    Map<String, String> names = new HashMap<>();
    for (int i = 0; i < items.size(); i++) {
      String path = index("profiles", i);
      JsonNode node = doc.object(items.get(i), path);
      if (node == null) {
        throw doc.invalid(path, "null", "must be a mapping");
      }
      String name = doc.text(node.get("schedulerName"), child(path, "schedulerName"));
      if (name == null && items.size() == 1) {
        name = ProfileDefaults.NAME;
      }
      if (name == null || name.isEmpty()) {
        throw doc.required(child(path, "schedulerName"));
      }
      if (names.putIfAbsent(name, path) != null) {
        throw doc.error(
            child(path, "schedulerName"),
            "Duplicate value: \""
                + name
                + "\" (also "
                + child(names.get(name), "schedulerName")
                + ")");
      }
      profiles.add(profile(doc, apiVersion, node, path, name, fieldPaths));
    }
    return new KubeSchedulerConfiguration(
        doc.source(),
        profiles,
        fieldPaths,
        false,
        percentage == null ? null : percentage.intValue());
  }

  /**
   * The profile {@code name} of the mapping {@code node} at {@code path}; its field paths go to
   * {@code fieldPaths}.
   */
  private Profile profile(
      ConfigDocument doc,
      String apiVersion,
      JsonNode node,
      String path,
      String name,
      Map<String, FieldPaths> fieldPaths) {
    doc.onlyFields(node, path, PROFILE_FIELDS);
    if (doc.integer(
            node.get("percentageOfNodesToScore"), child(path, "percentageOfNodesToScore"), 0, 100)
        != null) {
      log.info(
          "{}: {}.percentageOfNodesToScore is recorded only: the extender answers for every node it is asked "
              + "about",
          doc.source(),
          path);
    }
    Map<ExtensionPoint, Map<String, String>> enabledPaths = new EnumMap<>(ExtensionPoint.class);
    Map<String, PluginSet> custom =
        plugins(doc, apiVersion, node.get("plugins"), child(path, "plugins"), enabledPaths);
    Map<String, JsonNode> args = new LinkedHashMap<>();
    Map<String, String> argsPaths = new HashMap<>();
    List<JsonNode> configs = doc.list(node.get("pluginConfig"), child(path, "pluginConfig"));
    for (int i = 0; i < configs.size(); i++) {
      String entryPath = index(child(path, "pluginConfig"), i);
      JsonNode entry = doc.object(configs.get(i), entryPath);
      if (entry == null) {
        throw doc.invalid(entryPath, "null", "must be a mapping");
      }
      doc.onlyFields(entry, entryPath, PLUGIN_CONFIG_FIELDS);
      String plugin = doc.text(entry.get("name"), child(entryPath, "name"));
      if (plugin == null || plugin.isEmpty()) {
        throw doc.required(child(entryPath, "name"));
      }
      if (argsPaths.containsKey(plugin)) {
        throw doc.duplicate(entryPath, plugin);
      }
      rejectInvalidInV1(doc, entryPath, plugin, apiVersion);
      argsPaths.put(plugin, child(entryPath, "args"));
      args.put(plugin, entry.get("args"));
    }
    Map<String, PluginSet> merged = ProfileDefaults.merge(ProfileDefaults.defaultPlugins(), custom);
    fieldPaths.put(name, new FieldPaths(path, argsPaths, enabledPaths));
    return assemble(doc.source(), name, path, merged, args, argsPaths, registry);
  }

  private Map<String, PluginSet> plugins(
      ConfigDocument doc,
      String apiVersion,
      JsonNode node,
      String path,
      Map<ExtensionPoint, Map<String, String>> enabledPaths) {
    JsonNode sets = doc.object(node, path);
    if (sets == null) {
      return null;
    }
    Map<String, PluginSet> custom = new LinkedHashMap<>();
    for (Iterator<Map.Entry<String, JsonNode>> it = sets.fields(); it.hasNext(); ) {
      Map.Entry<String, JsonNode> e = it.next();
      String set = e.getKey();
      String setPath = child(path, set);
      if (!ProfileDefaults.SET_NAMES.contains(set)) {
        throw doc.error(
            setPath,
            "unknown extension point; supported values: "
                + String.join(", ", ProfileDefaults.SET_NAMES));
      }
      boolean ignored = ProfileDefaults.IGNORED_SETS.contains(set);
      Map<String, String> paths = new HashMap<>();
      PluginSet ps = pluginSet(doc, apiVersion, e.getValue(), setPath, !ignored, paths);
      if (ignored) {
        if (!ps.enabled().isEmpty() || !ps.disabled().isEmpty()) {
          log.info(
              "{}: ignoring {}: kube-scheduler runs it before the extender is called",
              doc.source(),
              setPath);
        }
        continue;
      }
      custom.put(set, ps);
      ExtensionPoint point = ExtensionPoint.byName(set);
      if (point != null) {
        enabledPaths.put(point, paths);
      }
    }
    return custom;
  }

  private PluginSet pluginSet(
      ConfigDocument doc,
      String apiVersion,
      JsonNode node,
      String path,
      boolean check,
      Map<String, String> enabledPaths) {
    JsonNode set = doc.object(node, path);
    if (set == null) {
      return new PluginSet(null, null);
    }
    doc.onlyFields(set, path, SET_FIELDS);
    List<PluginRef> enabled = new ArrayList<>();
    List<JsonNode> items = doc.list(set.get("enabled"), child(path, "enabled"));
    for (int i = 0; i < items.size(); i++) {
      String entryPath = index(child(path, "enabled"), i);
      PluginRef ref = plugin(doc, items.get(i), entryPath);
      if (check) {
        rejectInvalidInV1(doc, entryPath, ref.name(), apiVersion);
        if (!registered.contains(ref.name()) && !ProfileDefaults.NOT_RUN.contains(ref.name())) {
          throw doc.unsupported(child(entryPath, "name"), ref.name(), registered);
        }
        if (enabledPaths.putIfAbsent(ref.name(), entryPath) != null) {
          throw doc.duplicate(entryPath, ref.name());
        }
      }
      enabled.add(ref);
    }
    List<String> disabled = new ArrayList<>();
    List<JsonNode> off = doc.list(set.get("disabled"), child(path, "disabled"));
    for (int i = 0; i < off.size(); i++) {
      disabled.add(plugin(doc, off.get(i), index(child(path, "disabled"), i)).name());
    }
    return new PluginSet(enabled, disabled);
  }

  private static PluginRef plugin(ConfigDocument doc, JsonNode node, String path) {
    JsonNode entry = doc.object(node, path);
    if (entry == null) {
      throw doc.invalid(path, "null", "must be a mapping with a name");
    }
    doc.onlyFields(entry, path, PLUGIN_FIELDS);
    String name = doc.text(entry.get("name"), child(path, "name"));
    if (name == null || name.isEmpty()) {
      throw doc.required(child(path, "name"));
    }
    Long weight = doc.integer(entry.get("weight"), child(path, "weight"), 0, Integer.MAX_VALUE);
    return new PluginRef(name, weight == null ? 0 : weight.intValue());
  }

  private static void rejectInvalidInV1(
      ConfigDocument doc, String path, String plugin, String apiVersion) {
    if (ProfileDefaults.INVALID_IN_V1.contains(plugin)) {
      throw doc.invalid(
          path,
          plugin,
          "was invalid in version \""
              + V1
              + "\" (KubeSchedulerConfiguration is version \""
              + apiVersion
              + "\")");
    }
  }

  private static void logIgnoredSettings(ConfigDocument doc) {
    List<String> ignored = new ArrayList<>();
    doc.root()
        .fieldNames()
        .forEachRemaining(
            f -> {
              if (!READ_FIELDS.contains(f)) {
                ignored.add(f);
              }
            });
    if (!ignored.isEmpty()) {
      log.info(
          "{}: ignoring {}: kube-scheduler settings the extender does not use",
          doc.source(),
          ignored);
    }
    if (doc.root().has("percentageOfNodesToScore")) {
      log.info(
          "{}: percentageOfNodesToScore is recorded only: the extender answers for every node it is asked about",
          doc.source());
    }
  }

  /**
   * The profile {@code name} from merged plugin sets and the given args: the plugins the extender
   * does not run are dropped, args of plugins the profile does not enable are dropped, and every
   * enabled plugin with an args type in {@code registry} gets its effective (defaulted) args.
   * Errors name {@code source} and the args' field path.
   */
  static Profile assemble(
      String source,
      String name,
      String path,
      Map<String, PluginSet> merged,
      Map<String, JsonNode> given,
      Map<String, String> argsPaths,
      Registry registry) {
    Set<String> dropped = new TreeSet<>();
    Map<String, PluginSet> kept = new LinkedHashMap<>();
    merged.forEach(
        (set, ps) -> {
          if (!ProfileDefaults.IGNORED_SETS.contains(set)) {
            kept.put(
                set,
                new PluginSet(ProfileDefaults.withoutNotRun(ps.enabled(), dropped), ps.disabled()));
          }
        });
    if (!dropped.isEmpty()) {
      log.info(
          "{}: profile \"{}\": not running {}: kube-scheduler's own queue plugins",
          source,
          name,
          dropped);
    }
    Set<String> enabled = ProfileDefaults.enabledNames(kept);
    Map<String, JsonNode> args = new LinkedHashMap<>();
    given.forEach(
        (plugin, raw) -> {
          if (enabled.contains(plugin)) {
            args.put(
                plugin,
                effectiveArgs(
                    source,
                    registry.argsType(plugin),
                    raw,
                    argsPaths.getOrDefault(plugin, child(path, "args"))));
          } else {
            log.info(
                "{}: profile \"{}\": ignoring the args of {}, which the profile does not run",
                source,
                name,
                plugin);
          }
        });
    for (String plugin : enabled) {
      Class<?> argsType = registry.argsType(plugin);
      if (!args.containsKey(plugin) && argsType != null) {
        args.put(plugin, effectiveArgs(source, argsType, null, child(path, "pluginConfig")));
      }
    }
    Map<ExtensionPoint, PluginSet> points = new EnumMap<>(ExtensionPoint.class);
    for (ExtensionPoint p : ExtensionPoint.values()) {
      PluginSet s = kept.get(ProfileDefaults.setName(p));
      if (s != null) {
        points.put(p, s);
      }
    }
    PluginSet multi = kept.getOrDefault(ProfileDefaults.MULTI_POINT, new PluginSet(null, null));
    return new Profile(name, multi.enabled(), points, args);
  }

  private static JsonNode effectiveArgs(
      String source, Class<?> argsType, JsonNode raw, String argsPath) {
    try {
      return ProfileDefaults.effectiveArgs(argsType, raw);
    } catch (ProfileDefaults.ArgsException e) {
      throw new ConfigFileException(source + ": " + argsPath + e.field() + ": " + e.detail(), e);
    }
  }
}
