package io.schedext.framework;

import java.util.List;

/**
 * Read access to the nodes of one immutable snapshot, as upstream's {@code NodeInfoLister}.
 * Implementations are thread-safe and never change after they are published.
 */
public interface NodeInfoLister {

  /** Every node with a Node object, in NodeTree (zone round-robin) order. */
  List<NodeInfo> list();

  /** Nodes with at least one pod that has pod affinity or anti-affinity. */
  List<NodeInfo> havePodsWithAffinityList();

  /** Nodes with at least one pod that has required pod anti-affinity. */
  List<NodeInfo> havePodsWithRequiredAntiAffinityList();

  /** The node named {@code name}, or null when the snapshot has no such node. */
  NodeInfo get(String name);

  /** The number of nodes. */
  default int size() {
    return list().size();
  }

  /** The cache generation this snapshot reflects. */
  long generation();

  /**
   * Whether some pod of the snapshot uses the PersistentVolumeClaim {@code claimKey} ({@code
   * namespace/name}), as upstream's {@code StorageInfoLister.IsPVCUsedByPods}. This default looks
   * at every node; an implementation may answer from an index.
   */
  default boolean isPvcUsedByPods(String claimKey) {
    for (NodeInfo n : list()) {
      if (n.pvcRefCounts().containsKey(claimKey)) {
        return true;
      }
    }
    return false;
  }
}
