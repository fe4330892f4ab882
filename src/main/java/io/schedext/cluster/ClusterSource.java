package io.schedext.cluster;

import io.fabric8.kubernetes.api.model.Pod;
import io.schedext.framework.PodBinder;
import io.schedext.framework.PodNominator;
import io.schedext.framework.VolumeWriter;
import java.util.List;

/**
 * Where the cluster state comes from: it feeds the scheduler cache and the object store, says when
 * that state is complete, writes bindings and volumes, and finds pods that are not assigned yet.
 * Implementations are thread-safe.
 */
public interface ClusterSource extends AutoCloseable {

  /** A one-line description for logs and the debug view. */
  String describe();

  /** Loads or starts syncing the state; throws {@link ClusterSourceException} when it cannot. */
  void start();

  /** True once the state is complete (file loaded, every informer synced) and not lost since. */
  boolean isReady();

  /** Why the source is not ready, or "" when it is. */
  String notReadyReason();

  /** Writes pod bindings. */
  PodBinder binder();

  /** Writes PersistentVolumes and claims (VolumeBinding's PreBind). */
  VolumeWriter volumeWriter();

  /** Knows the pods nominated to each node. */
  PodNominator nominator();

  /** The unassigned pod with this namespace, name and UID (empty UID = any), or null. */
  Pod findPod(String namespace, String name, String uid);

  /**
   * The pods not assigned to a node yet, as the source last saw them (a copy; empty when it keeps
   * none).
   */
  default List<Pod> pendingPods() {
    return List.of();
  }

  /**
   * Reads the source now and lists how the cache differs from it (missing, extra or misplaced nodes
   * and pods); empty when they agree. The embedded cluster is the cache's own source, so it has
   * nothing to compare.
   */
  default List<String> compare() {
    return List.of();
  }

  /**
   * Whether this source keeps the cache up to date from watch events ({@link #readWatchEvents}).
   */
  default boolean watches() {
    return false;
  }

  /**
   * Decodes each of {@code events} (watch events as the API server writes them), {@code times}
   * over, as this source's watches decode theirs, and reads it as its event handlers would, keeping
   * nothing: that code then runs on events no cache should see (before readiness, so that it is
   * compiled before real events come). Nothing for a source without watches.
   */
  default void readWatchEvents(List<String> events, int times) {}

  @Override
  default void close() {}
}
