package io.schedext.extender.wire;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.DeserializationContext;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.deser.std.StdDeserializer;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * Decodes {@code NodeNames}. With a {@link NodeNameIndex} given as the {@code NodeNameIndex.class}
 * attribute of the read, into a {@link NodeNameList}: a name the index holds is found straight from
 * the parser's character buffer and kept as its canonical instance with its position, so no string
 * is built (or hashed again later) for the thousands of names kube-scheduler sends per call.
 * Otherwise as Jackson's own list of strings. Either way nulls are kept, scalars taken as text,
 * anything else a mismatch naming the field.
 */
public final class NodeNamesDeserializer extends StdDeserializer<List<String>> {

  /** Jackson creates it by reflection. */
  public NodeNamesDeserializer() {
    super(List.class);
  }

  @Override
  @SuppressWarnings("unchecked")
  public List<String> deserialize(JsonParser p, DeserializationContext ctxt) throws IOException {
    if (!p.isExpectedStartArrayToken()) {
      return (List<String>) ctxt.handleUnexpectedToken(ctxt.constructType(List.class), p);
    }
    NodeNameIndex names = (NodeNameIndex) ctxt.getAttribute(NodeNameIndex.class);
    if (names != null) {
      return decodeInterned(p, ctxt, names);
    }
    List<String> out = new ArrayList<>();
    for (JsonToken t = p.nextToken(); t != JsonToken.END_ARRAY; t = p.nextToken()) {
      out.add(element(p, ctxt, t, out));
    }
    return out;
  }

  /**
   * The names of the array whose START_ARRAY is the current token of {@code p}, decoded against
   * {@code names} as {@link #deserialize} decodes them with that index; null when an element is an
   * object or an array, which only a deserialization context can report (the caller then decodes
   * the body with the mapper). {@code p} is left at the array's END_ARRAY.
   */
  public static List<String> decodeNames(JsonParser p, NodeNameIndex names) throws IOException {
    try {
      return decodeInterned(p, null, names);
    } catch (NeedsContext e) {
      return null;
    }
  }

  /** An element only a deserialization context can report, met without one. */
  private static final class NeedsContext extends RuntimeException {
    private static final long serialVersionUID = 1L;

    NeedsContext() {
      super(null, null, false, false);
    }
  }

  private static NodeNameList decodeInterned(
      JsonParser p, DeserializationContext ctxt, NodeNameIndex names) throws IOException {
    NodeNameList out = new NodeNameList(names, names.size());
    // kube-scheduler lists the names in its own node order. That order and the index's both
    // interleave the zones, but each zone's nodes need not line up between them, so the names come
    // as a few runs woven together, each run in the index's order: the name at i is most likely the
    // one `stride` places after the name `stride` back, `stride` being the number of runs. It is
    // learned from the names the guess misses.
    int[] recent = new int[MAX_STRIDE];
    int stride = 1;
    int i = 0;
    for (JsonToken t = p.nextToken(); t != JsonToken.END_ARRAY; t = p.nextToken(), i++) {
      int likely = i >= stride ? guess(recent, i, stride) : -1;
      int at =
          t == JsonToken.VALUE_STRING
              ? names.findPosition(
                  p.getTextCharacters(), p.getTextOffset(), p.getTextLength(), likely)
              : -1;
      if (at >= 0) {
        if (at != likely) {
          stride = strideOf(recent, i, at, stride);
        }
        out.append(names.name(at), at);
      } else {
        out.append(element(p, ctxt, t, out), -1);
      }
      recent[i % MAX_STRIDE] = at;
    }
    return out;
  }

  /** The most runs of names told apart (kube-scheduler's order woven from up to this many). */
  static final int MAX_STRIDE = 8;

  /**
   * The position {@code stride} places after that of the name {@code stride} before {@code i}, or
   * -1 when that name was not found.
   */
  private static int guess(int[] recent, int i, int stride) {
    int before = recent[(i - stride) % MAX_STRIDE];
    return before < 0 ? -1 : before + stride;
  }

  /**
   * The stride that would have guessed position {@code at} for the name at {@code i}, or {@code
   * current} when none would.
   */
  private static int strideOf(int[] recent, int i, int at, int current) {
    for (int k = 1; k <= Math.min(MAX_STRIDE, i); k++) {
      if (guess(recent, i, k) == at) {
        return k;
      }
    }
    return current;
  }

  /**
   * One element as Jackson's list of strings takes it: nulls kept, scalars as text, else a
   * mismatch.
   */
  private static String element(
      JsonParser p, DeserializationContext ctxt, JsonToken t, List<String> sofar)
      throws IOException {
    if (t == JsonToken.VALUE_STRING) {
      return p.getText();
    }
    if (t == JsonToken.VALUE_NULL) {
      return null;
    }
    if (t != null && t.isScalarValue()) {
      return p.getText();
    }
    if (ctxt == null) {
      throw new NeedsContext();
    }
    try {
      return (String) ctxt.handleUnexpectedToken(String.class, p);
    } catch (JsonMappingException e) {
      throw JsonMappingException.wrapWithPath(e, sofar, sofar.size());
    }
  }
}
