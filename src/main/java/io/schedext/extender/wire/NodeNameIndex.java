package io.schedext.extender.wire;

import java.util.Arrays;

/**
 * The canonical instances of a fixed set of node names, found from the characters of a name without
 * building a {@code String}. The request decoder uses it for {@code NodeNames}: a name the cache
 * knows costs no allocation and comes back as the very instance the snapshot is keyed by (hash
 * already computed), so the thousands of names of one request are neither copied nor hashed again.
 * Immutable and thread-safe.
 */
public final class NodeNameIndex {

  private static final NodeNameIndex EMPTY = new NodeNameIndex(new String[0]);

  private final String[] table;
  private final int[] hashes;
  // Each slot's characters, packed one after another, so a lookup compares against a dense array
  // rather than
  // following a pointer per candidate into strings spread over the heap.
  private final char[] chars;
  private final int[] starts;
  private final int[] lengths;
  private final int[] positions;
  private final String[] byPosition;
  private final byte[][] jsonByPosition;
  private final int mask;
  private final int size;

  private NodeNameIndex(String[] names) {
    int capacity = Integer.highestOneBit(Math.max(4, names.length * 2) - 1) << 1;
    this.table = new String[capacity];
    this.hashes = new int[capacity];
    this.starts = new int[capacity];
    this.lengths = new int[capacity];
    this.positions = new int[capacity];
    this.mask = capacity - 1;
    this.byPosition = names.clone();
    this.jsonByPosition = new byte[names.length][];
    for (int p = 0; p < names.length; p++) {
      jsonByPosition[p] = jsonSafeAscii(names[p]);
    }
    int n = 0;
    int total = 0;
    for (int p = 0; p < names.length; p++) {
      String name = names[p];
      if (name == null) {
        continue;
      }
      int h = name.hashCode();
      for (int i = spread(h) & mask; ; i = (i + 1) & mask) {
        if (table[i] == null) {
          table[i] = name;
          hashes[i] = h;
          positions[i] = p;
          n++;
          total += name.length();
          break;
        }
        if (hashes[i] == h && table[i].equals(name)) {
          break;
        }
      }
    }
    this.size = n;
    this.chars = new char[total];
    int at = 0;
    for (int i = 0; i < capacity; i++) {
      if (table[i] != null) {
        String name = table[i];
        name.getChars(0, name.length(), chars, at);
        starts[i] = at;
        lengths[i] = name.length();
        at += name.length();
      }
    }
  }

  /** An interner of {@code names} (nulls and repeats ignored). */
  public static NodeNameIndex of(String... names) {
    return names.length == 0 ? EMPTY : new NodeNameIndex(names);
  }

  /** The number of distinct names. */
  public int size() {
    return size;
  }

  /**
   * The canonical instance of the name made of {@code len} characters of {@code buf} from {@code
   * off}, or null when it is not one of this interner's names.
   */
  public String find(char[] buf, int off, int len) {
    int slot = slot(buf, off, len);
    return slot < 0 ? null : table[slot];
  }

  /**
   * The position in the array given to {@link #of} of the name made of {@code len} characters of
   * {@code buf} from {@code off} (its first occurrence), or -1 when it is not one of this
   * interner's names.
   */
  public int findPosition(char[] buf, int off, int len) {
    int slot = slot(buf, off, len);
    return slot < 0 ? -1 : positions[slot];
  }

  /**
   * The bytes JSON writes between the quotes of the name at {@code position}, when it is printable
   * ASCII with no quote or backslash (every DNS name), else null, as for a position of -1. Encoded
   * once per index, so a reply that names thousands of nodes copies bytes instead of encoding every
   * name again. Shared: do not modify.
   */
  public byte[] json(int position) {
    return position < 0 ? null : jsonByPosition[position];
  }

  private static byte[] jsonSafeAscii(String s) {
    if (s == null) {
      return null;
    }
    byte[] out = new byte[s.length()];
    for (int i = 0; i < out.length; i++) {
      char c = s.charAt(i);
      if (!ReplyBuffer.plain(c)) {
        return null;
      }
      out[i] = (byte) c;
    }
    return out;
  }

  /**
   * The name at {@code position} of the array given to {@link #of}, as given (null for a null
   * there).
   */
  public String name(int position) {
    return byPosition[position];
  }

  private int slot(char[] buf, int off, int len) {
    int h = 0;
    for (int k = off, end = off + len; k < end; k++) {
      h = 31 * h + buf[k];
    }
    for (int i = spread(h) & mask; ; i = (i + 1) & mask) {
      String s = table[i];
      if (s == null) {
        return -1;
      }
      if (hashes[i] == h && lengths[i] == len && sameChars(starts[i], buf, off, len)) {
        return i;
      }
    }
  }

  /**
   * The position in the array given to {@link #of} of {@code name} (its first occurrence), or -1
   * when it is not one of the names. The canonical instance is found by identity, others by
   * equality.
   */
  public int position(String name) {
    int h = name.hashCode();
    for (int i = spread(h) & mask; ; i = (i + 1) & mask) {
      String s = table[i];
      if (s == null) {
        return -1;
      }
      if (s == name || (hashes[i] == h && s.equals(name))) {
        return positions[i];
      }
    }
  }

  private boolean sameChars(int start, char[] buf, int off, int len) {
    return Arrays.equals(chars, start, start + len, buf, off, off + len);
  }

  private static int spread(int h) {
    return h ^ (h >>> 16);
  }
}
