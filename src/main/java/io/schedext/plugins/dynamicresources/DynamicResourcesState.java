package io.schedext.plugins.dynamicresources;

import io.fabric8.kubernetes.api.model.resource.v1.AllocationResult;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import io.schedext.framework.StateData;
import io.schedext.kube.NodeSelectorTerms;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * What PreFilter found out about the pod's claims, for the rest of the cycle (upstream's {@code
 * stateData}), with the allocator and the claims planned for every node's search. Filter records
 * the allocated claims a node cannot reach (concurrently, idempotently: the same node gives the
 * same answer); Reserve records the allocation of the chosen node (found again there: upstream
 * keeps every node's, which Reserve's one node does not need); PreBind replaces claims with what
 * the API server returned. Shared, not copied, by copies of the cycle state, as upstream's {@code
 * Clone} returns itself.
 */
final class DynamicResourcesState implements StateData {

  static final DynamicResourcesState EMPTY =
      new DynamicResourcesState(List.of(), new NodeSelectorTerms[0], null);

  private final ResourceClaim[] claims;
  private final NodeSelectorTerms[] availableOnNodes;
  private final AllocationResult[] allocations;
  private final Allocator allocator;
  private final List<ResourceClaim> toAllocate;
  private final Allocator.Plan plan;
  private final Set<Integer> unavailableClaims = ConcurrentHashMap.newKeySet();

  DynamicResourcesState(
      List<ResourceClaim> claims, NodeSelectorTerms[] availableOnNodes, Allocator allocator) {
    this.claims = claims.toArray(new ResourceClaim[0]);
    this.availableOnNodes = availableOnNodes;
    this.allocations = new AllocationResult[claims.size()];
    this.allocator = allocator;
    this.toAllocate = claims.stream().filter(c -> !PodClaims.allocated(c)).toList();
    this.plan = allocator == null ? null : allocator.plan(toAllocate);
  }

  boolean empty() {
    return claims.length == 0;
  }

  int size() {
    return claims.length;
  }

  synchronized ResourceClaim claim(int i) {
    return claims[i];
  }

  synchronized void setClaim(int i, ResourceClaim c) {
    claims[i] = c;
  }

  /** The node selector of claim {@code i}'s allocation, or null (not allocated, or everywhere). */
  NodeSelectorTerms availableOn(int i) {
    return availableOnNodes[i];
  }

  /** The allocator of this cycle, or null when every claim is allocated already. */
  Allocator allocator() {
    return allocator;
  }

  /**
   * The claims without an allocation when the cycle began, in the pod's order: what Filter
   * allocates on every node (the claims change only in PreBind).
   */
  List<ResourceClaim> toAllocate() {
    return toAllocate;
  }

  /** The claims to allocate as checked once for every node, or null without an allocator. */
  Allocator.Plan plan() {
    return plan;
  }

  Set<Integer> unavailableClaims() {
    return unavailableClaims;
  }

  synchronized AllocationResult allocation(int i) {
    return allocations[i];
  }

  synchronized void setAllocation(int i, AllocationResult a) {
    allocations[i] = a;
  }

  @Override
  public StateData copy() {
    return this;
  }
}
