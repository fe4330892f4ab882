package io.schedext.extender;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.schedext.extender.wire.ExtenderArgs;
import io.schedext.extender.wire.NodeNameIndex;
import jakarta.servlet.http.HttpServletRequest;
import java.io.IOException;
import java.util.List;
import org.springframework.http.InvalidMediaTypeException;
import org.springframework.http.MediaType;

/**
 * How an explain request is read and which form its answer takes. The body is a filter request or,
 * for people, a bare Pod ({@code kind: Pod}, explained against every node), as JSON or, with a YAML
 * content type, as YAML. The answer is text with {@code ?format=text} or when {@code Accept}
 * prefers {@code text/plain}, JSON otherwise. Stateless.
 */
final class ExplainRequests {

  private static final List<MediaType> YAML_TYPES =
      List.of(
          MediaType.APPLICATION_YAML,
          MediaType.parseMediaType("application/x-yaml"),
          MediaType.parseMediaType("text/yaml"));

  private ExplainRequests() {}

  /** Decodes the body of {@code request}; every mistake is a {@link BadRequestException}. */
  static ExtenderArgs decode(WireCodec codec, HttpServletRequest request, NodeNameIndex names)
      throws IOException {
    byte[] body = codec.readBody(request.getInputStream());
    boolean yaml = isYaml(request.getContentType());
    if (!yaml && !isBarePod(codec, body)) {
      // A filter request is decoded as sent, so error positions point into the caller's own text.
      return codec.decode(body, ExtenderArgs.class, names);
    }
    JsonNode tree = codec.readTree(body, yaml);
    if (tree.isObject() && "Pod".equals(tree.path("kind").asText()) && !tree.has("Pod")) {
      ObjectNode args = codec.mapper().createObjectNode();
      args.set("Pod", tree);
      tree = args;
    }
    return codec.decode(codec.mapper().writeValueAsBytes(tree), ExtenderArgs.class, names);
  }

  /**
   * True when the JSON {@code body} is an object with {@code "kind": "Pod"} at its top level. Reads
   * only the top-level fields (nested values are skipped without being built); malformed JSON
   * answers false, and the decoding that follows reports it.
   */
  private static boolean isBarePod(WireCodec codec, byte[] body) {
    try (JsonParser p = codec.mapper().createParser(body)) {
      if (p.nextToken() != JsonToken.START_OBJECT) {
        return false;
      }
      while (p.nextToken() == JsonToken.FIELD_NAME) {
        String field = p.currentName();
        JsonToken value = p.nextToken();
        if ("kind".equals(field)) {
          return value == JsonToken.VALUE_STRING && "Pod".equals(p.getText());
        }
        p.skipChildren();
      }
      return false;
    } catch (IOException e) {
      return false;
    }
  }

  private static boolean isYaml(String contentType) {
    if (contentType == null || contentType.isBlank()) {
      return false;
    }
    try {
      MediaType type = MediaType.parseMediaType(contentType);
      return YAML_TYPES.stream().anyMatch(y -> y.equalsTypeAndSubtype(type));
    } catch (InvalidMediaTypeException e) {
      throw new BadRequestException("header \"Content-Type\": " + e.getMessage());
    }
  }

  /**
   * True when the caller asked for text: {@code format=text}, or no {@code format} and an {@code
   * Accept} whose first listed type of text/plain and application/json (by quality, then order) is
   * text/plain.
   */
  static boolean wantsText(HttpServletRequest request) {
    String format = request.getParameter("format");
    if (format != null) {
      return switch (format) {
        case "text" -> true;
        case "json" -> false;
        default ->
            throw new BadRequestException(
                "query parameter \"format\": must be \"json\" or \"text\", not \"" + format + "\"");
      };
    }
    String accept = request.getHeader("Accept");
    if (accept == null || accept.isBlank()) {
      return false;
    }
    List<MediaType> types;
    try {
      types = MediaType.parseMediaTypes(accept);
    } catch (InvalidMediaTypeException e) {
      throw new BadRequestException("header \"Accept\": " + e.getMessage());
    }
    MediaType chosen =
        types.stream()
            .filter(t -> t.getQualityValue() > 0)
            .filter(
                t ->
                    t.equalsTypeAndSubtype(MediaType.TEXT_PLAIN)
                        || t.equalsTypeAndSubtype(MediaType.APPLICATION_JSON))
            .max(
                (a, b) ->
                    Double.compare(a.getQualityValue(), b.getQualityValue()) != 0
                        ? Double.compare(a.getQualityValue(), b.getQualityValue())
                        : Integer.compare(types.indexOf(b), types.indexOf(a)))
            .orElse(null);
    return chosen != null && chosen.equalsTypeAndSubtype(MediaType.TEXT_PLAIN);
  }
}
