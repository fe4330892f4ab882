package io.schedext.extender.wire;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.SerializerProvider;
import com.fasterxml.jackson.databind.annotation.JsonSerialize;
import com.fasterxml.jackson.databind.ser.std.StdSerializer;
import java.io.IOException;
import java.util.AbstractList;
import java.util.RandomAccess;

/**
 * A list of node names for a reply, each with its JSON encoding when known (the bytes between the quotes, for names
 * that need no escaping): written by copying those bytes rather than encoding thousands of names again. Encodes
 * exactly as a list of strings does. Not modifiable.
 */
@JsonSerialize(using = EncodedNames.Json.class)
public final class EncodedNames extends AbstractList<String> implements RandomAccess {

  private final String[] names;
  private final byte[][] encoded;

  /**
   * @param names the names
   * @param encoded per name, the bytes JSON writes between its quotes, or null to encode the name normally; the same
   *     length as {@code names} (the arrays are kept, not copied)
   */
  public EncodedNames(String[] names, byte[][] encoded) {
    if (names.length != encoded.length) {
      throw new IllegalArgumentException(names.length + " names but " + encoded.length + " encodings");
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

  /** Writes {@code name} as a JSON string: {@code encoded} copied between quotes when given, else encoded. */
  static void writeName(JsonGenerator gen, String name, byte[] encoded) throws IOException {
    if (encoded != null) {
      gen.writeRawUTF8String(encoded, 0, encoded.length);
    } else {
      gen.writeString(name);
    }
  }

  static final class Json extends StdSerializer<EncodedNames> {
    Json() {
      super(EncodedNames.class);
    }

    @Override
    public void serialize(EncodedNames value, JsonGenerator gen, SerializerProvider provider) throws IOException {
      ReplyBuffer rb = ReplyBuffer.beginRawValue(gen);
      if (rb != null) {
        rb.ascii('[');
        for (int i = 0; i < value.names.length; i++) {
          if (i > 0) {
            rb.ascii(',');
          }
          rb.string(value.names[i], value.encoded[i]);
        }
        rb.ascii(']');
        return;
      }
      gen.writeStartArray(value, value.names.length);
      for (int i = 0; i < value.names.length; i++) {
        writeName(gen, value.names[i], value.encoded[i]);
      }
      gen.writeEndArray();
    }
  }
}
