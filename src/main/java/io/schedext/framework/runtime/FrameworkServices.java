package io.schedext.framework.runtime;

import io.schedext.framework.ClusterObjects;
import io.schedext.framework.FrameworkMetrics;
import io.schedext.framework.PodBinder;
import io.schedext.framework.PodNominator;
import io.schedext.framework.ResourceClaimTracker;
import io.schedext.framework.ResourceClaimWriter;
import io.schedext.framework.Timers;
import io.schedext.framework.VolumeWriter;
import io.schedext.framework.parallelize.Parallelizer;
import java.time.Clock;
import java.util.Objects;

/**
 * The shared services every framework instance (one per profile) is built with.
 *
 * @param clusterObjects cluster listers
 * @param binder the pod binder
 * @param parallelizer the shared parallel pool
 * @param nominator nominated pods per node
 * @param clock the clock
 * @param timers timer service for Permit waits
 * @param waitingPods the pods held at Permit (shared by all profiles)
 * @param metrics where timings go
 * @param volumeWriter writes PersistentVolumes and claims
 * @param claimWriter writes ResourceClaims (DynamicResources' PreBind)
 * @param resourceClaims the ResourceClaims with the allocations in flight, shared by every profile
 */
public record FrameworkServices(
    ClusterObjects clusterObjects,
    PodBinder binder,
    Parallelizer parallelizer,
    PodNominator nominator,
    Clock clock,
    Timers timers,
    WaitingPodsMap waitingPods,
    FrameworkMetrics metrics,
    VolumeWriter volumeWriter,
    ResourceClaimWriter claimWriter,
    ResourceClaimTracker resourceClaims) {

  /** Checks that nothing is null. */
  public FrameworkServices {
    Objects.requireNonNull(clusterObjects, "clusterObjects");
    Objects.requireNonNull(binder, "binder");
    Objects.requireNonNull(parallelizer, "parallelizer");
    Objects.requireNonNull(nominator, "nominator");
    Objects.requireNonNull(clock, "clock");
    Objects.requireNonNull(timers, "timers");
    Objects.requireNonNull(waitingPods, "waitingPods");
    Objects.requireNonNull(metrics, "metrics");
    Objects.requireNonNull(volumeWriter, "volumeWriter");
    Objects.requireNonNull(claimWriter, "claimWriter");
    Objects.requireNonNull(resourceClaims, "resourceClaims");
  }

  /**
   * Services writing volumes through {@code volumeWriter} and no ResourceClaims ({@link
   * ResourceClaimWriter#NONE}), with a claim tracker of their own.
   */
  public FrameworkServices(
      ClusterObjects clusterObjects,
      PodBinder binder,
      Parallelizer parallelizer,
      PodNominator nominator,
      Clock clock,
      Timers timers,
      WaitingPodsMap waitingPods,
      FrameworkMetrics metrics,
      VolumeWriter volumeWriter) {
    this(
        clusterObjects,
        binder,
        parallelizer,
        nominator,
        clock,
        timers,
        waitingPods,
        metrics,
        volumeWriter,
        ResourceClaimWriter.NONE,
        new ResourceClaimTracker(clusterObjects));
  }

  /**
   * Services for a source that cannot write volumes nor claims ({@link VolumeWriter#NONE}, {@link
   * ResourceClaimWriter#NONE}).
   */
  public FrameworkServices(
      ClusterObjects clusterObjects,
      PodBinder binder,
      Parallelizer parallelizer,
      PodNominator nominator,
      Clock clock,
      Timers timers,
      WaitingPodsMap waitingPods,
      FrameworkMetrics metrics) {
    this(
        clusterObjects,
        binder,
        parallelizer,
        nominator,
        clock,
        timers,
        waitingPods,
        metrics,
        VolumeWriter.NONE);
  }
}
