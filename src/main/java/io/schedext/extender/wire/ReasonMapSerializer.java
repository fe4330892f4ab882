package io.schedext.extender.wire;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.SerializableString;
import com.fasterxml.jackson.core.io.SerializedString;
import com.fasterxml.jackson.databind.SerializerProvider;
import com.fasterxml.jackson.databind.ser.std.StdSerializer;
import java.io.IOException;
import java.util.Map;

/**
 * Writes a node → reason map ({@code FailedNodes}, {@code FailedAndUnresolvableNodes}) as a JSON
 * object, encoding each run of equal reasons once: thousands of nodes usually share a handful of
 * reasons, so a reason equal to the previous one is written from its already-escaped bytes. The
 * output is what Jackson's own map serializer writes.
 */
public final class ReasonMapSerializer extends StdSerializer<Map<String, String>> {

  /** Jackson creates it by reflection. */
  @SuppressWarnings("unchecked")
  public ReasonMapSerializer() {
    super((Class<Map<String, String>>) (Class<?>) Map.class);
  }

  @Override
  public void serialize(Map<String, String> value, JsonGenerator gen, SerializerProvider provider)
      throws IOException {
    gen.writeStartObject(value);
    String last = null;
    SerializableString lastEncoded = null;
    for (Map.Entry<String, String> e : value.entrySet()) {
      gen.writeFieldName(e.getKey());
      String reason = e.getValue();
      if (reason == null) {
        gen.writeNull();
        continue;
      }
      if (reason != last && !reason.equals(last)) {
        last = reason;
        lastEncoded = new SerializedString(reason);
      }
      gen.writeString(lastEncoded);
    }
    gen.writeEndObject();
  }
}
