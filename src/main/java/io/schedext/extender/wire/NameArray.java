package io.schedext.extender.wire;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.SerializerProvider;
import com.fasterxml.jackson.databind.annotation.JsonSerialize;
import com.fasterxml.jackson.databind.ser.std.StdSerializer;
import java.io.IOException;
import java.util.AbstractList;
import java.util.RandomAccess;

/**
 * The node names of a reply, written straight into the {@link ReplyBuffer} rather than token by token through the
 * JSON generator (a filter reply can name thousands of nodes). Encodes exactly as a list of strings does. Not
 * modifiable.
 */
@JsonSerialize(using = NameArray.Json.class)
public final class NameArray extends AbstractList<String> implements RandomAccess {

  private final String[] names;

  /** A list of {@code names} (the array is kept, not copied). */
  public NameArray(String[] names) {
    this.names = names;
  }

  @Override
  public String get(int index) {
    return names[index];
  }

  @Override
  public int size() {
    return names.length;
  }

  static final class Json extends StdSerializer<NameArray> {
    Json() {
      super(NameArray.class);
    }

    @Override
    public void serialize(NameArray value, JsonGenerator gen, SerializerProvider provider) throws IOException {
      ReplyBuffer rb = ReplyBuffer.beginRawValue(gen);
      if (rb != null) {
        rb.ascii('[');
        for (int i = 0; i < value.names.length; i++) {
          if (i > 0) {
            rb.ascii(',');
          }
          rb.string(value.names[i]);
        }
        rb.ascii(']');
        return;
      }
      gen.writeStartArray(value, value.names.length);
      for (String name : value.names) {
        gen.writeString(name);
      }
      gen.writeEndArray();
    }
  }
}
