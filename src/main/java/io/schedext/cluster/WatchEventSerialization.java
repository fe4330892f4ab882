package io.schedext.cluster;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonStreamContext;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.util.JsonParserSequence;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.util.TokenBuffer;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.KubernetesResource;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.WatchEvent;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import io.schedext.kube.JsonReaders;
import io.schedext.kube.PodDecoder;
import io.schedext.kube.QuantityText;
import io.schedext.kube.UnreadFields;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * fabric8's serialization, with watch events decoded in one pass. fabric8 reads every watch event
 * into a JSON tree to find the object's kind, then converts the tree into the model class: two
 * passes and a tree of short-lived nodes per event, on the CPUs the scheduling calls use (it runs
 * before any handler, so the event gate cannot hold it back). Here the object's leading {@code
 * kind} and {@code apiVersion} (the API server writes them first) are read and the model class
 * bound straight from the rest of the text, with the same mapper and deserializers fabric8 uses, so
 * the object is the one fabric8 would build, less the fields {@link UnreadFields} skips (for every
 * object this client decodes, lists and single reads included). An object with other fields first
 * is buffered as tokens (far lighter than a tree) and the two read from the buffer. Pods (two
 * events per scheduled pod) are decoded field by field ({@link PodDecoder}) to the same object; one
 * that decoder leaves to the mapper is decoded again, as any other kind is.
 *
 * <p>Anything this decoder does not recognise as a plain watch event ({@code type} and {@code
 * object} only, an object of a kind registered with fabric8, no malformed JSON) goes to fabric8's
 * own path unchanged, with its errors and its fallbacks. Everything else (lists, patches, requests)
 * is fabric8's.
 */
public final class WatchEventSerialization extends KubernetesSerialization {

  /** A first pass's answer for text to decode again without the field-by-field pod decoder. */
  private static final WatchEvent RETRY = new WatchEvent();

  /**
   * The parsers this decoder reads objects of other kinds than pods through, loaded with it. The
   * optimising compiler takes a method that only one loaded class implements as final, and throws
   * away all code compiled so when a second class comes: loaded first by the first event of another
   * kind (a namespace, a node), {@link JsonParserSequence} took the pod decoders compiled before
   * readiness, and Jackson's deserializers, back to the interpreter at the first real events
   * (docs/performance.md). Made before anything is compiled (named is not enough: a class counts
   * once it is linked, by its first instance at the latest), it costs nothing.
   */
  static final List<Class<? extends JsonParser>> PARSERS = parsersMade();

  private static List<Class<? extends JsonParser>> parsersMade() {
    JsonParser buffered = new TokenBuffer(null, false).asParser();
    JsonParser sequence =
        JsonParserSequence.createFlattened(
            false, buffered, new TokenBuffer(null, false).asParser());
    return List.of(sequence.getClass(), buffered.getClass());
  }

  private final ObjectMapper mapper;
  private final JsonReaders readers;
  private final PodDecoder pods;

  /**
   * A serialization over a new mapper configured by fabric8, searching class loaders for custom
   * kinds.
   */
  public WatchEventSerialization() {
    this(new ObjectMapper());
  }

  private WatchEventSerialization(ObjectMapper mapper) {
    super(mapper, true);
    // The informers' objects are trimmed of these anyway (Trim.containers): never build them.
    this.mapper = QuantityText.useIn(UnreadFields.skipIn(mapper));
    this.readers = new JsonReaders(this.mapper);
    this.pods = new PodDecoder(this.mapper);
  }

  @Override
  @SuppressWarnings("unchecked")
  public <T> T unmarshal(String str, Class<T> type) {
    if (type == WatchEvent.class) {
      WatchEvent event = decodeWatchEvent(str);
      if (event != null) {
        return (T) event;
      }
    }
    return super.unmarshal(str, type);
  }

  /**
   * The event {@code json} holds, or null when it is not one this decoder takes (fabric8's path
   * then decides).
   */
  WatchEvent decodeWatchEvent(String json) {
    // Parsed as UTF-8 bytes, as request bodies are: one parser's code for the JIT to compile and
    // keep hot rather than two (the char-based parser was a second set of large compilations), and
    // field names are canonicalised by their bytes rather than compared character by character.
    byte[] bytes = json.getBytes(StandardCharsets.UTF_8);
    WatchEvent event = decodeWatchEvent(bytes, true);
    // Text the field-by-field pod decoder did not take (a pod it cannot decode as the mapper would,
    // malformed text): the mapper's deserializers decide, as for every other kind.
    return event == RETRY ? decodeWatchEvent(bytes, false) : event;
  }

  /**
   * The event in {@code bytes}, or null when it is not one this decoder takes; pods decoded field
   * by field ({@link PodDecoder}) when {@code podsByField}, else by the mapper's deserializers.
   * With {@code podsByField}, {@link #RETRY} for any text that failed to decode.
   */
  private WatchEvent decodeWatchEvent(byte[] bytes, boolean podsByField) {
    try (JsonParser p = mapper.createParser(bytes)) {
      if (p.nextToken() != JsonToken.START_OBJECT) {
        return null;
      }
      String type = null;
      Object object = null;
      for (JsonToken t = p.nextToken(); t == JsonToken.FIELD_NAME; t = p.nextToken()) {
        String field = p.currentName();
        JsonToken value = p.nextToken();
        if (type == null && value == JsonToken.VALUE_STRING && "type".equals(field)) {
          type = p.getText();
        } else if (object == null && value == JsonToken.START_OBJECT && "object".equals(field)) {
          object = decodeObject(p, podsByField);
          if (object == null) {
            return null;
          }
        } else {
          return null;
        }
      }
      if (p.currentToken() != JsonToken.END_OBJECT
          || p.nextToken() != null
          || type == null
          || object == null) {
        return null;
      }
      return new WatchEvent(object, type);
    } catch (IOException | RuntimeException e) {
      return podsByField ? RETRY : null;
    }
  }

  /**
   * Binds the object at {@code p} (its START_OBJECT) to its registered model class; null for any
   * other object. On return {@code p} is at the object's END_OBJECT.
   *
   * <p>The API server writes {@code kind} and {@code apiVersion} as the first two fields of every
   * object, so only they are buffered: once both are read, the model is bound from the two replayed
   * and then the rest of {@code p} itself, with no copy of the object (as Jackson's own polymorphic
   * types are read). Any other field before them (a client that writes another order) and the whole
   * object is buffered instead, as a tree would be, and the two looked up in the buffer.
   */
  private Object decodeObject(JsonParser p, boolean podsByField) throws IOException {
    JsonStreamContext outer = p.getParsingContext().getParent();
    TokenBuffer buffer = new TokenBuffer(p);
    buffer.writeStartObject();
    String apiVersion = null;
    String kind = null;
    for (JsonToken t = p.nextToken(); t == JsonToken.FIELD_NAME; t = p.nextToken()) {
      String field = p.currentName();
      buffer.writeFieldName(field);
      if (p.nextToken() != JsonToken.VALUE_STRING) {
        return decodeBuffered(p, buffer);
      } else if (apiVersion == null && "apiVersion".equals(field)) {
        apiVersion = p.getText();
        buffer.writeString(apiVersion);
      } else if (kind == null && "kind".equals(field)) {
        kind = p.getText();
        buffer.writeString(kind);
      } else {
        return decodeBuffered(p, buffer);
      }
      if (apiVersion != null && kind != null) {
        return bindFollowing(buffer, p, outer, apiVersion, kind, podsByField);
      }
    }
    // The object ended (or the text broke off) before both were read.
    return null;
  }

  /**
   * Binds the object whose leading fields are in {@code prefix} and whose remaining fields follow
   * in {@code p}. The model's deserializer stops at the object's END_OBJECT, so {@code p} is left
   * there for the event's next field; null (fabric8's path) when it is not.
   */
  private Object bindFollowing(
      TokenBuffer prefix,
      JsonParser p,
      JsonStreamContext outer,
      String apiVersion,
      String kind,
      boolean podsByField)
      throws IOException {
    Class<? extends KubernetesResource> cls = modelClass(apiVersion, kind);
    if (cls == null) {
      return null;
    }
    Object object;
    if (cls == Pod.class && podsByField) {
      object = pods.decodeRest(p, apiVersion, kind);
      p.clearCurrentToken();
    } else {
      // Never closed: closing a sequence closes the parsers it reads, p among them.
      JsonParser bind = JsonParserSequence.createFlattened(false, prefix.asParser(mapper), p);
      object = readers.of(cls).readValue(bind);
    }
    // The mapper clears the token it stopped at; it must be the object's end, in the event.
    if (p.currentToken() != null
        || p.getLastClearedToken() != JsonToken.END_OBJECT
        || p.getParsingContext() != outer) {
      return null;
    }
    return object;
  }

  /**
   * Buffers the rest of the object at {@code p} after the fields already in {@code buffer} (its
   * current token the value of the last one), reads {@code apiVersion} and {@code kind} from the
   * buffer and binds the model class from it; null for an object of no registered kind.
   */
  private Object decodeBuffered(JsonParser p, TokenBuffer buffer) throws IOException {
    buffer.copyCurrentStructure(p);
    JsonToken t = p.nextToken();
    for (; t == JsonToken.FIELD_NAME; t = p.nextToken()) {
      buffer.copyCurrentStructure(p);
    }
    if (t != JsonToken.END_OBJECT) {
      return null;
    }
    buffer.writeEndObject();
    String apiVersion = null;
    String kind = null;
    try (JsonParser scan = buffer.asParser()) {
      scan.nextToken();
      for (t = scan.nextToken();
          t == JsonToken.FIELD_NAME && (apiVersion == null || kind == null);
          t = scan.nextToken()) {
        String field = scan.currentName();
        JsonToken value = scan.nextToken();
        if (value == JsonToken.VALUE_STRING && "apiVersion".equals(field)) {
          apiVersion = scan.getText();
        } else if (value == JsonToken.VALUE_STRING && "kind".equals(field)) {
          kind = scan.getText();
        } else {
          scan.skipChildren();
        }
      }
    }
    Class<? extends KubernetesResource> cls = modelClass(apiVersion, kind);
    if (cls == null) {
      return null;
    }
    try (JsonParser bind = buffer.asParser(mapper)) {
      return readers.of(cls).readValue(bind);
    }
  }

  /**
   * The model class registered with fabric8 for {@code apiVersion} and {@code kind}; null when
   * either is missing or fabric8 would build a generic resource (its path then decides).
   */
  private Class<? extends KubernetesResource> modelClass(String apiVersion, String kind) {
    if (apiVersion == null || kind == null) {
      return null;
    }
    Class<? extends KubernetesResource> cls = getRegisteredKubernetesResource(apiVersion, kind);
    if (cls == null || cls.isInterface() || cls == GenericKubernetesResource.class) {
      return null;
    }
    return cls;
  }
}
