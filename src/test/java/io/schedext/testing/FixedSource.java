package io.schedext.testing;

import io.fabric8.kubernetes.api.model.Pod;
import io.schedext.cluster.ClusterSource;
import io.schedext.framework.PodBinder;
import io.schedext.framework.PodNominator;
import io.schedext.framework.VolumeWriter;

/**
 * A cluster source for tests whose readiness is fixed: no pods to find, nothing to nominate, binds
 * accepted.
 */
public final class FixedSource implements ClusterSource {

  private final boolean ready;
  private final String reason;

  private FixedSource(boolean ready, String reason) {
    this.ready = ready;
    this.reason = reason;
  }

  /** A source that is always ready. */
  public static FixedSource ready() {
    return new FixedSource(true, "");
  }

  /** A source that is never ready, for {@code reason}. */
  public static FixedSource notReady(String reason) {
    return new FixedSource(false, reason);
  }

  @Override
  public String describe() {
    return "fixed test source";
  }

  @Override
  public void start() {}

  @Override
  public boolean isReady() {
    return ready;
  }

  @Override
  public String notReadyReason() {
    return reason;
  }

  @Override
  public PodBinder binder() {
    return (p, n) -> {};
  }

  @Override
  public PodNominator nominator() {
    return PodNominator.NONE;
  }

  @Override
  public Pod findPod(String namespace, String name, String uid) {
    return null;
  }

  @Override
  public VolumeWriter volumeWriter() {
    return VolumeWriter.NONE;
  }
}
