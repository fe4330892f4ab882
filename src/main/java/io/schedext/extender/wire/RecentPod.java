package io.schedext.extender.wire;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonStreamContext;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.BeanProperty;
import com.fasterxml.jackson.databind.DeserializationContext;
import com.fasterxml.jackson.databind.JsonDeserializer;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.ObjectReader;
import com.fasterxml.jackson.databind.deser.ContextualDeserializer;
import com.fasterxml.jackson.databind.deser.std.StdDeserializer;
import io.fabric8.kubernetes.api.model.Pod;
import io.schedext.kube.PodDecoder;
import java.io.IOException;
import java.util.Arrays;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The last request pod decoded, with its JSON, so that a request carrying the very same bytes gets
 * the same {@link Pod} instance without decoding it again. kube-scheduler calls filter and then
 * prioritize for a pod in one scheduling cycle, and marshals the same pod object for both: the
 * second decode is a byte comparison and a skip over the tokens. Only the exact bytes count (no
 * assumption about UIDs or resource versions), and a different pod simply replaces the entry.
 *
 * <p>The instance handed out is shared by every request that carries it, so it is kept only when
 * nothing on the request path writes to it: a pod with a namespace (the namespace is the one field
 * a request's pod gets defaulted). Treat it as read-only, as every request pod already is.
 * Thread-safe.
 */
public final class RecentPod {

  /** Pods whose JSON is longer than this are not kept (a pod is a few kilobytes). */
  static final int MAX_POD_BYTES = 256 * 1024;

  /** A decoded pod and the exact JSON it was decoded from, from its '{' to its '}'. */
  private record Entry(byte[] json, Pod pod) {}

  private final AtomicReference<Entry> last = new AtomicReference<>();
  private final ObjectMapper mapper;
  private final ObjectReader podReader;
  private final PodDecoder pods;

  /**
   * The recent pod of bodies {@code mapper} parses; pods are decoded field by field ({@link
   * PodDecoder}) where the bytes are at hand, to what the mapper builds.
   */
  public RecentPod(ObjectMapper mapper) {
    this.mapper = mapper;
    this.podReader = mapper.readerFor(Pod.class);
    this.pods = new PodDecoder(mapper);
  }

  /**
   * What the pod deserializer needs from one read: the body it is parsing, held whole, and the
   * recent pod to compare with and update. Given as the {@code Body.class} attribute of the read.
   *
   * @param bytes the request body the parser reads, from its first byte
   * @param recent the recent pod of the codec
   */
  public record Body(byte[] bytes, RecentPod recent) {}

  /**
   * The pod whose JSON starts at {@code start} of {@code body}, when it is byte for byte the last
   * one kept; else null.
   */
  Pod same(byte[] body, long start) {
    Entry e = last.get();
    if (e == null || start < 0 || start + e.json().length > body.length) {
      return null;
    }
    int from = (int) start;
    return Arrays.equals(body, from, from + e.json().length, e.json(), 0, e.json().length)
        ? e.pod()
        : null;
  }

  /**
   * The pod whose START_OBJECT is the current token of {@code p}, a parser over the whole of {@code
   * body}: the recent pod when the bytes are the same (skipped), else decoded (and kept). {@code p}
   * is left at the pod's END_OBJECT; {@code ctxt} is the read's context, or null.
   */
  public Pod read(JsonParser p, DeserializationContext ctxt, byte[] body) throws IOException {
    long start = p.currentTokenLocation().getByteOffset();
    Pod same = same(body, start);
    if (same != null) {
      p.skipChildren();
      return same;
    }
    Pod pod = decode(p, ctxt, body, start);
    keep(body, start, p.currentLocation().getByteOffset(), pod);
    return pod;
  }

  /**
   * Decodes the pod whose START_OBJECT, at byte {@code start} of {@code body}, is the current token
   * of {@code p}, leaving {@code p} at its END_OBJECT. Field by field where {@link PodDecoder} can;
   * else by the mapper from the pod's first byte, so that a body the mapper fails on fails with its
   * own error at the same place.
   */
  Pod decode(JsonParser p, DeserializationContext ctxt, byte[] body, long start)
      throws IOException {
    JsonStreamContext outer = p.getParsingContext().getParent();
    try {
      return pods.decode(p, ctxt);
    } catch (IOException | RuntimeException e) {
      Pod pod = byMapper(body, start);
      // The mapper read the same bytes without an error, so p reaches the pod's end too.
      while (p.currentToken() != JsonToken.END_OBJECT || p.getParsingContext() != outer) {
        if (p.nextToken() == null) {
          throw new IllegalStateException("the body ended inside a pod the mapper decoded");
        }
      }
      return pod;
    }
  }

  /** The pod whose START_OBJECT is at byte {@code start} of {@code body}, decoded by the mapper. */
  private Pod byMapper(byte[] body, long start) throws IOException {
    try (JsonParser q = mapper.createParser(body)) {
      for (JsonToken t = q.nextToken(); t != null; t = q.nextToken()) {
        if (t == JsonToken.START_OBJECT && q.currentTokenLocation().getByteOffset() == start) {
          return podReader.readValue(q);
        }
      }
    }
    throw new IllegalStateException("no object at byte " + start + " of the body");
  }

  /** Keeps {@code pod}, decoded from {@code body[start, end)}, when it can be shared. */
  void keep(byte[] body, long start, long end, Pod pod) {
    if (pod == null
        || pod.getMetadata() == null
        || pod.getMetadata().getNamespace() == null
        || start < 0
        || end <= start
        || end > body.length
        || end - start > MAX_POD_BYTES) {
      return;
    }
    last.set(new Entry(Arrays.copyOfRange(body, (int) start, (int) end), pod));
  }

  /**
   * Decodes the {@code Pod} of a request: with a {@link Body} attribute, the recent pod when the
   * bytes are the same, else decoded field by field where {@link PodDecoder} can (and kept);
   * without one, always decoded by the deserializer Jackson would use for the property. The pods
   * are the ones Jackson builds, and errors are Jackson's own, at the same places.
   */
  public static final class Deserializer extends StdDeserializer<Pod>
      implements ContextualDeserializer {

    /** The property's own deserializer, found once when the property is resolved. */
    private final JsonDeserializer<Object> pods;

    /** Jackson creates it by reflection. */
    public Deserializer() {
      this(null);
    }

    private Deserializer(JsonDeserializer<Object> pods) {
      super(Pod.class);
      this.pods = pods;
    }

    @Override
    public JsonDeserializer<?> createContextual(DeserializationContext ctxt, BeanProperty property)
        throws JsonMappingException {
      return new Deserializer(
          ctxt.findContextualValueDeserializer(ctxt.constructType(Pod.class), property));
    }

    @Override
    public Pod deserialize(JsonParser p, DeserializationContext ctxt) throws IOException {
      Body body = (Body) ctxt.getAttribute(Body.class);
      if (body == null || !p.hasToken(JsonToken.START_OBJECT)) {
        return decode(p, ctxt);
      }
      return body.recent().read(p, ctxt, body.bytes());
    }

    private Pod decode(JsonParser p, DeserializationContext ctxt) throws IOException {
      return pods != null ? (Pod) pods.deserialize(p, ctxt) : ctxt.readValue(p, Pod.class);
    }
  }
}
