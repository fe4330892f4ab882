package io.schedext.extender;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.ObjectReader;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import io.schedext.extender.wire.ExtenderArgs;
import io.schedext.extender.wire.ExtenderFilterResult;
import io.schedext.extender.wire.HostPriorityList;
import io.schedext.extender.wire.NodeNameIndex;
import io.schedext.extender.wire.RecentCalls;
import io.schedext.extender.wire.RecentNames;
import io.schedext.extender.wire.RecentPod;
import io.schedext.extender.wire.ReplyBuffer;
import io.schedext.extender.wire.ReplyBufferPool;
import io.schedext.kube.JsonReaders;
import io.schedext.kube.QuantityText;
import io.schedext.kube.UnreadFields;
import java.io.IOException;
import java.io.InputStream;
import java.time.Duration;
import java.util.function.LongSupplier;
import java.util.stream.Collectors;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;

/**
 * The one JSON mapper of the extender endpoints: Jackson 2, which the fabric8 model types are
 * written for. Decodes request bodies read within their limits ({@link BodyReader}) and turns every
 * decoding failure into a {@link BadRequestException} whose message names the field and what was
 * wrong; filter and prioritize bodies in kube-scheduler's form take a path of their own ({@link
 * PlainArgsDecoder}), and both paths reuse what the last calls decoded ({@link RecentCalls}).
 * Encodes replies, into the buffers of a {@link ReplyBufferPool}. Thread-safe.
 */
public final class WireCodec {

  /**
   * Reads YAML request bodies (explain accepts a Pod as YAML); trees only, decoded then as JSON.
   */
  private static final ObjectMapper YAML = new YAMLMapper();

  private final ObjectMapper mapper;
  private final BodyReader bodies;
  private final ReplyBufferPool buffers = new ReplyBufferPool();
  private final JsonReaders readers;
  private final RecentCalls recent;
  private final RecentPod recentPod;
  private final PlainArgsDecoder plain;

  /**
   * Filter and prioritize bodies up to this length are read whole before decoding (see {@link
   * #decodeSchedulingArgs}); 5,000 node names and a pod are about 80 KB.
   */
  static final long WHOLE_BODY_MAX_BYTES = 1024 * 1024;

  /**
   * A codec refusing bodies longer than {@code maxBodyBytes}, with no deadline for reading them.
   */
  public WireCodec(long maxBodyBytes) {
    this(maxBodyBytes, Duration.ZERO, NanoTime.SYSTEM);
  }

  /**
   * A codec refusing bodies longer than {@code maxBodyBytes}, and bodies whose reads wait for the
   * client longer than {@code bodyReadTimeout} in all (zero: no deadline), timed by {@code
   * nanoTime}.
   */
  public WireCodec(long maxBodyBytes, Duration bodyReadTimeout, LongSupplier nanoTime) {
    this.bodies = new BodyReader(maxBodyBytes, bodyReadTimeout, nanoTime);
    JsonMapper m =
        JsonMapper.builder()
            .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
            .disable(SerializationFeature.FAIL_ON_EMPTY_BEANS)
            .build();
    m.getFactory()
        .setStreamReadConstraints(
            StreamReadConstraints.builder().maxStringLength(Integer.MAX_VALUE).build());
    // kube-scheduler sends the pod (and, without nodeCacheCapable, every node) with its managed
    // fields.
    this.mapper = QuantityText.useIn(UnreadFields.skipIn(m));
    this.readers = new JsonReaders(this.mapper);
    this.recent = new RecentCalls(this.mapper);
    this.recentPod = recent.pod();
    this.plain = new PlainArgsDecoder(this.mapper, recent);
  }

  /**
   * The names of the last filter reply, part of what this codec's decoding carries from one call to
   * the next ({@link RecentCalls}): the filter verb keeps them there, and a following prioritize
   * body that repeats them byte for byte is decoded to them without a lookup (see {@link
   * #decodePlain}).
   */
  public RecentNames recentNames() {
    return recent.names();
  }

  /** The underlying mapper (fabric8-aware, Jackson 2). */
  public ObjectMapper mapper() {
    return mapper;
  }

  /** The body size limit. */
  public long maxBodyBytes() {
    return bodies.maxBodyBytes();
  }

  /**
   * Decodes a request body streamed from {@code in} (no copy of the body is kept) into {@code
   * type}. Every failure is a {@link BadRequestException}: 400 naming the field and position, 400
   * for an empty body, 413 for a body longer than the limit.
   */
  public <T> T decode(InputStream in, Class<T> type) {
    return decode(in, type, null);
  }

  /**
   * As {@link #decode(InputStream, Class)}; node names the {@code names} interner knows are decoded
   * as its canonical instances (see {@link io.schedext.extender.wire.NodeNamesDeserializer}).
   * {@code names} may be null.
   */
  public <T> T decode(InputStream in, Class<T> type, NodeNameIndex names) {
    return decode(() -> mapper.createParser(bodies.limited(in)), type, names, null);
  }

  /**
   * Decodes the body of a filter or prioritize call, as {@link #decode(InputStream, Class,
   * NodeNameIndex)}. A body of known length up to {@link #WHOLE_BODY_MAX_BYTES} is read whole
   * first, so that a pod byte for byte the same as the last one decoded comes back as that same
   * instance without being decoded again ({@link RecentPod}): kube-scheduler sends each pod to
   * filter and then to prioritize. Longer bodies (full node objects) are streamed.
   */
  public ExtenderArgs decodeSchedulingArgs(
      InputStream in, long contentLength, NodeNameIndex names) {
    if (contentLength <= 0 || contentLength > WHOLE_BODY_MAX_BYTES) {
      return decode(in, ExtenderArgs.class, names);
    }
    byte[] body = bodies.read(in, (int) contentLength);
    ExtenderArgs args = plain.decode(body, names);
    if (args != null) {
      return args;
    }
    return decode(
        () -> mapper.createParser(body),
        ExtenderArgs.class,
        names,
        new RecentPod.Body(body, recentPod));
  }

  /**
   * The arguments of a body in the form kube-scheduler sends them, decoded without the mapper's
   * bean machinery ({@link PlainArgsDecoder}), or null: the body is then the mapper's.
   */
  ExtenderArgs decodePlain(byte[] body, NodeNameIndex names) {
    return plain.decode(body, names);
  }

  /** Opens the parser of one body. */
  private interface ParserSource {
    JsonParser open() throws IOException;
  }

  private <T> T decode(
      ParserSource source, Class<T> type, NodeNameIndex names, RecentPod.Body whole) {
    try (JsonParser p = source.open()) {
      if (p.nextToken() == null) {
        throw new BadRequestException("request body is empty: expected a JSON object");
      }
      ObjectReader reader = readers.of(type);
      if (names != null) {
        reader = reader.withAttribute(NodeNameIndex.class, names);
      }
      if (whole != null) {
        reader = reader.withAttribute(RecentPod.Body.class, whole);
      }
      T value = reader.readValue(p);
      if (value == null) {
        throw new BadRequestException("request body is JSON null: expected a JSON object");
      }
      if (p.nextToken() != null) {
        throw new BadRequestException(
            "malformed JSON: unexpected content after the JSON object"
                + where(p.currentLocation()));
      }
      return value;
    } catch (JsonMappingException e) {
      bodies.throwIfCutShort(e);
      throw new BadRequestException(describe(e));
    } catch (JsonProcessingException e) {
      bodies.throwIfCutShort(e);
      throw new BadRequestException(
          "malformed JSON: " + e.getOriginalMessage() + where(e.getLocation()));
    } catch (IOException e) {
      throw bodies.unreadable(e);
    }
  }

  /** Decodes a request body held in memory into {@code type}; same errors as the streaming form. */
  public <T> T decode(byte[] body, Class<T> type) {
    return decode(new java.io.ByteArrayInputStream(body), type);
  }

  /**
   * As {@link #decode(byte[], Class)}, interning node names as {@link #decode(InputStream, Class,
   * NodeNameIndex)}.
   */
  public <T> T decode(byte[] body, Class<T> type, NodeNameIndex names) {
    return decode(new java.io.ByteArrayInputStream(body), type, names);
  }

  /**
   * Reads a whole request body into memory; a body longer than the limit is a 413 {@link
   * BadRequestException}.
   */
  public byte[] readBody(InputStream in) {
    return bodies.readAll(in);
  }

  /**
   * Reads a body of the {@code length} bytes its request declared, as {@link
   * #readBody(InputStream)} does, into one array of that length: reading to the end of an unknown
   * length fills 8 KB chunks and then copies them into the result, twice the body's size in garbage
   * (a quarter of what a 5,000-name call allocated). A body that ends before {@code length} bytes
   * is a 400.
   */
  public byte[] readBody(InputStream in, int length) {
    return bodies.read(in, length);
  }

  /**
   * Parses {@code body} as one JSON document (or, with {@code yaml}, one YAML document) into a
   * tree; malformed input is a 400 naming the position, and an empty body a 400 as in {@link
   * #decode(InputStream, Class)}.
   */
  public JsonNode readTree(byte[] body, boolean yaml) {
    String format = yaml ? "YAML" : "JSON";
    try {
      JsonNode tree = (yaml ? YAML : mapper).readTree(body);
      if (tree == null || tree.isMissingNode()) {
        throw new BadRequestException("request body is empty: expected a " + format + " object");
      }
      return tree;
    } catch (JsonProcessingException e) {
      // The YAML parser appends an excerpt of the input on further lines; the first line and the
      // position suffice.
      String problem = e.getOriginalMessage().lines().findFirst().orElse("");
      throw new BadRequestException(
          "malformed " + format + ": " + problem + where(e.getLocation()));
    } catch (IOException e) {
      throw new BadRequestException("unreadable request body: " + e.getMessage());
    }
  }

  /**
   * Encodes a reply into {@code buf} (cleared first). A value that cannot be encoded is an {@link
   * IllegalStateException}, and {@code buf} then holds no complete reply.
   */
  public void encode(Object value, ReplyBuffer buf) {
    buf.reset();
    // The replies of every scheduling cycle, appended directly; the same bytes as the mapper's.
    if (value instanceof HostPriorityList priorities) {
      priorities.writeTo(buf);
      return;
    }
    if (value instanceof ExtenderFilterResult filtered) {
      if (filtered.writeTo(buf)) {
        return;
      }
      buf.reset();
    }
    try {
      if (value instanceof Explanation explanation) {
        try (JsonGenerator g = mapper.createGenerator(buf)) {
          ExplanationWriter.write(explanation, g);
        }
        return;
      }
      mapper.writeValue(buf, value);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("cannot encode reply: " + e.getOriginalMessage(), e);
    } catch (IOException e) {
      // A ReplyBuffer does no I/O.
      throw new IllegalStateException("cannot encode reply: " + e.getMessage(), e);
    }
  }

  /**
   * A reply buffer to encode into, reused when one is free ({@link ReplyBufferPool}); hand it back
   * with {@link #release(ReplyBuffer)}.
   */
  public ReplyBuffer borrowBuffer() {
    return buffers.borrow();
  }

  /** Takes back a buffer from {@link #borrowBuffer()} (it must no longer be used). */
  public void release(ReplyBuffer buf) {
    buffers.release(buf);
  }

  /**
   * A whole JSON response: {@code body} encoded, with {@code status}, its content type and length.
   */
  public ResponseEntity<byte[]> response(int status, Object body) {
    return ResponseEntity.status(status).contentType(MediaType.APPLICATION_JSON).body(encode(body));
  }

  /** Encodes a reply. */
  public byte[] encode(Object value) {
    ReplyBuffer buf = borrowBuffer();
    try {
      encode(value, buf);
      return buf.toByteArray();
    } finally {
      release(buf);
    }
  }

  private static String describe(JsonMappingException e) {
    String path =
        e.getPath().stream()
            .map(r -> r.getFieldName() != null ? r.getFieldName() : "[" + r.getIndex() + "]")
            .collect(Collectors.joining("."))
            .replace(".[", "[");
    String msg = e.getOriginalMessage();
    int cut = msg.indexOf(" (through reference chain");
    if (cut > 0) {
      msg = msg.substring(0, cut);
    }
    if (e.getCause() instanceof JsonProcessingException jpe
        && !(jpe instanceof JsonMappingException)) {
      return "malformed JSON: " + jpe.getOriginalMessage() + where(jpe.getLocation());
    }
    return (path.isEmpty() ? "" : "field \"" + path + "\": ")
        + simplify(msg)
        + where(e.getLocation());
  }

  private static String simplify(String msg) {
    // Jackson names Java types; keep the sentence but drop package prefixes.
    return msg.replaceAll("`[a-z0-9_.]+\\.([A-Z][A-Za-z0-9_$]*)`", "`$1`");
  }

  private static String where(JsonLocation loc) {
    if (loc == null || loc.getLineNr() < 0) {
      return "";
    }
    return " (line " + loc.getLineNr() + ", column " + loc.getColumnNr() + ")";
  }
}
