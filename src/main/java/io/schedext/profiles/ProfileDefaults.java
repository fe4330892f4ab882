package io.schedext.profiles;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.exc.UnrecognizedPropertyException;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.schedext.framework.ExtensionPoint;
import io.schedext.framework.Profile;
import io.schedext.framework.Profile.PluginRef;
import io.schedext.framework.Profile.PluginSet;
import io.schedext.plugins.Names;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * Upstream's v1 profile defaults ({@code pkg/scheduler/apis/config/v1}): the default profile name
 * and plugin list ({@code getDefaultPlugins}), the merge of a profile's plugins onto it ({@code
 * mergePlugins}), and the defaulting of plugin args ({@code setDefaults_KubeSchedulerProfile}).
 * Plugin sets are keyed by their configuration name ({@code multiPoint}, {@code queueSort}, {@code
 * preFilter}, ...). Stateless.
 */
public final class ProfileDefaults {

  /** The profile name kube-scheduler uses by default. */
  public static final String NAME = "default-scheduler";

  /**
   * Upstream's default multiPoint list (KubeSchedulerConfiguration v1, current release: the in-tree
   * volume limit plugins are gone and the DynamicResourceAllocation gate is on), in upstream order,
   * with upstream weights. It names every plugin kube-scheduler enables by default, including those
   * an extender does not run (queue sort, scheduling gates).
   */
  static final List<PluginRef> PLUGINS =
      List.of(
          PluginRef.of(Names.SCHEDULING_GATES),
          PluginRef.of(Names.PRIORITY_SORT),
          PluginRef.of(Names.NODE_UNSCHEDULABLE),
          PluginRef.of(Names.NODE_NAME),
          new PluginRef(Names.TAINT_TOLERATION, 3),
          new PluginRef(Names.NODE_AFFINITY, 2),
          PluginRef.of(Names.NODE_PORTS),
          new PluginRef(Names.NODE_RESOURCES_FIT, 1),
          PluginRef.of(Names.VOLUME_RESTRICTIONS),
          PluginRef.of(Names.NODE_VOLUME_LIMITS),
          PluginRef.of(Names.VOLUME_BINDING),
          PluginRef.of(Names.VOLUME_ZONE),
          new PluginRef(Names.POD_TOPOLOGY_SPREAD, 2),
          new PluginRef(Names.INTER_POD_AFFINITY, 2),
          PluginRef.of(Names.DYNAMIC_RESOURCES),
          PluginRef.of(Names.DEFAULT_PREEMPTION),
          new PluginRef(Names.NODE_RESOURCES_BALANCED_ALLOCATION, 1),
          new PluginRef(Names.IMAGE_LOCALITY, 1),
          PluginRef.of(Names.DEFAULT_BINDER));

  /** The key of the multiPoint set. */
  static final String MULTI_POINT = "multiPoint";

  /** Every plugin set a v1 profile may configure, in upstream's field order. */
  static final List<String> SET_NAMES =
      List.of(
          MULTI_POINT,
          "preEnqueue",
          "queueSort",
          "preFilter",
          "filter",
          "postFilter",
          "preScore",
          "score",
          "reserve",
          "permit",
          "preBind",
          "bind",
          "postBind");

  /** Sets kube-scheduler runs before a pod reaches the extender; accepted and ignored. */
  static final Set<String> IGNORED_SETS = Set.of("preEnqueue", "queueSort");

  /**
   * Plugins kube-scheduler enables that the extender does not run: they work on kube-scheduler's
   * own queue. Accepted and dropped.
   */
  static final Set<String> NOT_RUN = Set.of(Names.SCHEDULING_GATES, Names.PRIORITY_SORT);

  /** Plugins v1 configurations may no longer name ({@code invalidPluginsByVersion}). */
  static final List<String> INVALID_IN_V1 =
      List.of("AzureDiskLimits", "CinderLimits", "EBSLimits", "GCEPDLimits");

  private static final PluginSet EMPTY = new PluginSet(List.of(), List.of());
  private static final ObjectMapper ARGS =
      JsonMapper.builder()
          .enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
          .serializationInclusion(JsonInclude.Include.NON_NULL)
          .build();

  private ProfileDefaults() {}

  /**
   * The default profile under {@code name} as a framework takes it, keeping only the plugins {@code
   * available} knows, without args (each plugin applies its own defaults): what the built-in
   * profile runs, for benchmarks and tests that build a framework without reading a configuration.
   */
  public static Profile profile(String name, Set<String> available) {
    return new Profile(
        name,
        PLUGINS.stream().filter(p -> available.contains(p.name())).toList(),
        Map.of(),
        Map.of());
  }

  /** Upstream's default plugins: only a multiPoint set. */
  static Map<String, PluginSet> defaultPlugins() {
    return Map.of(MULTI_POINT, new PluginSet(PLUGINS, List.of()));
  }

  /**
   * The configuration name of {@code point} ({@code PreFilter} is configured as {@code preFilter}).
   */
  static String setName(ExtensionPoint point) {
    String n = point.upstreamName();
    return Character.toLowerCase(n.charAt(0)) + n.substring(1);
  }

  /**
   * {@code custom} merged onto {@code defaults}, set by set; null {@code custom} leaves the
   * defaults as they are. Sets that end up with nothing enabled or disabled are left out.
   */
  static Map<String, PluginSet> merge(
      Map<String, PluginSet> defaults, Map<String, PluginSet> custom) {
    if (custom == null) {
      return defaults;
    }
    Map<String, PluginSet> out = new LinkedHashMap<>();
    for (String set : SET_NAMES) {
      PluginSet merged =
          mergeSet(defaults.getOrDefault(set, EMPTY), custom.getOrDefault(set, EMPTY));
      if (!merged.enabled().isEmpty() || !merged.disabled().isEmpty()) {
        out.put(set, merged);
      }
    }
    return out;
  }

  /**
   * One set merged as upstream's {@code mergePluginSet}: defaults stay in order unless disabled (or
   * all disabled by {@code "*"}); a default the custom set enables again is replaced in place by
   * the custom entry (its weight wins); every other custom entry is appended in its order,
   * duplicates included. Disabled lists are concatenated, custom first, so the framework can tell
   * which multiPoint plugins to leave out of each point.
   */
  static PluginSet mergeSet(PluginSet defaults, PluginSet custom) {
    List<String> disabled = new ArrayList<>(custom.disabled());
    disabled.addAll(defaults.disabled());
    Set<String> disabledNames = new HashSet<>(disabled);
    Map<String, Integer> customIndex = new HashMap<>();
    for (int i = 0; i < custom.enabled().size(); i++) {
      customIndex.put(custom.enabled().get(i).name(), i);
    }
    Set<Integer> replaced = new HashSet<>();
    List<PluginRef> enabled = new ArrayList<>();
    if (!disabledNames.contains("*")) {
      for (PluginRef d : defaults.enabled()) {
        if (disabledNames.contains(d.name())) {
          continue;
        }
        Integer i = customIndex.get(d.name());
        if (i != null) {
          replaced.add(i);
          enabled.add(custom.enabled().get(i));
        } else {
          enabled.add(d);
        }
      }
    }
    for (int i = 0; i < custom.enabled().size(); i++) {
      if (!replaced.contains(i)) {
        enabled.add(custom.enabled().get(i));
      }
    }
    return new PluginSet(enabled, disabled);
  }

  /**
   * {@code refs} without the plugins the extender does not run; their names are added to {@code
   * dropped}.
   */
  static List<PluginRef> withoutNotRun(List<PluginRef> refs, Set<String> dropped) {
    List<PluginRef> out = new ArrayList<>(refs.size());
    for (PluginRef r : refs) {
      if (NOT_RUN.contains(r.name())) {
        dropped.add(r.name());
      } else {
        out.add(r);
      }
    }
    return out;
  }

  /** The names enabled in any of {@code sets} (multiPoint included), in first-seen order. */
  static Set<String> enabledNames(Map<String, PluginSet> sets) {
    Set<String> out = new LinkedHashSet<>();
    sets.values().forEach(s -> s.enabled().forEach(r -> out.add(r.name())));
    return out;
  }

  /**
   * The effective args of a plugin: {@code given} (null = none) without its {@code kind} and {@code
   * apiVersion}, and, when the plugin registered an {@code argsType} (upstream's v1 args kinds;
   * null for none), decoded strictly into it, defaulted and encoded again, as kube-scheduler's
   * defaulting leaves them. Throws {@link ArgsException} when the args do not decode.
   */
  static JsonNode effectiveArgs(Class<?> argsType, JsonNode given) {
    JsonNode raw = given == null || given.isNull() ? ARGS.createObjectNode() : given.deepCopy();
    if (!raw.isObject()) {
      throw new ArgsException("", "Invalid value: " + raw + ": must be a mapping");
    }
    ((ObjectNode) raw).remove(List.of("kind", "apiVersion"));
    if (argsType == null) {
      return raw;
    }
    try {
      // Through text, so numbers come back as the smallest node type, as when the file was parsed.
      return ARGS.readTree(ARGS.writeValueAsString(ARGS.treeToValue(raw, argsType)));
    } catch (UnrecognizedPropertyException e) {
      Set<String> known = new TreeSet<>();
      e.getKnownPropertyIds().forEach(id -> known.add(String.valueOf(id)));
      throw new ArgsException(
          path(e), "unknown field; allowed fields: " + String.join(", ", known));
    } catch (JsonMappingException e) {
      throw new ArgsException(path(e), e.getOriginalMessage());
    } catch (Exception e) {
      throw new ArgsException("", e.getMessage());
    }
  }

  private static String path(JsonMappingException e) {
    StringBuilder b = new StringBuilder();
    for (JsonMappingException.Reference r : e.getPath()) {
      if (r.getFieldName() != null) {
        b.append('.').append(r.getFieldName());
      } else if (r.getIndex() >= 0) {
        b.append('[').append(r.getIndex()).append(']');
      }
    }
    return b.toString();
  }

  /**
   * Args that do not decode: {@code field} is the path inside the args ({@code
   * .scoringStrategy.type}), or empty.
   */
  static final class ArgsException extends IllegalArgumentException {

    private final String field;
    private final String detail;

    ArgsException(String field, String detail) {
      super(field + ": " + detail);
      this.field = field;
      this.detail = detail;
    }

    /**
     * The path inside the args, starting with a dot or a bracket; empty for the args themselves.
     */
    String field() {
      return field;
    }

    /** What is wrong. */
    String detail() {
      return detail;
    }
  }
}
