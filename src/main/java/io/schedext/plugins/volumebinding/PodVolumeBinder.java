package io.schedext.plugins.volumebinding;

import io.fabric8.kubernetes.api.model.PersistentVolume;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaim;
import io.schedext.framework.FrameworkException;
import io.schedext.framework.PodInfo;
import io.schedext.framework.VolumeWriter;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * Upstream's {@code BindPodVolumes}, PreBind's work: writes the assumed PVs (claim reference) and
 * then the claims to provision (selected-node annotation) through the API, putting back in the
 * caches whatever it did not write when a write fails; then, every second until the bind timeout,
 * checks whether the PV controller has bound them all ({@link BindingChecker}). Time comes from the
 * injected clock and sleeper. Thread-safe; one call per binding pod.
 */
final class PodVolumeBinder {

  /**
   * How often the binding is checked (upstream polls every second, first check after one interval).
   */
  static final Duration POLL_INTERVAL = Duration.ofSeconds(1);

  private final VolumeAssumeCaches caches;
  private final VolumeWriter writer;
  private final BindingChecker checker;
  private final Duration bindTimeout;
  private final Clock clock;
  private final Sleeper sleeper;

  PodVolumeBinder(
      VolumeAssumeCaches caches,
      VolumeWriter writer,
      Duration bindTimeout,
      Clock clock,
      Sleeper sleeper) {
    this.caches = caches;
    this.writer = writer;
    this.checker = new BindingChecker(caches, writer);
    this.bindTimeout = bindTimeout;
    this.clock = clock;
    this.sleeper = sleeper;
  }

  /**
   * Writes {@code volumes} (as assumed by Reserve) for {@code pod} on {@code nodeName} and waits
   * until they are bound. Throws {@link FrameworkException}: the API's message when a write fails,
   * {@code binding volumes: <why>} when the check fails or the timeout ({@code context deadline
   * exceeded}) or an interrupt ({@code context canceled}) ends the wait.
   */
  void bindPodVolumes(
      PodInfo pod,
      String nodeName,
      PodVolumes volumes,
      Function<String, Map<String, String>> nodeLabels) {
    List<BindingInfo> bindings = new ArrayList<>(volumes.staticBindings());
    List<PersistentVolumeClaim> claims = new ArrayList<>(volumes.dynamicProvisions());
    bindApiUpdate(bindings, claims);
    try {
      waitUntilBound(() -> checker.check(pod, nodeName, bindings, claims, nodeLabels));
    } catch (FrameworkException e) {
      throw new FrameworkException("binding volumes: " + e.getMessage(), e);
    }
  }

  /**
   * Writes the volumes, then the claims, replacing each in the lists by what the API returned; on a
   * failure restores the cache entries of the ones not written and rethrows.
   */
  void bindApiUpdate(List<BindingInfo> bindings, List<PersistentVolumeClaim> claims) {
    int writtenVolumes = 0;
    int writtenClaims = 0;
    try {
      for (; writtenVolumes < bindings.size(); writtenVolumes++) {
        BindingInfo b = bindings.get(writtenVolumes);
        PersistentVolume written = writer.updatePersistentVolume(b.pv());
        bindings.set(writtenVolumes, new BindingInfo(b.pvc(), written));
      }
      for (; writtenClaims < claims.size(); writtenClaims++) {
        claims.set(writtenClaims, writer.updatePersistentVolumeClaim(claims.get(writtenClaims)));
      }
    } finally {
      for (int i = writtenVolumes; i < bindings.size(); i++) {
        caches.pvs().restore(bindings.get(i).pv().getMetadata().getName());
      }
      for (int i = writtenClaims; i < claims.size(); i++) {
        caches.pvcs().restore(AssumeCache.keyOf(claims.get(i)));
      }
    }
  }

  /** A condition that may fail with {@link FrameworkException}. */
  @FunctionalInterface
  interface Condition {
    boolean done();
  }

  /**
   * apimachinery's {@code PollUntilContextTimeout(interval 1s, timeout, immediate=false)}: sleeps
   * an interval, checks, repeats; the deadline wins a tie with a tick.
   */
  void waitUntilBound(Condition condition) {
    Instant deadline = clock.instant().plus(bindTimeout);
    while (true) {
      Instant now = clock.instant();
      Instant wake = now.plus(POLL_INTERVAL);
      Duration nap = Duration.between(now, wake.isBefore(deadline) ? wake : deadline);
      try {
        sleeper.sleep(nap.isNegative() ? Duration.ZERO : nap);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new FrameworkException("context canceled");
      }
      if (!clock.instant().isBefore(deadline)) {
        throw new FrameworkException("context deadline exceeded");
      }
      if (condition.done()) {
        return;
      }
    }
  }
}
