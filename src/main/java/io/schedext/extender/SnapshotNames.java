package io.schedext.extender;

import io.schedext.cache.Snapshot;
import io.schedext.extender.wire.NodeNameIndex;
import io.schedext.framework.NodeInfo;
import java.util.List;

/**
 * The {@link NodeNameIndex} of a snapshot's node order, for decoding {@code NodeNames}. Built once
 * per node order and handed on while the cache keeps that order ({@link Snapshot#sameNodeOrder}),
 * so the calls between two node additions or removals share one index; a node order change builds
 * the next one on first use. Thread-safe.
 */
final class SnapshotNames {

  /** The last index built, with the newest snapshot it is known to serve. */
  private record Built(Snapshot snapshot, NodeNameIndex index) {}

  private volatile Built last;

  /**
   * The index of {@code snapshot}'s node names: position {@code i} is {@code
   * snapshot.list().get(i)}.
   */
  NodeNameIndex of(Snapshot snapshot) {
    Built b = last;
    if (b != null && b.snapshot() == snapshot) {
      return b.index();
    }
    if (b != null && b.snapshot().sameNodeOrder(snapshot)) {
      // Remember the newer snapshot instead, so the older one is not kept alive by this holder.
      last = new Built(snapshot, b.index());
      return b.index();
    }
    List<NodeInfo> nodes = snapshot.list();
    String[] names = new String[nodes.size()];
    for (int i = 0; i < names.length; i++) {
      names[i] = nodes.get(i).name();
    }
    NodeNameIndex index = NodeNameIndex.of(names);
    last = new Built(snapshot, index);
    return index;
  }
}
