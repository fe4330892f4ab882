package io.schedext.extender.wire;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.SerializerProvider;
import com.fasterxml.jackson.databind.annotation.JsonSerialize;
import com.fasterxml.jackson.databind.ser.std.StdSerializer;
import java.io.IOException;
import java.util.AbstractList;
import java.util.RandomAccess;

/**
 * The node names of a reply, written straight into the {@link ReplyBuffer} rather than token by
 * token through the JSON generator (a filter reply can name thousands of nodes), each from its
 * encoding when known (see {@link NodeNameIndex#json}). Encodes exactly as a list of strings does.
 * Not modifiable.
 */
@JsonSerialize(using = NameArray.Json.class)
public final class NameArray extends AbstractList<String> implements RandomAccess {

  private final String[] names;
  private final byte[][] encoded;

  /** A list of {@code names} (the array is kept, not copied), each encoded when written. */
  public NameArray(String[] names) {
    this(names, null);
  }

  /**
   * A list of {@code names} with, per name, the bytes JSON writes between its quotes, or null to
   * encode the name normally; {@code encoded} may be null for none, else it has one slot per name.
   * The arrays are kept, not copied.
   */
  public NameArray(String[] names, byte[][] encoded) {
    if (encoded != null && encoded.length != names.length) {
      throw new IllegalArgumentException(
          names.length + " names but " + encoded.length + " encodings");
    }
    this.names = names;
    this.encoded = encoded;
  }

  @Override
  public String get(int index) {
    return names[index];
  }

  @Override
  public int size() {
    return names.length;
  }

  /** Appends these names to {@code rb} as a JSON array, byte for byte as the mapper writes it. */
  void writeTo(ReplyBuffer rb) {
    rb.ascii('[');
    for (int i = 0; i < names.length; i++) {
      if (i > 0) {
        rb.ascii(',');
      }
      rb.string(names[i], encoded == null ? null : encoded[i]);
    }
    rb.ascii(']');
  }

  static final class Json extends StdSerializer<NameArray> {
    Json() {
      super(NameArray.class);
    }

    @Override
    public void serialize(NameArray value, JsonGenerator gen, SerializerProvider provider)
        throws IOException {
      ReplyBuffer rb = ReplyBuffer.beginRawValue(gen);
      if (rb != null) {
        value.writeTo(rb);
        return;
      }
      gen.writeStartArray(value, value.names.length);
      for (int i = 0; i < value.names.length; i++) {
        writeName(gen, value.names[i], value.encoded == null ? null : value.encoded[i]);
      }
      gen.writeEndArray();
    }
  }

  /**
   * Writes {@code name} as a JSON string: {@code encoded} copied between quotes when given, else
   * encoded.
   */
  static void writeName(JsonGenerator gen, String name, byte[] encoded) throws IOException {
    if (encoded != null) {
      gen.writeRawUTF8String(encoded, 0, encoded.length);
    } else {
      gen.writeString(name);
    }
  }
}
