package io.schedext.extender;

import io.schedext.cache.Snapshot;
import io.schedext.extender.wire.NodeNameIndex;
import io.schedext.framework.runtime.Framework;
import java.util.function.Supplier;

/**
 * One call of a verb as the boundary resolved it: the framework of its profile, and the snapshot of
 * the cache it is decoded against and answered on. The snapshot is taken once, on first use, and
 * kept for the whole call, so the positions of the decoded {@code NodeNames} ({@link #names()})
 * index the very node order the verb reads, and concurrent cache updates never show the call half
 * an update. Confined to the call's thread (or handed on to one other thread with a happens-before
 * edge, as a bind's executor does).
 */
final class Call {

  private final Framework framework;
  private final Supplier<Snapshot> snapshots;
  private final SnapshotNames nameIndexes;
  private Snapshot snapshot;
  private NodeNameIndex names;

  /**
   * A call on {@code framework} whose snapshot comes from {@code snapshots} on first use, with its
   * name index from {@code nameIndexes}.
   */
  Call(Framework framework, Supplier<Snapshot> snapshots, SnapshotNames nameIndexes) {
    this.framework = framework;
    this.snapshots = snapshots;
    this.nameIndexes = nameIndexes;
  }

  /**
   * A call on {@code framework} over exactly {@code snapshot} (tests, and explaining on a prepared
   * snapshot).
   */
  static Call on(Framework framework, Snapshot snapshot) {
    return new Call(framework, () -> snapshot, new SnapshotNames());
  }

  /** The framework of the call's profile. */
  Framework framework() {
    return framework;
  }

  /** The call's snapshot: taken on the first call of this method, the same one after. */
  Snapshot snapshot() {
    Snapshot s = snapshot;
    if (s == null) {
      s = snapshots.get();
      snapshot = s;
    }
    return s;
  }

  /**
   * The index of {@link #snapshot()}'s node names that the request's {@code NodeNames} are decoded
   * against.
   */
  NodeNameIndex names() {
    NodeNameIndex n = names;
    if (n == null) {
      n = nameIndexes.of(snapshot());
      names = n;
    }
    return n;
  }
}
