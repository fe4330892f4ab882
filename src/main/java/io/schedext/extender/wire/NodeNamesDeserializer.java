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

  private static NodeNameList decodeInterned(
      JsonParser p, DeserializationContext ctxt, NodeNameIndex names) throws IOException {
    NodeNameList out = new NodeNameList(names, names.size());
    // kube-scheduler lists the names in runs of its node order, the index's order: the name after
    // one found at position i is most likely the one at i + 1.
    int likely = -1;
    for (JsonToken t = p.nextToken(); t != JsonToken.END_ARRAY; t = p.nextToken()) {
      int at =
          t == JsonToken.VALUE_STRING
              ? names.findPosition(
                  p.getTextCharacters(), p.getTextOffset(), p.getTextLength(), likely)
              : -1;
      if (at >= 0) {
        likely = at + 1;
        out.append(names.name(at), at);
      } else {
        out.append(element(p, ctxt, t, out), -1);
      }
    }
    return out;
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
    try {
      return (String) ctxt.handleUnexpectedToken(String.class, p);
    } catch (JsonMappingException e) {
      throw JsonMappingException.wrapWithPath(e, sofar, sofar.size());
    }
  }
}
