package io.schedext.extender.wire;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.io.JsonStringEncoder;
import java.io.IOException;
import java.io.OutputStream;
import java.util.Arrays;
import java.util.Locale;
import java.util.Objects;

/**
 * A growable byte buffer a reply is encoded into before it is sent, so it goes out with a {@code
 * Content-Length} in as few socket writes as the connector allows, and is reused from one reply to
 * the next.
 *
 * <p>The serializers of the large node lists ({@link NameArray}, {@link HostPriorityList}) append
 * their elements here directly when the generator writes into a {@code ReplyBuffer}: a reply
 * listing 5,000 nodes is then a copy of each name's bytes and a few digits per node, not 20,000
 * generator calls each checking its context. Not thread-safe.
 */
public final class ReplyBuffer extends OutputStream {

  private static final byte[] DIGITS =
      "0123456789".getBytes(java.nio.charset.StandardCharsets.US_ASCII);

  private byte[] buf;
  private int size;

  /** An empty buffer of {@code capacity} bytes to start with. */
  public ReplyBuffer(int capacity) {
    this.buf = new byte[Math.max(16, capacity)];
  }

  /** The bytes written so far are {@code array()[0 .. size())}; the array itself, not a copy. */
  public byte[] array() {
    return buf;
  }

  /** The number of bytes written since the last {@link #reset()}. */
  public int size() {
    return size;
  }

  /** The buffer's current capacity. */
  public int capacity() {
    return buf.length;
  }

  /** Forgets the bytes written; keeps the capacity. */
  public void reset() {
    size = 0;
  }

  /** A copy of the bytes written. */
  public byte[] toByteArray() {
    return Arrays.copyOf(buf, size);
  }

  @Override
  public void write(int b) {
    ensure(1);
    buf[size++] = (byte) b;
  }

  @Override
  public void write(byte[] b, int off, int len) {
    Objects.checkFromIndexSize(off, len, b.length);
    ensure(len);
    System.arraycopy(b, off, buf, size, len);
    size += len;
  }

  private void ensure(int extra) {
    int need = size + extra;
    if (need > buf.length) {
      if (need < 0) {
        throw new OutOfMemoryError("reply larger than 2 GiB");
      }
      buf = Arrays.copyOf(buf, Math.max(need, buf.length * 2));
    }
  }

  // ---------------------------------------------------------------------------------------------
  // raw JSON appends

  /**
   * The buffer {@code gen} writes into, with everything the generator buffered flushed into it and
   * the separator before a value written (as {@code gen} would before any value), ready for a value
   * appended raw; null when the generator writes elsewhere (the caller then writes through the
   * generator).
   */
  static ReplyBuffer beginRawValue(JsonGenerator gen) throws IOException {
    if (!(gen.getOutputTarget() instanceof ReplyBuffer rb)) {
      return null;
    }
    // An empty raw value: the generator writes the comma or colon due before a value and counts the
    // value.
    gen.writeRawValue("");
    gen.flush();
    return rb;
  }

  /** Appends one ASCII character. */
  void ascii(char c) {
    ensure(1);
    buf[size++] = (byte) c;
  }

  /** Appends ASCII text (a constant of the format; not escaped). */
  void ascii(byte[] text) {
    write(text, 0, text.length);
  }

  /**
   * Appends {@code name} as a JSON string: {@code encoded} (the bytes between the quotes, from
   * {@link NodeNameIndex#json}) copied when given, else as {@link #string(String)} writes it.
   */
  void string(String name, byte[] encoded) {
    if (encoded == null) {
      string(name);
      return;
    }
    ensure(encoded.length + 2);
    buf[size++] = '"';
    System.arraycopy(encoded, 0, buf, size, encoded.length);
    size += encoded.length;
    buf[size++] = '"';
  }

  /**
   * Appends {@code s} as a JSON string, escaped as Jackson escapes strings. Node names are DNS
   * names, so the common case is printable ASCII needing no escapes: those characters are stored as
   * they are read, one pass, nothing allocated; a string with any other character is written by
   * {@link #escaped}.
   */
  void string(String s) {
    int n = s.length();
    ensure(n + 2);
    int at = size;
    buf[at++] = '"';
    for (int i = 0; i < n; i++) {
      char c = s.charAt(i);
      if (!plain(c)) {
        ascii('"');
        escaped(s);
        ascii('"');
        return;
      }
      buf[at++] = (byte) c;
    }
    buf[at++] = '"';
    size = at;
  }

  /**
   * True when JSON writes {@code c} as itself: printable ASCII other than quote and backslash
   * (every character of a DNS name).
   */
  static boolean plain(char c) {
    return c >= 0x20 && c <= 0x7e && c != '"' && c != '\\';
  }

  /**
   * Appends {@code s} escaped as Jackson's generator escapes a string by default: the JSON escapes
   * for quote, backslash and control characters, other characters as UTF-8 — except surrogates,
   * which it writes as six-character escapes of each UTF-16 unit (the encoder used for the rest
   * would combine a pair into one 4-byte sequence).
   */
  private void escaped(String s) {
    int from = 0;
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (Character.isSurrogate(c)) {
        if (i > from) {
          ascii(JsonStringEncoder.getInstance().quoteAsUTF8(s.substring(from, i)));
        }
        ascii(
            String.format(Locale.ROOT, "\\u%04X", (int) c)
                .getBytes(java.nio.charset.StandardCharsets.US_ASCII));
        from = i + 1;
      }
    }
    if (from < s.length()) {
      ascii(JsonStringEncoder.getInstance().quoteAsUTF8(from == 0 ? s : s.substring(from)));
    }
  }

  /** Appends {@code v} in decimal, as JSON writes a number. */
  void number(long v) {
    if (v >= 0 && v < 10) {
      ensure(1);
      buf[size++] = DIGITS[(int) v];
      return;
    }
    if (v == Long.MIN_VALUE) {
      ascii(Long.toString(v).getBytes(java.nio.charset.StandardCharsets.US_ASCII));
      return;
    }
    ensure(20);
    if (v < 0) {
      buf[size++] = '-';
      v = -v;
    }
    int digits = 1;
    for (long t = v / 10; t != 0; t /= 10) {
      digits++;
    }
    int end = size + digits;
    for (int at = end - 1; at >= size; at--) {
      buf[at] = DIGITS[(int) (v % 10)];
      v /= 10;
    }
    size = end;
  }
}
