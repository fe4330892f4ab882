package io.schedext.profiles;

import static io.schedext.profiles.ConfigDocument.child;

import com.fasterxml.jackson.databind.JsonNode;
import io.schedext.framework.ExtensionPoint;
import io.schedext.framework.FrameworkException;
import io.schedext.framework.Plugin;
import io.schedext.framework.Profile;
import io.schedext.framework.Profile.PluginRef;
import io.schedext.framework.Profile.PluginSet;
import io.schedext.framework.Registry;
import io.schedext.framework.runtime.Framework;
import io.schedext.framework.runtime.FrameworkServices;
import io.schedext.framework.runtime.Frameworks;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Builds the frameworks the extender serves, one per profile: picks the profile source (a
 * KubeSchedulerConfiguration file, a legacy Policy file, or the built-in default), reads it, and
 * instantiates every profile's plugins from the registry (upstream's {@code profile.NewMap}). Every
 * plugin is first created on its own, so that args a plugin rejects, or a plugin enabled at a point
 * it does not implement, fail start-up with the field path. Stateless.
 */
public final class FrameworkBuilder {

  private static final Logger log = LoggerFactory.getLogger(FrameworkBuilder.class);

  private FrameworkBuilder() {}

  /**
   * The frameworks of the profiles of {@code configFile}, else of the profile translated from
   * {@code policyFile}, else of the built-in default profile, with plugins from {@code registry};
   * empty strings mean "not set". {@code defaultProfile} names the profile serving {@code
   * /scheduler/*} (empty: the first), and without a configuration file also the one profile ({@code
   * default-scheduler} when empty). Throws {@link ConfigFileException}, naming the file and field,
   * when a file or a profile cannot be used.
   */
  public static Frameworks build(
      String configFile,
      String policyFile,
      String defaultProfile,
      Registry registry,
      FrameworkServices services) {
    return build(
        configuration(configFile, policyFile, defaultProfile, registry),
        registry,
        services,
        defaultProfile,
        true);
  }

  /**
   * As {@link #build(String, String, String, Registry, FrameworkServices)}, as often as the
   * returned supplier is asked: the files are read, checked and reported once, here, and every
   * build after is silent (private instances of every profile, made again and again). Throws as
   * {@code build} does.
   */
  public static Supplier<Frameworks> repeatable(
      String configFile,
      String policyFile,
      String defaultProfile,
      Registry registry,
      FrameworkServices services) {
    KubeSchedulerConfiguration configured =
        configuration(configFile, policyFile, defaultProfile, registry);
    Frameworks first = build(configured, registry, services, defaultProfile, true);
    AtomicBoolean firstTaken = new AtomicBoolean();
    return () ->
        firstTaken.compareAndSet(false, true)
            ? first
            : build(configured, registry, services, defaultProfile, false);
  }

  /**
   * The configured profiles: from {@code configFile}, else translated from {@code policyFile} (into
   * the profile {@code defaultProfile}, or {@code default-scheduler}), else the built-in default
   * under that name. Setting both files is an error. Empty strings mean "not set".
   */
  static KubeSchedulerConfiguration configuration(
      String configFile, String policyFile, String defaultProfile, Registry registry) {
    boolean config = !configFile.isBlank();
    boolean policy = !policyFile.isBlank();
    if (config && policy) {
      throw new ConfigFileException(
          "extender.config.file ("
              + configFile
              + ") and extender.policy.file ("
              + policyFile
              + ") are both set; a Policy translates into a profile, so give one of them");
    }
    if (config) {
      return new SchedulerConfigLoader(registry).load(configFile);
    }
    String name = defaultProfile.isBlank() ? ProfileDefaults.NAME : defaultProfile;
    return policy
        ? new PolicyTranslator(registry).translate(policyFile, name)
        : SchedulerConfigLoader.builtIn(name, registry);
  }

  /**
   * One framework per profile; {@code defaultProfile} (empty = the first profile) serves {@code
   * /scheduler/*}. Throws {@link ConfigFileException} naming the file and field when a profile
   * cannot be built.
   */
  static Frameworks build(
      KubeSchedulerConfiguration configured,
      Registry registry,
      FrameworkServices services,
      String defaultProfile,
      boolean report) {
    Map<String, Framework> byName = new LinkedHashMap<>();
    for (Profile p : configured.profiles()) {
      FieldPaths paths = configured.fieldPaths(p.name());
      Profile profile =
          probe(configured.source(), p, paths, configured.translated(), report, registry, services);
      try {
        byName.put(p.name(), Framework.create(profile, registry, services));
      } catch (FrameworkException e) {
        throw new ConfigFileException(
            configured.source() + ": " + prefix(paths.profile()) + e.getMessage(), e);
      }
    }
    String defaultName =
        defaultProfile.isBlank() ? configured.profiles().get(0).name() : defaultProfile;
    if (!byName.containsKey(defaultName)) {
      throw new ConfigFileException(
          "extender.scheduling.default-profile: Unsupported value: \""
              + defaultName
              + "\": supported values: "
              + String.join(", ", byName.keySet().stream().map(n -> "\"" + n + "\"").toList())
              + " (the profiles of "
              + configured.source()
              + ")");
    }
    if (report) {
      log.info(
          "profiles {} from {}; /scheduler/* serves {}",
          byName.keySet(),
          configured.source(),
          defaultName);
    }
    return new Frameworks(byName, defaultName);
  }

  /**
   * Creates every plugin of {@code p} on its own, failing with the field path of a plugin that
   * rejects its args or is enabled at a point it does not implement; returns the profile, without
   * such entries when it is translated (logged when {@code report}).
   */
  private static Profile probe(
      String source,
      Profile p,
      FieldPaths paths,
      boolean translated,
      boolean report,
      Registry registry,
      FrameworkServices services) {
    Set<String> needed = new LinkedHashSet<>();
    p.multiPoint().forEach(r -> needed.add(r.name()));
    p.points().values().forEach(s -> s.enabled().forEach(r -> needed.add(r.name())));
    Map<String, Plugin> instances = new LinkedHashMap<>();
    for (String name : needed) {
      try {
        instances.put(name, alone(name, p.pluginArgs().get(name), registry, services));
      } catch (FrameworkException e) {
        String where =
            paths.args().containsKey(name)
                ? paths.args().get(name) + ": "
                : prefix(child(paths.profile(), "pluginConfig")) + "plugin " + name + ": ";
        throw new ConfigFileException(source + ": " + where + e.getMessage(), e);
      }
    }
    Map<ExtensionPoint, PluginSet> points = new EnumMap<>(ExtensionPoint.class);
    for (ExtensionPoint point : ExtensionPoint.values()) {
      PluginSet set = p.points().get(point);
      if (set == null) {
        continue;
      }
      List<PluginRef> kept = new ArrayList<>();
      for (PluginRef r : set.enabled()) {
        if (point.pluginType().isInstance(instances.get(r.name()))) {
          kept.add(r);
        } else if (translated) {
          if (report) {
            log.info(
                "{}: {} does not run at {} in the extender; left out there",
                source,
                r.name(),
                point);
          }
        } else {
          String where =
              paths
                  .enabled()
                  .getOrDefault(point, Map.of())
                  .getOrDefault(
                      r.name(),
                      child(paths.profile(), "plugins." + ProfileDefaults.setName(point)));
          throw new ConfigFileException(
              source
                  + ": "
                  + where
                  + ": Invalid value: \""
                  + r.name()
                  + "\": the plugin does not implement "
                  + point.upstreamName()
                  + "; plugins that do: "
                  + String.join(", ", implementing(point, registry, services)));
        }
      }
      points.put(point, new PluginSet(kept, set.disabled()));
    }
    return new Profile(p.name(), p.multiPoint(), points, p.pluginArgs(), p.notEvaluated());
  }

  private static Plugin alone(
      String name, JsonNode args, Registry registry, FrameworkServices services) {
    Profile one =
        new Profile(
            "probe", List.of(PluginRef.of(name)), null, args == null ? null : Map.of(name, args));
    return Framework.create(one, registry, services).plugins().get(name);
  }

  /** The registered plugins implementing {@code point} (only computed for an error message). */
  private static List<String> implementing(
      ExtensionPoint point, Registry registry, FrameworkServices services) {
    List<String> out = new ArrayList<>();
    for (String name : registry.names()) {
      try {
        if (point.pluginType().isInstance(alone(name, null, registry, services))) {
          out.add(name);
        }
      } catch (RuntimeException e) {
        // A plugin that cannot be created without args is not a useful suggestion.
      }
    }
    return out;
  }

  private static String prefix(String path) {
    return path.isEmpty() ? "" : path + ": ";
  }
}
