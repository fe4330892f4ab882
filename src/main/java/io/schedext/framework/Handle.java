package io.schedext.framework;

import io.schedext.framework.parallelize.Parallelizer;
import java.time.Clock;

/**
 * What the framework gives its plugins: cluster listers, the binder, volume and claim writes, the
 * claims in flight, parallelism, waiting pods and time.
 */
public interface Handle {

  /** Services, volumes, storage classes, PDBs and the other cluster objects. */
  ClusterObjects clusterObjects();

  /** Writes pod bindings. */
  PodBinder binder();

  /** Writes PersistentVolumes and claims (VolumeBinding's PreBind). */
  VolumeWriter volumeWriter();

  /** Writes ResourceClaims (DynamicResources' PreBind). */
  ResourceClaimWriter claimWriter();

  /**
   * The ResourceClaims with the allocations in flight and those written but not seen yet, shared by
   * every profile.
   */
  ResourceClaimTracker resourceClaims();

  /** Runs work in parallel over the bounded scheduling pool. */
  Parallelizer parallelizer();

  /** The pods currently held at Permit. */
  WaitingPods waitingPods();

  /** Knows the nominated pods per node. */
  PodNominator nominator();

  /** Runs this profile's plugins (for plugins that simulate, like preemption). */
  PluginsRunner framework();

  /** The clock. */
  Clock clock();
}
