package io.schedext.extender;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.MappingIterator;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import io.schedext.testing.Http;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The request bodies recorded from kube-scheduler v1.34.9 ({@code
 * src/test/resources/fixtures/kube-scheduler-v1.34/}, README.md there) and the clusters they were
 * sent against: what the replay tests read from them.
 */
final class V134Fixtures {

  static final String DIR = "fixtures/kube-scheduler-v1.34/";

  /** The cluster at the preempt calls, as at every recorded call before them. */
  static final String CLUSTER = "classpath:" + DIR + "cluster.yaml";

  /** The cluster at the nominated pod's filter call: the victim gone, the preemptor nominated. */
  static final String CLUSTER_NOMINATED = "classpath:" + DIR + "cluster.nominated.yaml";

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());
  private static final Pattern NODE_NAMES = Pattern.compile("\"NodeNames\":\\[[^\\]]*\\]");

  private V134Fixtures() {}

  /** A recorded body, as kube-scheduler sent it. */
  static String body(String file) {
    return Http.resource(DIR + file);
  }

  /** A recorded body parsed. */
  static JsonNode json(String file) {
    try {
      return JSON.readTree(body(file));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** The nodes a filter or prioritize body names, in order, in whichever field it used. */
  static List<String> nodesSent(String file) {
    JsonNode j = json(file);
    return j.get("NodeNames").isArray()
        ? names(j.get("NodeNames"))
        : names(j.get("Nodes").get("items"));
  }

  /** Node names, or the names of Node objects, in order. */
  static List<String> names(JsonNode array) {
    List<String> out = new ArrayList<>();
    array.forEach(
        n -> out.add(n.isTextual() ? n.asText() : n.path("metadata").path("name").asText()));
    return out;
  }

  /**
   * A {@code NodeNames} body with its names replaced by {@code names}, everything before them (the
   * pod) byte for byte as recorded.
   */
  static String withNodeNames(String file, String... names) {
    String body = body(file);
    Matcher m = NODE_NAMES.matcher(body);
    if (!m.find()) {
      throw new IllegalArgumentException(file + " has no NodeNames array");
    }
    return body.substring(0, m.start())
        + "\"NodeNames\":[\""
        + String.join("\",\"", names)
        + "\"]"
        + body.substring(m.end());
  }

  /** The UID of pod {@code name} in cluster file {@code cluster} (one of the constants above). */
  static String uid(String cluster, String name) {
    String text = Http.resource(cluster.substring("classpath:".length()));
    try (MappingIterator<JsonNode> docs = YAML.readerFor(JsonNode.class).readValues(text)) {
      for (JsonNode doc : docs.readAll()) {
        if ("Pod".equals(doc.path("kind").asText())
            && name.equals(doc.path("metadata").path("name").asText())) {
          return doc.path("metadata").path("uid").asText();
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    throw new IllegalArgumentException("no pod " + name + " in " + cluster);
  }
}
