package io.schedext.extender.wire;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.DeserializationContext;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.deser.std.StdDeserializer;
import io.schedext.cache.NameInterner;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * Decodes {@code NodeNames}. A name found in the {@link NameInterner} given as the {@code NameInterner.class}
 * attribute of the read is returned as its canonical instance, straight from the parser's character buffer: no string
 * is built for the thousands of names kube-scheduler sends per call. Otherwise as Jackson's own list of strings: nulls
 * kept, scalars taken as text, anything else a mismatch naming the field.
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
    NameInterner names = (NameInterner) ctxt.getAttribute(NameInterner.class);
    List<String> out = new ArrayList<>(names == null ? 16 : Math.max(16, names.size()));
    for (JsonToken t = p.nextToken(); t != JsonToken.END_ARRAY; t = p.nextToken()) {
      if (t == JsonToken.VALUE_STRING) {
        String known = names == null ? null
            : names.find(p.getTextCharacters(), p.getTextOffset(), p.getTextLength());
        out.add(known != null ? known : p.getText());
      } else if (t == JsonToken.VALUE_NULL) {
        out.add(null);
      } else if (t != null && t.isScalarValue()) {
        out.add(p.getText());
      } else {
        try {
          out.add((String) ctxt.handleUnexpectedToken(String.class, p));
        } catch (JsonMappingException e) {
          throw JsonMappingException.wrapWithPath(e, out, out.size());
        }
      }
    }
    return out;
  }
}
