package io.schedext.extender.wire;

import java.util.Arrays;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The node names of the last filter reply, with their positions in the name index they came from,
 * so that a request whose {@code NodeNames} repeat them byte for byte is decoded without looking
 * any name up. kube-scheduler sends a prioritize call the nodes its filter step kept, in the order
 * the extender's filter reply gave them, and marshals them as that reply wrote them: the second
 * decode is a byte comparison against the index's encodings of the names and a skip over the
 * array's tokens. Only the exact bytes count, against the same index; anything else is decoded as
 * before. Thread-safe.
 */
public final class RecentNames {

  /** The kept names: their index, and their positions in it, each a name it can encode. */
  private record Kept(NodeNameIndex index, int[] positions) {}

  private final AtomicReference<Kept> last = new AtomicReference<>();

  /**
   * Keeps the names at {@code positions} of {@code index}, in that order, as the last reply wrote
   * them; names the index cannot encode, or positions it has not (-1), keep nothing. The array is
   * kept, not copied.
   */
  public void keep(NodeNameIndex index, int[] positions) {
    for (int p : positions) {
      if (index.json(p) == null) {
        last.set(null);
        return;
      }
    }
    last.set(new Kept(index, positions));
  }

  /**
   * The kept names, decoded against {@code index}, when the JSON array that starts at {@code start}
   * of {@code body} (its '[') is byte for byte the array the last reply wrote; else null.
   */
  public NodeNameList match(byte[] body, long start, NodeNameIndex index) {
    Kept k = last.get();
    if (k == null || k.index() != index || start < 0 || start >= body.length) {
      return null;
    }
    int at = (int) start;
    if (body[at++] != '[') {
      return null;
    }
    int[] positions = k.positions();
    for (int i = 0; i < positions.length; i++) {
      if (i > 0) {
        if (at >= body.length || body[at++] != ',') {
          return null;
        }
      }
      byte[] name = index.json(positions[i]);
      int end = at + name.length + 2;
      if (end > body.length
          || body[at] != '"'
          || body[end - 1] != '"'
          || !Arrays.equals(body, at + 1, end - 1, name, 0, name.length)) {
        return null;
      }
      at = end;
    }
    if (at >= body.length || body[at] != ']') {
      return null;
    }
    NodeNameList out = new NodeNameList(index, positions.length);
    for (int p : positions) {
      out.append(index.name(p), p);
    }
    return out;
  }
}
