package io.schedext.profiles;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * One parsed YAML or JSON configuration file and typed reads of its fields. Every failed read is a
 * {@link ConfigFileException} worded as apimachinery's field errors ({@code <file>: <path>: Invalid
 * value: ...}). Field names match exactly, as kube-scheduler's strict decoder does, unless a read
 * says otherwise. Immutable.
 */
final class ConfigDocument {

  private static final String CLASSPATH = "classpath:";
  private static final ObjectMapper YAML = new YAMLMapper();
  private static final ObjectMapper JSON = JsonMapper.builder().build();

  private final String source;
  private final JsonNode root;

  private ConfigDocument(String source, JsonNode root) {
    this.source = source;
    this.root = root;
  }

  /** Reads the file at {@code location} (a path, or {@code classpath:} and a resource name). */
  static ConfigDocument read(String location) {
    String text;
    try {
      if (location.startsWith(CLASSPATH)) {
        String resource = location.substring(CLASSPATH.length()).replaceFirst("^/", "");
        try (InputStream in = ConfigDocument.class.getClassLoader().getResourceAsStream(resource)) {
          if (in == null) {
            throw new IOException("no such classpath resource");
          }
          text = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
      } else {
        text = Files.readString(Path.of(location));
      }
    } catch (NoSuchFileException e) {
      throw new ConfigFileException("cannot read " + location + ": no such file", e);
    } catch (IOException e) {
      throw new ConfigFileException("cannot read " + location + ": " + e.getMessage(), e);
    }
    return parse(location, text);
  }

  /**
   * Parses {@code text} (JSON when it starts with a brace, YAML otherwise); {@code source} names it
   * in errors.
   */
  static ConfigDocument parse(String source, String text) {
    JsonNode root;
    try {
      root = text.stripLeading().startsWith("{") ? JSON.readTree(text) : YAML.readTree(text);
    } catch (JsonProcessingException e) {
      // The YAML parser draws carets under a quoted line; keep its words only, on one line.
      String detail =
          e.getOriginalMessage()
              .lines()
              .map(String::strip)
              .filter(l -> !l.isEmpty() && !l.equals("^"))
              .collect(Collectors.joining(" "));
      throw new ConfigFileException(source + ": not valid YAML or JSON: " + detail, e);
    }
    if (root == null || root.isMissingNode() || root.isNull()) {
      throw new ConfigFileException(source + ": the file is empty");
    }
    if (!root.isObject()) {
      throw new ConfigFileException(
          source
              + ": the file must hold one mapping (apiVersion, kind, ...), not a "
              + root.getNodeType().name().toLowerCase());
    }
    return new ConfigDocument(source, root);
  }

  /** The file name as given, for messages. */
  String source() {
    return source;
  }

  /** The top-level mapping. */
  JsonNode root() {
    return root;
  }

  /** {@code path.field}, or {@code field} at the top level. */
  static String child(String path, String field) {
    return path.isEmpty() ? field : path + "." + field;
  }

  /** {@code path[i]}. */
  static String index(String path, int i) {
    return path + "[" + i + "]";
  }

  /** An error at {@code path} with a free-form detail. */
  ConfigFileException error(String path, String detail) {
    return new ConfigFileException(source + ": " + (path.isEmpty() ? "" : path + ": ") + detail);
  }

  /** apimachinery's {@code Required value}. */
  ConfigFileException required(String path) {
    return error(path, "Required value");
  }

  /** apimachinery's {@code Invalid value: <value>: <detail>}. */
  ConfigFileException invalid(String path, Object value, String detail) {
    return error(path, "Invalid value: " + render(value) + ": " + detail);
  }

  /** apimachinery's {@code Unsupported value: "<value>": supported values: "a", "b"}. */
  ConfigFileException unsupported(String path, String value, Collection<String> allowed) {
    return error(
        path, "Unsupported value: " + render(value) + ": supported values: " + quoted(allowed));
  }

  /** apimachinery's {@code Duplicate value: "<value>"}. */
  ConfigFileException duplicate(String path, String value) {
    return error(path, "Duplicate value: " + render(value));
  }

  /**
   * Fails on the first field of {@code object} that is not in {@code allowed} (a strict decoding
   * error).
   */
  void onlyFields(JsonNode object, String path, Collection<String> allowed) {
    Iterator<String> names = object.fieldNames();
    while (names.hasNext()) {
      String name = names.next();
      if (!allowed.contains(name)) {
        throw error(
            child(path, name), "unknown field; allowed fields: " + String.join(", ", allowed));
      }
    }
  }

  /** The mapping at {@code path}; null when absent or null. */
  JsonNode object(JsonNode node, String path) {
    if (node == null || node.isNull()) {
      return null;
    }
    if (!node.isObject()) {
      throw invalid(path, node, "must be a mapping");
    }
    return node;
  }

  /** The list at {@code path}; empty when absent or null. */
  List<JsonNode> list(JsonNode node, String path) {
    if (node == null || node.isNull()) {
      return List.of();
    }
    if (!node.isArray()) {
      throw invalid(path, node, "must be a list");
    }
    List<JsonNode> out = new ArrayList<>();
    node.forEach(out::add);
    return out;
  }

  /** The string at {@code path}; null when absent or null. */
  String text(JsonNode node, String path) {
    if (node == null || node.isNull()) {
      return null;
    }
    if (!node.isTextual()) {
      throw invalid(path, node, "must be a string");
    }
    return node.asText();
  }

  /** The integer at {@code path} within [min, max]; null when absent or null. */
  Long integer(JsonNode node, String path, long min, long max) {
    if (node == null || node.isNull()) {
      return null;
    }
    if (!node.isIntegralNumber() || !node.canConvertToLong()) {
      throw invalid(path, node, "must be an integer");
    }
    long v = node.asLong();
    if (v < min || v > max) {
      throw invalid(path, v, "not in valid range [" + min + "-" + max + "]");
    }
    return v;
  }

  /** The boolean at {@code path}; null when absent or null. */
  Boolean bool(JsonNode node, String path) {
    if (node == null || node.isNull()) {
      return null;
    }
    if (!node.isBoolean()) {
      throw invalid(path, node, "must be true or false");
    }
    return node.asBoolean();
  }

  /**
   * The field {@code name} of {@code object}, matched as Go's encoding/json does: the exact name
   * first, then any case-insensitive match. Null when absent.
   */
  static JsonNode lenientField(JsonNode object, String name) {
    JsonNode exact = object.get(name);
    if (exact != null) {
      return exact;
    }
    for (Iterator<Map.Entry<String, JsonNode>> it = object.fields(); it.hasNext(); ) {
      Map.Entry<String, JsonNode> e = it.next();
      if (e.getKey().equalsIgnoreCase(name)) {
        return e.getValue();
      }
    }
    return null;
  }

  private static String render(Object value) {
    if (value instanceof JsonNode n) {
      return n.isTextual() ? "\"" + n.asText() + "\"" : n.toString();
    }
    return value instanceof String s ? "\"" + s + "\"" : String.valueOf(value);
  }

  private static String quoted(Collection<String> values) {
    return values.stream().map(v -> "\"" + v + "\"").collect(Collectors.joining(", "));
  }
}
