package io.schedext.deployment;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;

/**
 * Reads the YAML under deployment/: every document as a typed fabric8 object (unknown kinds and
 * unknown fields are errors), kustomizations resolved the way kustomize resolves plain {@code
 * resources} lists, and the KubeSchedulerConfiguration documents and Prometheus's own files kept
 * apart (they are the programs' files, not cluster objects).
 */
final class Manifests {

  static final Path ROOT = Path.of("deployment");
  static final String KUSTOMIZATION = "kustomization.yaml";

  /**
   * The only kustomization keys the loader understands; anything else (patches, generators) would
   * make it lie.
   */
  static final Set<String> KUSTOMIZATION_KEYS = Set.of("apiVersion", "kind", "resources", "images");

  private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());
  private static final KubernetesSerialization KUBE = new KubernetesSerialization();

  /**
   * One YAML document.
   *
   * @param file where it is
   * @param tree the document as a tree
   */
  record Document(Path file, JsonNode tree) {
    String kind() {
      return tree.path("kind").asText();
    }

    String apiVersion() {
      return tree.path("apiVersion").asText();
    }

    boolean isKustomization() {
      return apiVersion().startsWith("kustomize.config.k8s.io/");
    }

    boolean isSchedulerConfiguration() {
      return apiVersion().startsWith("kubescheduler.config.k8s.io/");
    }

    /** An object of the Prometheus Operator's (its CRDs are not in fabric8's model). */
    boolean isPrometheusOperatorObject() {
      return apiVersion().startsWith("monitoring.coreos.com/");
    }

    /**
     * One of Prometheus's own files (rules, their promtool tests, a scrape job): no apiVersion, not
     * a cluster object.
     */
    boolean isPrometheusFile() {
      return !tree.has("apiVersion")
          && (tree.has("groups") || tree.has("tests") || tree.has("scrape_configs"));
    }
  }

  private Manifests() {}

  /** Every .yaml/.yml file under deployment/, sorted. */
  static List<Path> yamlFiles() {
    try (Stream<Path> s = Files.walk(ROOT)) {
      return s.filter(p -> p.toString().endsWith(".yaml") || p.toString().endsWith(".yml"))
          .sorted()
          .toList();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** The non-empty documents of one file. */
  static List<Document> documents(Path file) {
    try (var parser = YAML.getFactory().createParser(file.toFile())) {
      List<Document> out = new ArrayList<>();
      for (var it = YAML.readValues(parser, JsonNode.class); it.hasNext(); ) {
        JsonNode n = it.next();
        if (n != null && !n.isNull() && !n.isMissingNode()) {
          out.add(new Document(file, n));
        }
      }
      return out;
    } catch (IOException e) {
      throw new UncheckedIOException(file + ": " + e.getMessage(), e);
    }
  }

  /**
   * A Kubernetes object as its fabric8 type; fails on a kind fabric8 does not know and on any
   * unknown field.
   */
  static HasMetadata typed(Document d) {
    Class<?> type = KUBE.getRegisteredKubernetesResource(d.apiVersion(), d.kind());
    if (type == null) {
      throw new AssertionError(d.file() + ": unknown kind " + d.apiVersion() + "/" + d.kind());
    }
    HasMetadata obj = KUBE.unmarshal(d.tree().toString(), HasMetadata.class);
    if (obj instanceof GenericKubernetesResource) {
      throw new AssertionError(d.file() + ": " + d.kind() + " decoded as a generic resource");
    }
    List<String> unknown = new ArrayList<>();
    unknownFields(obj, d.kind(), unknown);
    if (!unknown.isEmpty()) {
      throw new AssertionError(d.file() + ": unknown fields (typos?) " + unknown);
    }
    return obj;
  }

  /**
   * Collects every non-empty {@code additionalProperties} in the object graph: fields fabric8's
   * model lacks.
   */
  private static void unknownFields(Object o, String path, List<String> out) {
    if (o == null || !o.getClass().getName().startsWith("io.fabric8.kubernetes.api.model")) {
      if (o instanceof Collection<?> c) {
        int i = 0;
        for (Object e : c) {
          unknownFields(e, path + "[" + i++ + "]", out);
        }
      } else if (o instanceof Map<?, ?> m) {
        m.forEach((k, v) -> unknownFields(v, path + "." + k, out));
      }
      return;
    }
    for (Method m : o.getClass().getMethods()) {
      if (m.getParameterCount() != 0
          || Modifier.isStatic(m.getModifiers())
          || !m.getName().startsWith("get")
          || m.getDeclaringClass() == Object.class) {
        continue;
      }
      Object v;
      try {
        v = m.invoke(o);
      } catch (ReflectiveOperationException e) {
        throw new IllegalStateException(e);
      }
      if (m.getName().equals("getAdditionalProperties")) {
        if (v instanceof Map<?, ?> extra && !extra.isEmpty()) {
          out.add(path + ": " + extra.keySet());
        }
      } else {
        unknownFields(v, path + "." + m.getName().substring(3), out);
      }
    }
  }

  /**
   * The documents a kustomization directory renders to, following {@code resources} (files and
   * directories with their own kustomization) as kustomize does; fails on kustomization features
   * the loader does not apply.
   */
  static List<Document> render(Path dir) {
    List<Document> out = new ArrayList<>();
    render(dir.normalize(), out, new LinkedHashSet<>());
    return out;
  }

  private static void render(Path dir, List<Document> out, Set<Path> seen) {
    if (!seen.add(dir)) {
      throw new AssertionError(dir + " is included twice");
    }
    Path k = dir.resolve(KUSTOMIZATION);
    List<Document> docs = documents(k);
    if (docs.size() != 1 || !docs.get(0).isKustomization()) {
      throw new AssertionError(k + ": expected one Kustomization");
    }
    JsonNode tree = docs.get(0).tree();
    tree.fieldNames()
        .forEachRemaining(
            f -> {
              if (!KUSTOMIZATION_KEYS.contains(f)) {
                throw new AssertionError(
                    k
                        + ": '"
                        + f
                        + "' is not applied by this test's loader; extend Manifests first");
              }
            });
    for (JsonNode r : tree.path("resources")) {
      Path p = dir.resolve(r.asText()).normalize();
      if (Files.isDirectory(p)) {
        render(p, out, seen);
      } else if (Files.isRegularFile(p)) {
        out.addAll(documents(p));
      } else {
        throw new AssertionError(k + ": resource " + r.asText() + " does not exist");
      }
    }
  }

  /** Every file a kustomization under {@code ROOT} lists, directly or through a directory. */
  static Set<Path> filesUsedByKustomizations() {
    Set<Path> used = new LinkedHashSet<>();
    for (Path f : yamlFiles()) {
      if (f.getFileName().toString().equals(KUSTOMIZATION)) {
        used.add(f.normalize());
        render(f.getParent()).forEach(d -> used.add(d.file().normalize()));
      }
    }
    return used;
  }
}
