package io.schedext.extender.wire;

import java.util.AbstractList;
import java.util.Arrays;
import java.util.RandomAccess;

/**
 * The {@code NodeNames} of a request as decoded against a {@link NodeNameIndex}: each name with its
 * position in the index (the snapshot's node order), or -1 for a name the index does not hold. The
 * service then finds each candidate's node info by index instead of hashing the name again.
 * Immutable once decoded.
 */
public final class NodeNameList extends AbstractList<String> implements RandomAccess {

  private final NodeNameIndex index;
  private String[] names;
  private int[] positions;
  private int size;

  NodeNameList(NodeNameIndex index, int capacity) {
    this.index = index;
    this.names = new String[Math.max(4, capacity)];
    this.positions = new int[names.length];
  }

  void append(String name, int position) {
    if (size == names.length) {
      names = Arrays.copyOf(names, size * 2);
      positions = Arrays.copyOf(positions, size * 2);
    }
    names[size] = name;
    positions[size] = position;
    size++;
  }

  /** The index the names were decoded against. */
  public NodeNameIndex index() {
    return index;
  }

  /** The position of name {@code i} in {@link #index()}, or -1 when it holds no such name. */
  public int position(int i) {
    if (i >= size) {
      throw new IndexOutOfBoundsException(i);
    }
    return positions[i];
  }

  @Override
  public String get(int i) {
    if (i >= size) {
      throw new IndexOutOfBoundsException(i);
    }
    return names[i];
  }

  @Override
  public int size() {
    return size;
  }
}
