package io.schedext.cache;

import io.fabric8.kubernetes.api.model.Node;
import io.schedext.framework.ImageStateSummary;
import io.schedext.framework.NodeInfo;
import java.util.HashMap;
import java.util.Map;
import java.util.function.BiConsumer;

/**
 * The cache's node entries by name, linked most recently changed first, as upstream's cache keeps
 * its {@code nodes} map and {@code headNode} list: a snapshot walks from the head only as far as
 * the entries changed since the last one. Ghost entries (pods of a node not known or gone) are
 * entries too. Not thread-safe: the cache calls it under its lock.
 */
final class NodeEntries {

  /** One node entry: its node info and its place in the list. */
  static final class Item {
    final NodeInfo info;
    Item prev;
    Item next;
    // The image summaries last given to a snapshot copy of this node, with the node object and the
    // image-state version they were computed for: a pod change leaves both alone, so the next copy
    // reuses them.
    Map<String, ImageStateSummary> summaries;
    Node summariesOf;
    long summariesVersion;

    Item(NodeInfo info) {
      this.info = info;
    }
  }

  private final Map<String, Item> byName = new HashMap<>();
  private Item head;

  /** The entry of {@code name}, or null. */
  Item get(String name) {
    return byName.get(name);
  }

  /** A new empty entry for {@code name}, not yet in the list (see {@link #moveToHead}). */
  Item add(String name) {
    Item n = new Item(new NodeInfo());
    byName.put(name, n);
    return n;
  }

  /** The most recently changed entry, or null. */
  Item head() {
    return head;
  }

  /** Every entry with its name, in no particular order. */
  void forEach(BiConsumer<String, Item> action) {
    byName.forEach(action);
  }

  /** How many entries there are. */
  int size() {
    return byName.size();
  }

  /** Moves the entry of {@code name} to the head and returns it; null when there is none. */
  Item moveToHead(String name) {
    Item n = byName.get(name);
    if (n == null) {
      return null;
    }
    if (n != head) {
      if (n.prev != null) {
        n.prev.next = n.next;
      }
      if (n.next != null) {
        n.next.prev = n.prev;
      }
      if (head != null) {
        head.prev = n;
      }
      n.next = head;
      n.prev = null;
      head = n;
    }
    return n;
  }

  /** Removes the entry of {@code name} and returns it; null when there is none. */
  Item remove(String name) {
    Item n = byName.remove(name);
    if (n == null) {
      return null;
    }
    if (n.prev != null) {
      n.prev.next = n.next;
    }
    if (n.next != null) {
      n.next.prev = n.prev;
    }
    if (n == head) {
      head = n.next;
    }
    return n;
  }
}
