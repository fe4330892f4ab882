package io.schedext.extender.wire;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.io.SerializedString;
import com.fasterxml.jackson.databind.SerializerProvider;
import com.fasterxml.jackson.databind.annotation.JsonSerialize;
import com.fasterxml.jackson.databind.ser.std.StdSerializer;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.AbstractList;
import java.util.RandomAccess;

/**
 * A prioritize reply held as two parallel arrays — node names and scores — instead of one object
 * per node, and written to JSON straight from them ({@code [{"Host":"n","Score":7},...]}, exactly
 * what a list of {@link HostPriority} encodes to). Reading it as a list gives {@link HostPriority}
 * values. Not modifiable.
 */
@JsonSerialize(using = HostPriorityList.Json.class)
public final class HostPriorityList extends AbstractList<HostPriority> implements RandomAccess {

  private final String[] hosts;
  private final byte[][] encodedHosts;
  private final long[] scores;
  private final int size;

  /**
   * The first {@code size} entries of {@code hosts} and {@code scores} (the arrays are kept, not
   * copied).
   */
  public HostPriorityList(String[] hosts, long[] scores, int size) {
    this(hosts, null, scores, size);
  }

  /**
   * As {@link #HostPriorityList(String[], long[], int)} with, per host, the bytes JSON writes
   * between its quotes (null entries, or a null array, to encode names normally; see {@link
   * NodeNameIndex#json}).
   */
  public HostPriorityList(String[] hosts, byte[][] encodedHosts, long[] scores, int size) {
    if (size > hosts.length
        || size > scores.length
        || (encodedHosts != null && size > encodedHosts.length)) {
      throw new IllegalArgumentException("size " + size + " exceeds the arrays");
    }
    this.hosts = hosts;
    this.encodedHosts = encodedHosts;
    this.scores = scores;
    this.size = size;
  }

  @Override
  public HostPriority get(int index) {
    if (index < 0 || index >= size) {
      throw new IndexOutOfBoundsException(index);
    }
    return new HostPriority(hosts[index], scores[index]);
  }

  @Override
  public int size() {
    return size;
  }

  /**
   * Appends this list to {@code rb} as JSON, byte for byte what the mapper writes for it, without
   * building a {@link HostPriority} per node.
   */
  public void writeTo(ReplyBuffer rb) {
    rb.ascii('[');
    for (int i = 0; i < size; i++) {
      if (i > 0) {
        rb.ascii(',');
      }
      rb.ascii(Json.OPEN_HOST);
      rb.string(hosts[i], encodedHosts == null ? null : encodedHosts[i]);
      rb.ascii(Json.SCORE_FIELD);
      rb.number(scores[i]);
      rb.ascii('}');
    }
    rb.ascii(']');
  }

  /** Writes the entries without building a {@link HostPriority} per node. */
  static final class Json extends StdSerializer<HostPriorityList> {
    private static final SerializedString HOST = new SerializedString("Host");
    private static final SerializedString SCORE = new SerializedString("Score");
    private static final byte[] OPEN_HOST = "{\"Host\":".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] SCORE_FIELD = ",\"Score\":".getBytes(StandardCharsets.US_ASCII);

    Json() {
      super(HostPriorityList.class);
    }

    @Override
    public void serialize(HostPriorityList value, JsonGenerator gen, SerializerProvider provider)
        throws IOException {
      ReplyBuffer rb = ReplyBuffer.beginRawValue(gen);
      if (rb != null) {
        value.writeTo(rb);
        return;
      }
      gen.writeStartArray(value, value.size);
      for (int i = 0; i < value.size; i++) {
        gen.writeStartObject();
        gen.writeFieldName(HOST);
        NameArray.writeName(
            gen, value.hosts[i], value.encodedHosts == null ? null : value.encodedHosts[i]);
        gen.writeFieldName(SCORE);
        gen.writeNumber(value.scores[i]);
        gen.writeEndObject();
      }
      gen.writeEndArray();
    }
  }
}
