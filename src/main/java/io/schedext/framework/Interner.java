package io.schedext.framework;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * One shared instance per distinct key, as {@link String#intern()} for memo keys: {@link
 * NodeInfo#memoizeObject} and {@link NodeInfo#memoize} compare keys by reference before hashing
 * them, so a plugin that looks up the same key on every node of every request interns it once per
 * request and then settles each node with one comparison instead of hashing a record of lists and
 * maps per node.
 *
 * <p>Holds at most {@code capacity} keys; when full it forgets them all, which costs only speed
 * (node memos filled under a forgotten instance are found again by {@code equals}). Thread-safe.
 *
 * @param <K> the key type, with value {@code equals} and {@code hashCode} (a record of the keyed
 *     function's inputs)
 */
public final class Interner<K> {

  private final int capacity;
  private final Map<K, K> instances = new ConcurrentHashMap<>();

  /** An interner holding at most {@code capacity} keys. */
  public Interner(int capacity) {
    if (capacity < 1) {
      throw new IllegalArgumentException("capacity must be positive: " + capacity);
    }
    this.capacity = capacity;
  }

  /**
   * The instance held for keys equal to {@code key}: {@code key} itself when none was held. Not
   * null.
   */
  public K intern(K key) {
    K held = instances.get(key);
    if (held != null) {
      return held;
    }
    if (instances.size() >= capacity) {
      instances.clear();
    }
    held = instances.putIfAbsent(key, key);
    return held == null ? key : held;
  }

  /** The keys held now; for tests. */
  int size() {
    return instances.size();
  }
}
