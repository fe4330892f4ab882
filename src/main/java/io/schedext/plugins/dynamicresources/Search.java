package io.schedext.plugins.dynamicresources;

import io.fabric8.kubernetes.api.model.NodeSelector;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceSliceSpec;
import io.schedext.framework.DeviceId;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.function.LongSupplier;

/**
 * One run of the allocator on one node (upstream's {@code allocator} struct and {@code
 * allocateOne}): the depth-first search over claims, requests, subrequests and devices. Its {@link
 * Solution} makes the allocation results of the first solution when they are asked for (Reserve
 * asks on the chosen node only). Not thread-safe: one Filter call owns it.
 */
final class Search {

  private final Allocator a;
  private final Allocator.Plan plan;
  private final List<ResourceClaim> claims;
  private final LongSupplier now;
  private final long deadline;
  // By claim, request and alternative (0 for a request without subrequests).
  private final Allocator.RequestData[][][] data;
  // The subrequest picked for a request with firstAvailable, by claim and request.
  private final int[][] selectedSubRequest;
  private final List<List<MatchAttributeConstraint>> constraints = new ArrayList<>();
  // The devices this search gave away so far and to which claim, in the order given (taken back
  // in the reverse order): a search gives few, so a scan costs less than hashing.
  private DeviceId[] allocatingIds = new DeviceId[4];
  private int[] allocatingClaims = new int[4];
  private int allocatingCount;
  private final List<List<Solution.Pick>> result = new ArrayList<>();
  private final List<Pools.Pool> pools;

  Search(
      Allocator a, Allocator.Plan plan, List<Pools.Pool> pools, LongSupplier now, long deadline) {
    this.a = a;
    this.plan = plan;
    this.claims = plan.claims();
    this.pools = pools;
    this.now = now;
    this.deadline = deadline;
    this.data = new Allocator.RequestData[claims.size()][][];
    this.selectedSubRequest = new int[claims.size()][];
  }

  /** The solution, or null when there is none. */
  Solution run() {
    for (int c = 0; c < claims.size(); c++) {
      Allocator.ClaimPlan cp = plan.plans().get(c);
      ResourceClaim claim = cp.claim();
      int minDevices = 0;
      int requests = cp.requests().length;
      data[c] = new Allocator.RequestData[requests][];
      selectedSubRequest[c] = new int[requests];
      for (int r = 0; r < requests; r++) {
        if (cp.requestErrors()[r] != null) {
          throw new AllocationException(cp.requestErrors()[r]);
        }
        Allocator.Planned[] alternatives = cp.requests()[r];
        Allocator.RequestData[] resolved = new Allocator.RequestData[alternatives.length];
        int min = Integer.MAX_VALUE;
        for (int i = 0; i < alternatives.length; i++) {
          resolved[i] = a.onNode(claim, alternatives[i], pools);
          min = Math.min(min, resolved[i].devices());
        }
        data[c][r] = resolved;
        minDevices += min;
      }
      if (minDevices > Allocator.MAX_DEVICES_PER_CLAIM) {
        throw new AllocationException(
            "claim "
                + Allocator.claimRef(claim)
                + ": number of requested devices "
                + minDevices
                + " exceeds the claim limit of "
                + Allocator.MAX_DEVICES_PER_CLAIM);
      }
      result.add(new ArrayList<>(minDevices));
      if (cp.constraintError() != null) {
        throw new AllocationException(cp.constraintError());
      }
      List<MatchAttributeConstraint> own = List.of();
      if (!cp.constraints().isEmpty()) {
        own = new ArrayList<>(cp.constraints().size());
        for (MatchAttributeConstraint m : cp.constraints()) {
          own.add(m.fresh());
        }
      }
      constraints.add(own);
    }
    if (!allocateOne(0, 0, 0, 0, false)) {
      return null;
    }
    for (int c = 0; c < claims.size(); c++) {
      checkNodeSelectors(c);
    }
    return new Solution(data, selectedSubRequest, result);
  }

  /**
   * Finds a device for device {@code device} of request {@code request} (subrequest {@code sub}) of
   * claim {@code claim}, and recursively for everything after it; true once everything is
   * allocated. {@code inSub} is true while one particular subrequest is being tried.
   */
  private boolean allocateOne(int claim, int request, int sub, int device, boolean inSub) {
    if (deadline != Long.MAX_VALUE && now.getAsLong() - deadline > 0) {
      throw new AllocationTimeout();
    }
    if (claim >= claims.size()) {
      return true;
    }
    Allocator.RequestData[][] requests = data[claim];
    if (request >= requests.length) {
      return allocateOne(claim + 1, 0, 0, 0, false);
    }
    Allocator.RequestData data = requests[request][sub];
    if (!inSub && data.parent() != null) {
      for (int s = 0; s < requests[request].length; s++) {
        if (allocateOne(claim, request, s, device, true)) {
          selectedSubRequest[claim][request] = s;
          return true;
        }
      }
      return false;
    }
    DeviceRequestView req = data.request();
    boolean all = req.allocationMode().equals(DeviceRequestView.ALL);
    if (all && data.all().isEmpty()) {
      return false;
    }
    if (device >= data.devices()) {
      return allocateOne(claim, request + 1, 0, 0, false);
    }
    int afterThis = result.get(claim).size() + data.devices() - device;
    if (afterThis > Allocator.MAX_DEVICES_PER_CLAIM) {
      return false;
    }
    if (all) {
      Allocator.Candidate candidate = data.all().get(device);
      if (taken(claim, req, candidate.device())) {
        return false;
      }
      if (!allocateDevice(claim, data, candidate, true)) {
        return false;
      }
      if (!allocateOne(claim, request, sub, device + 1, inSub)) {
        undo(claim, data);
        return false;
      }
      return true;
    }
    for (Pools.Pool pool : pools) {
      if (pool.invalid()) {
        throw new AllocationException(
            "pool " + pool.name() + " is invalid: " + pool.invalidReason());
      }
      // Looked up once per pool: most pools have no device taken.
      Set<String> taken = a.allocated().inPool(pool.driver(), pool.name());
      for (SliceView slice : pool.slices()) {
        for (DeviceView d : slice.devices()) {
          if (req.adminAccess()
              ? allocating(d.id(), claim)
              : taken.contains(d.name()) || allocating(d.id(), -1)) {
            continue;
          }
          if (!a.isSelectable(claims.get(claim), data, d)) {
            continue;
          }
          if (!allocateDevice(claim, data, new Allocator.Candidate(d, slice), false)) {
            continue;
          }
          if (allocateOne(claim, request, sub, device + 1, inSub)) {
            return true;
          }
          undo(claim, data);
        }
      }
    }
    return false;
  }

  /** Whether this search gave the device to claim {@code claim} already, or to any when -1. */
  private boolean allocating(DeviceId id, int claim) {
    for (int i = 0; i < allocatingCount; i++) {
      if ((claim < 0 || allocatingClaims[i] == claim) && allocatingIds[i].equals(id)) {
        return true;
      }
    }
    return false;
  }

  /**
   * Whether the device cannot go to {@code claim}'s request {@code req}: another claim holds it, or
   * this search gave it away already; with admin access, only whether this search gave it to the
   * same claim.
   */
  private boolean taken(int claim, DeviceRequestView req, DeviceView d) {
    return req.adminAccess()
        ? allocating(d.id(), claim)
        : a.allocated().contains(d.id()) || allocating(d.id(), -1);
  }

  /**
   * Takes the candidate, which the caller found free, for the request if the device can be used and
   * keeps the claim's constraints; false when it cannot be taken ({@link #undo} gives it back). A
   * device that must be taken (an {@code All} request's) but breaks a constraint is an error: such
   * a claim can never be allocated.
   */
  private boolean allocateDevice(
      int claim, Allocator.RequestData data, Allocator.Candidate candidate, boolean must) {
    DeviceRequestView req = data.request();
    DeviceView d = candidate.device();
    var counters = d.device().getConsumesCounters();
    if (counters != null && !counters.isEmpty()) {
      // Partitionable devices are behind an alpha gate, off in 1.34.
      return false;
    }
    String base = data.parent() == null ? req.name() : data.parent().name();
    String subName = data.parent() == null ? null : req.name();
    List<MatchAttributeConstraint> cs = constraints.get(claim);
    for (int i = 0; i < cs.size(); i++) {
      if (!cs.get(i).add(base, subName, d.device(), d.id())) {
        if (must) {
          throw new AllocationException(
              "claim "
                  + Allocator.claimRef(claims.get(claim))
                  + ", request "
                  + req.name()
                  + ": cannot add device "
                  + d.id()
                  + " because a claim constraint would not be satisfied");
        }
        for (int e = 0; e < i; e++) {
          cs.get(e).remove(base, subName);
        }
        return false;
      }
    }
    if (allocatingCount == allocatingIds.length) {
      allocatingIds = Arrays.copyOf(allocatingIds, 2 * allocatingCount);
      allocatingClaims = Arrays.copyOf(allocatingClaims, 2 * allocatingCount);
    }
    allocatingIds[allocatingCount] = d.id();
    allocatingClaims[allocatingCount] = claim;
    allocatingCount++;
    result
        .get(claim)
        .add(
            new Solution.Pick(
                req.name(),
                data.parent() == null ? null : data.parent().name(),
                d.id(),
                candidate.slice(),
                req.adminAccess()));
    return true;
  }

  /** Gives back the device {@link #allocateDevice} took last, for {@code claim}'s request. */
  private void undo(int claim, Allocator.RequestData data) {
    DeviceRequestView req = data.request();
    String base = data.parent() == null ? req.name() : data.parent().name();
    String subName = data.parent() == null ? null : req.name();
    for (MatchAttributeConstraint c : constraints.get(claim)) {
      c.remove(base, subName);
    }
    allocatingCount--;
    allocatingIds[allocatingCount] = null;
    List<Solution.Pick> results = result.get(claim);
    results.remove(results.size() - 1);
  }

  /**
   * Throws, as making claim {@code c}'s node selector would, when a device's slice has a node
   * selector of more than one term; checked on every node, made on the chosen one.
   */
  private void checkNodeSelectors(int c) {
    for (Solution.Pick r : result.get(c)) {
      ResourceSliceSpec spec = r.slice().spec();
      String node = spec.getNodeName();
      if (node != null && !node.isEmpty()) {
        return;
      }
      NodeSelector ns = spec.getNodeSelector();
      if (ns != null && ns.getNodeSelectorTerms() != null && ns.getNodeSelectorTerms().size() > 1) {
        throw new AllocationException(
            "create NodeSelector for claim "
                + claims.get(c).getMetadata().getName()
                + ": unsupported ResourceSlice.NodeSelector with "
                + ns.getNodeSelectorTerms().size()
                + " terms");
      }
    }
  }
}
