package io.schedext.framework;

import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The ResourceClaims as scheduling must see them, shared by every profile (upstream's {@code
 * claimTracker} of the shared DRA manager): the informer's claims, overlaid with the allocations in
 * flight (Reserve made them, PreBind has not written them yet) and with the claims PreBind wrote
 * whose informer update has not arrived (the assume cache). A device is taken from the moment
 * Reserve chose it: whichever cycle starts next sees it allocated, until the informer shows the
 * claim as written or Unreserve gives it back. Thread-safe.
 */
public final class ResourceClaimTracker {

  private final ClusterObjects objects;
  // Claim UID -> the claim with the allocation Reserve chose.
  private final ConcurrentHashMap<String, ResourceClaim> inFlight = new ConcurrentHashMap<>();
  // namespace/name -> the claim as PreBind's API call returned it, until the informer's is as new.
  private final ConcurrentHashMap<String, ResourceClaim> assumed = new ConcurrentHashMap<>();

  /** A tracker over the informer's claims in {@code objects}. */
  public ResourceClaimTracker(ClusterObjects objects) {
    this.objects = objects;
  }

  /**
   * The claim {@code namespace/name}: the version PreBind wrote when the informer has not caught up
   * with it yet, else the informer's; null when the informer has none.
   */
  public ResourceClaim get(String namespace, String name) {
    ResourceClaim api = objects.resourceClaim(namespace, name);
    String key = namespace + "/" + name;
    ResourceClaim a = assumed.get(key);
    if (a == null) {
      return api;
    }
    if (api == null || !olderThan(api, a)) {
      // Deleted, or the informer has caught up: the assumption has served its purpose.
      assumed.remove(key, a);
      return api;
    }
    return a;
  }

  /** Whether Reserve allocated the claim with this UID and PreBind has not finished with it. */
  public boolean claimHasPendingAllocation(String uid) {
    return inFlight.containsKey(uid);
  }

  /** Records that Reserve allocated {@code allocated} (the claim with its allocation). */
  public synchronized void signalClaimPendingAllocation(String uid, ResourceClaim allocated) {
    inFlight.put(uid, allocated);
  }

  /**
   * Records, as {@link #signalClaimPendingAllocation} does, that Reserve allocated {@code
   * allocated} to the claim with this UID, unless one of its devices is taken by another claim
   * (allocated, in flight or assumed): then nothing is recorded and that device is returned. Check
   * and record are one step, so two cycles that chose the same device from what they saw before
   * either reserved cannot both have it. kube-scheduler never needs this (its scheduling cycles,
   * Reserve included, run one at a time); the extender's binds do run at once.
   */
  public synchronized DeviceId reserveIfFree(String uid, ResourceClaim allocated) {
    List<DeviceId> wanted = AllocatedDevices.takenBy(allocated);
    if (!wanted.isEmpty()) {
      List<DeviceId> others = new ArrayList<>();
      inFlight.forEach(
          (other, c) -> {
            if (!other.equals(uid)) {
              others.addAll(AllocatedDevices.takenBy(c));
            }
          });
      String key = allocated.getMetadata().getNamespace() + "/" + allocated.getMetadata().getName();
      assumed.forEach(
          (other, c) -> {
            if (!other.equals(key)) {
              others.addAll(AllocatedDevices.takenBy(c));
            }
          });
      TakenDevices taken = objects.allocatedDevices().devices().plus(others);
      for (DeviceId d : wanted) {
        if (taken.contains(d)) {
          return d;
        }
      }
    }
    inFlight.put(uid, allocated);
    return null;
  }

  /** Forgets the allocation in flight for the claim with this UID; true when there was one. */
  public synchronized boolean removeClaimPendingAllocation(String uid) {
    return inFlight.remove(uid) != null;
  }

  /**
   * Keeps {@code written} (what the API server returned for PreBind's write) as the claim's version
   * until the informer delivers one as new. Refused (false) when the informer's is newer already,
   * or does not know the claim.
   */
  public synchronized boolean assumeClaimAfterApiCall(ResourceClaim written) {
    String ns = written.getMetadata().getNamespace();
    String name = written.getMetadata().getName();
    ResourceClaim api = objects.resourceClaim(ns, name);
    if (api == null || olderThan(written, api)) {
      return false;
    }
    assumed.put(ns + "/" + name, written);
    return true;
  }

  /** Drops an assumed version of {@code namespace/name}: the informer's counts again. */
  public synchronized void assumedClaimRestore(String namespace, String name) {
    assumed.remove(namespace + "/" + name);
  }

  /**
   * Every device taken: by the informer's claims, by the assumed ones and by the allocations in
   * flight. Read until no claim changed while reading (upstream's retry on a concurrent
   * modification), so a claim moving from in flight to assumed to the informer is never missed.
   */
  public TakenDevices allocatedDevices() {
    while (true) {
      AllocatedDevices base = objects.allocatedDevices();
      List<DeviceId> more = new ArrayList<>();
      // In flight first: PreBind assumes a claim before it stops tracking it as in flight, so a
      // claim that left the in-flight map after this read is in the assumed map read next.
      for (ResourceClaim c : inFlight.values()) {
        more.addAll(AllocatedDevices.takenBy(c));
      }
      for (ResourceClaim c : assumed.values()) {
        more.addAll(AllocatedDevices.takenBy(c));
      }
      if (objects.allocatedDevicesRevision() == base.revision()) {
        return base.devices().plus(more);
      }
    }
  }

  /** The claims in flight by UID (a copy, for tests and debugging). */
  public Map<String, ResourceClaim> inFlight() {
    return new HashMap<>(inFlight);
  }

  /** The assumed claims whose informer versions have not caught up yet (for tests, debugging). */
  public List<ResourceClaim> assumed() {
    List<ResourceClaim> out = new ArrayList<>();
    for (String key : new ArrayList<>(assumed.keySet())) {
      int slash = key.indexOf('/');
      get(key.substring(0, slash), key.substring(slash + 1));
      ResourceClaim a = assumed.get(key);
      if (a != null) {
        out.add(a);
      }
    }
    return out;
  }

  /**
   * Whether {@code a}'s resource version is older than {@code b}'s; versions that are not numbers
   * compare as equal (the informer's then wins).
   */
  private static boolean olderThan(ResourceClaim a, ResourceClaim b) {
    long va = version(a);
    long vb = version(b);
    return va >= 0 && vb >= 0 && va < vb;
  }

  private static long version(ResourceClaim c) {
    String rv = c.getMetadata() == null ? null : c.getMetadata().getResourceVersion();
    if (rv == null || rv.isEmpty() || rv.length() > 18) {
      return -1;
    }
    for (int i = 0; i < rv.length(); i++) {
      if (rv.charAt(i) < '0' || rv.charAt(i) > '9') {
        return -1;
      }
    }
    return Long.parseLong(rv);
  }
}
