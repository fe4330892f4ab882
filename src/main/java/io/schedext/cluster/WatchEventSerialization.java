package io.schedext.cluster;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.util.TokenBuffer;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.KubernetesResource;
import io.fabric8.kubernetes.api.model.WatchEvent;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import io.schedext.kube.UnreadFields;
import java.io.IOException;

/**
 * fabric8's serialization, with watch events decoded in one pass. fabric8 reads every watch event
 * into a JSON tree to find the object's kind, then converts the tree into the model class: two
 * passes and a tree of short-lived nodes per event, on the CPUs the scheduling calls use (it runs
 * before any handler, so the event gate cannot hold it back). Here the object's tokens are buffered
 * (far lighter than a tree), its {@code apiVersion} and {@code kind} read from the buffer, and the
 * model class bound from it with the same mapper and deserializers fabric8 uses, so the object is
 * the one fabric8 would build, less the fields {@link UnreadFields} skips (for every object this
 * client decodes, lists and single reads included).
 *
 * <p>Anything this decoder does not recognise as a plain watch event ({@code type} and {@code
 * object} only, an object of a kind registered with fabric8, no malformed JSON) goes to fabric8's
 * own path unchanged, with its errors and its fallbacks. Everything else (lists, patches, requests)
 * is fabric8's.
 */
public final class WatchEventSerialization extends KubernetesSerialization {

  private final ObjectMapper mapper;

  /**
   * A serialization over a new mapper configured by fabric8, searching class loaders for custom
   * kinds.
   */
  public WatchEventSerialization() {
    this(new ObjectMapper());
  }

  private WatchEventSerialization(ObjectMapper mapper) {
    super(mapper, true);
    // The informers' objects are trimmed of these anyway (KubernetesCluster.trim): never build
    // them.
    this.mapper = UnreadFields.skipIn(mapper);
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
    try (JsonParser p = mapper.createParser(json)) {
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
          object = decodeObject(p);
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
      return null;
    }
  }

  /**
   * Binds the object at {@code p} (its START_OBJECT) to its registered model class; null for any
   * other object.
   */
  private Object decodeObject(JsonParser p) throws IOException {
    TokenBuffer buffer = new TokenBuffer(p);
    buffer.copyCurrentStructure(p);
    String apiVersion = null;
    String kind = null;
    try (JsonParser scan = buffer.asParser()) {
      scan.nextToken();
      for (JsonToken t = scan.nextToken();
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
    if (apiVersion == null || kind == null) {
      return null;
    }
    Class<? extends KubernetesResource> cls = getRegisteredKubernetesResource(apiVersion, kind);
    if (cls == null || cls.isInterface() || cls == GenericKubernetesResource.class) {
      return null;
    }
    try (JsonParser bind = buffer.asParser(mapper)) {
      return mapper.readValue(bind, cls);
    }
  }
}
