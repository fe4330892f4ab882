package io.schedext.framework;

import java.util.List;
import java.util.Set;
import java.util.function.BooleanSupplier;
import java.util.function.Function;

/**
 * Knows which pending pods are nominated to which node (their {@code status.nominatedNodeName}).
 * Thread-safe.
 */
public interface PodNominator {

  /** A nominator that knows of no nominated pods. */
  PodNominator NONE = of(nodeName -> List.of(), () -> true);

  /**
   * A nominator answering with {@code byNode}, reporting "nothing nominated" with {@code isEmpty}.
   */
  static PodNominator of(Function<String, List<PodInfo>> byNode, BooleanSupplier isEmpty) {
    return new PodNominator() {
      @Override
      public List<PodInfo> nominatedPodsForNode(String nodeName) {
        return byNode.apply(nodeName);
      }

      @Override
      public boolean isEmpty() {
        return isEmpty.getAsBoolean();
      }
    };
  }

  /** The pods nominated to {@code nodeName}. */
  List<PodInfo> nominatedPodsForNode(String nodeName);

  /**
   * True only when no pod is nominated to any node, so per-node loops can skip the lookup; false
   * when unsure (the default).
   */
  default boolean isEmpty() {
    return false;
  }

  /**
   * The UIDs of the pods this extender agreed to evict from {@code nodeName} to make room for the
   * pod with UID {@code preemptor} (its preempt verb's answers); empty when none (the default).
   * kube-scheduler deletes those of the node it then nominates the preemptor to, and retries the
   * pod there as soon as the deletions are under way, by when its own cache no longer holds them; a
   * watch that lags behind it still does. The Filter of that pod on that node treats them, where
   * they are still there and not yet terminating, as gone, as kube-scheduler's cache does.
   */
  default Set<String> victimsAgreed(String preemptor, String nodeName) {
    return Set.of();
  }

  /**
   * The nodes on which this extender agreed to evict pods for the pod with UID {@code preemptor}
   * ({@link #victimsAgreed}); empty when none (the default).
   */
  default Set<String> nodesWithVictimsAgreed(String preemptor) {
    return Set.of();
  }
}
