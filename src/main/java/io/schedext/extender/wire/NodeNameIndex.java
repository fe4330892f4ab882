package io.schedext.extender.wire;

/**
 * The canonical instances of a fixed set of node names, found from the characters of a name without
 * building a {@code String}. The request decoder uses it for {@code NodeNames}: a name the cache
 * knows costs no allocation and comes back as the very instance the snapshot is keyed by (hash
 * already computed), so the thousands of names of one request are neither copied nor hashed again.
 * Immutable and thread-safe.
 *
 * <p>Laid out for memory that other processes keep taking back: the extender shares its CPUs with
 * kube-scheduler and the API server, so a call's lookups mostly start from cold caches. The names'
 * characters are packed in position order, and the hash table is one array of (hash, position)
 * pairs, so a probe reads one cache line and a match one more. kube-scheduler sends the names of
 * one call in its own node order, a few runs of the index's order woven together: a lookup given
 * the position the names before it predict ({@link #findPosition(char[], int, int, int)}) compares
 * against that name first, and skips the hash table when it is right.
 */
public final class NodeNameIndex {

  private static final NodeNameIndex EMPTY = new NodeNameIndex(new String[0]);

  /** Per slot: the name's hash in the high half, its position + 1 in the low half; 0 is empty. */
  private final long[] slots;

  private final int mask;
  private final int size;

  /** The characters of every name, in position order; position p's are starts[p]..starts[p+1]. */
  private final char[] chars;

  private final int[] starts;

  /** Per position: true when the name there is not null and not given earlier. */
  private final boolean[] first;

  private final String[] byPosition;
  private final byte[][] jsonByPosition;

  private NodeNameIndex(String[] names) {
    int capacity = Integer.highestOneBit(Math.max(4, names.length * 2) - 1) << 1;
    this.slots = new long[capacity];
    this.mask = capacity - 1;
    this.byPosition = names.clone();
    this.jsonByPosition = new byte[names.length][];
    this.first = new boolean[names.length];
    this.starts = new int[names.length + 1];
    int total = 0;
    for (int p = 0; p < names.length; p++) {
      total += names[p] == null ? 0 : names[p].length();
    }
    this.chars = new char[total];
    int at = 0;
    int n = 0;
    for (int p = 0; p < names.length; p++) {
      String name = names[p];
      starts[p] = at;
      if (name == null) {
        continue;
      }
      jsonByPosition[p] = jsonSafeAscii(name);
      name.getChars(0, name.length(), chars, at);
      at += name.length();
      int h = name.hashCode();
      for (int i = spread(h) & mask; ; i = (i + 1) & mask) {
        long e = slots[i];
        if (e == 0) {
          slots[i] = entry(h, p);
          first[p] = true;
          n++;
          break;
        }
        if (hash(e) == h && name.equals(byPosition[position(e)])) {
          break;
        }
      }
    }
    starts[names.length] = at;
    this.size = n;
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
    int p = findPosition(buf, off, len);
    return p < 0 ? null : byPosition[p];
  }

  /**
   * The position in the array given to {@link #of} of the name made of {@code len} characters of
   * {@code buf} from {@code off} (its first occurrence), or -1 when it is not one of this
   * interner's names.
   */
  public int findPosition(char[] buf, int off, int len) {
    int h = 0;
    for (int k = off, end = off + len; k < end; k++) {
      h = 31 * h + buf[k];
    }
    for (int i = spread(h) & mask; ; i = (i + 1) & mask) {
      long e = slots[i];
      if (e == 0) {
        return -1;
      }
      if (hash(e) == h && sameChars(position(e), buf, off, len)) {
        return position(e);
      }
    }
  }

  /**
   * As {@link #findPosition(char[], int, int)}, trying position {@code likely} first: the answer is
   * the same whatever {@code likely} is (any int), only cheaper when it is right.
   */
  public int findPosition(char[] buf, int off, int len, int likely) {
    if (likely >= 0 && likely < first.length && first[likely] && sameChars(likely, buf, off, len)) {
      return likely;
    }
    return findPosition(buf, off, len);
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

  /**
   * The position in the array given to {@link #of} of {@code name} (its first occurrence), or -1
   * when it is not one of the names. The canonical instance is found by identity, others by
   * equality.
   */
  public int position(String name) {
    int h = name.hashCode();
    for (int i = spread(h) & mask; ; i = (i + 1) & mask) {
      long e = slots[i];
      if (e == 0) {
        return -1;
      }
      String s = byPosition[position(e)];
      if (s == name || (hash(e) == h && s.equals(name))) {
        return position(e);
      }
    }
  }

  /** True when the name at {@code p} is exactly {@code len} characters of {@code buf}. */
  private boolean sameChars(int p, char[] buf, int off, int len) {
    int start = starts[p];
    if (starts[p + 1] - start != len) {
      return false;
    }
    for (int k = 0; k < len; k++) {
      if (chars[start + k] != buf[off + k]) {
        return false;
      }
    }
    return true;
  }

  private static long entry(int hash, int position) {
    return ((long) hash << 32) | (position + 1L);
  }

  private static int hash(long entry) {
    return (int) (entry >>> 32);
  }

  private static int position(long entry) {
    return (int) entry - 1;
  }

  private static int spread(int h) {
    return h ^ (h >>> 16);
  }
}
