package io.schedext.cache;

/**
 * The canonical instances of a fixed set of node names, found from the characters of a name without building a
 * {@code String}. The request decoder uses it for {@code NodeNames}: a name the cache knows costs no allocation and
 * comes back as the very instance the snapshot is keyed by (hash already computed), so the thousands of names of one
 * request are neither copied nor hashed again. Immutable and thread-safe.
 */
public final class NameInterner {

  private static final NameInterner EMPTY = new NameInterner(new String[0]);

  private final String[] table;
  private final int[] hashes;
  private final int mask;
  private final int size;

  private NameInterner(String[] names) {
    int capacity = Integer.highestOneBit(Math.max(4, names.length * 2) - 1) << 1;
    this.table = new String[capacity];
    this.hashes = new int[capacity];
    this.mask = capacity - 1;
    int n = 0;
    for (String name : names) {
      if (name == null) {
        continue;
      }
      int h = name.hashCode();
      for (int i = spread(h) & mask; ; i = (i + 1) & mask) {
        if (table[i] == null) {
          table[i] = name;
          hashes[i] = h;
          n++;
          break;
        }
        if (hashes[i] == h && table[i].equals(name)) {
          break;
        }
      }
    }
    this.size = n;
  }

  /** An interner of {@code names} (nulls and repeats ignored). */
  public static NameInterner of(String... names) {
    return names.length == 0 ? EMPTY : new NameInterner(names);
  }

  /** The number of distinct names. */
  public int size() {
    return size;
  }

  /**
   * The canonical instance of the name made of {@code len} characters of {@code buf} from {@code off}, or null when
   * it is not one of this interner's names.
   */
  public String find(char[] buf, int off, int len) {
    int h = 0;
    for (int k = off, end = off + len; k < end; k++) {
      h = 31 * h + buf[k];
    }
    for (int i = spread(h) & mask; ; i = (i + 1) & mask) {
      String s = table[i];
      if (s == null) {
        return null;
      }
      if (hashes[i] == h && sameChars(s, buf, off, len)) {
        return s;
      }
    }
  }

  private static boolean sameChars(String s, char[] buf, int off, int len) {
    if (s.length() != len) {
      return false;
    }
    for (int k = 0; k < len; k++) {
      if (s.charAt(k) != buf[off + k]) {
        return false;
      }
    }
    return true;
  }

  private static int spread(int h) {
    return h ^ (h >>> 16);
  }
}
