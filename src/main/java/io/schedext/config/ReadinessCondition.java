package io.schedext.config;

/**
 * A condition readiness waits for once the cluster state is in, besides it (the health indicator
 * {@code clusterState}): its reason while it is not met, shown as readiness's reason. Thread-safe.
 */
@FunctionalInterface
public interface ReadinessCondition {

  /** Why readiness must wait, or null once the condition is met. */
  String notReadyReason();
}
