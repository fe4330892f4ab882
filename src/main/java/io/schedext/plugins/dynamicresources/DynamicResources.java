package io.schedext.plugins.dynamicresources;

import io.fabric8.kubernetes.api.model.resource.v1.AllocationResult;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceRequest;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceSubRequest;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaimBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaimStatus;
import io.schedext.framework.ClusterObjects;
import io.schedext.framework.CycleState;
import io.schedext.framework.DeviceId;
import io.schedext.framework.FilterDiagnoser;
import io.schedext.framework.FilterDiagnosis;
import io.schedext.framework.FrameworkException;
import io.schedext.framework.GoDurations;
import io.schedext.framework.Handle;
import io.schedext.framework.NodeInfo;
import io.schedext.framework.PluginArgs;
import io.schedext.framework.PodInfo;
import io.schedext.framework.PostFilterPlugin;
import io.schedext.framework.PostFilterResult;
import io.schedext.framework.PreBindPlugin;
import io.schedext.framework.PreFilterPlugin;
import io.schedext.framework.PreFilterResult;
import io.schedext.framework.ReservePlugin;
import io.schedext.framework.ResourceClaimTracker;
import io.schedext.framework.Status;
import io.schedext.kube.NodeSelectorTerms;
import io.schedext.plugins.Names;
import io.schedext.plugins.dynamicresources.cel.DeviceSelectors;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.function.LongSupplier;

/**
 * Allocates devices to a pod's ResourceClaims (upstream's {@code dynamicresources}, v1.34 with its
 * default gates). PreFilter finds the pod's claims and checks their classes; Filter checks that the
 * node can reach the devices of the allocated claims and searches devices for the others ({@link
 * Allocator}); Reserve marks the chosen node's allocation as in flight, so no other cycle hands out
 * those devices; Unreserve gives them back; PreBind writes the allocation and the pod's reservation
 * into each claim's status. PostFilter names the allocated claim kube-scheduler would deallocate to
 * make room, but writes nothing (it runs for explain only). Explain also gets, per rejected node,
 * which request of which claim could not be satisfied and why ({@link DeviceDiagnosis}).
 */
public final class DynamicResources
    implements PreFilterPlugin, FilterDiagnoser, PostFilterPlugin, ReservePlugin, PreBindPlugin {

  /** Filter's reason when the claims cannot all be allocated on the node. */
  public static final String CANNOT_ALLOCATE = "cannot allocate all claims";

  /** Filter's reason when an allocated claim's devices cannot be reached from the node. */
  public static final String NOT_AVAILABLE = "resourceclaim not available on the node";

  /** Filter's reason when the search ran past {@code filterTimeout}. */
  public static final String TIMED_OUT = "timed out trying to allocate devices";

  /** The finalizer a claim allocated by the scheduler gets. */
  static final String FINALIZER = "resource.kubernetes.io/delete-protection";

  static final String STATE_KEY = Names.DYNAMIC_RESOURCES;

  private final ClusterObjects objects;
  private final ResourceClaimTracker claims;
  private final Allocator.Features features;
  private final Duration filterTimeout;
  private final LongSupplier nanoTime;
  private final DeviceSelectors selectors = new DeviceSelectors();
  private final SliceViews views = new SliceViews();
  private final NodeVerdicts verdicts = new NodeVerdicts();
  private final ClaimBinding binding;

  DynamicResources(
      Handle handle, Allocator.Features features, Duration filterTimeout, LongSupplier nanoTime) {
    this.objects = handle.clusterObjects();
    this.claims = handle.resourceClaims();
    this.features = features;
    this.filterTimeout = filterTimeout;
    this.nanoTime = nanoTime;
    this.binding = new ClaimBinding(handle.claimWriter(), claims);
  }

  @Override
  public String name() {
    return Names.DYNAMIC_RESOURCES;
  }

  /**
   * Skips a pod without claims. Rejects (UnschedulableAndUnresolvable) one whose claims cannot be
   * used (not created yet, missing, being deleted, another pod's), whose claim is being allocated
   * in another cycle, or whose request names a class that does not exist; otherwise keeps the
   * claims and, when one needs allocating, an allocator over the devices taken right now.
   */
  @Override
  public PreFilterResult preFilter(CycleState state, PodInfo pod) {
    state.write(STATE_KEY, DynamicResourcesState.EMPTY);
    List<ResourceClaim> podClaims;
    try {
      podClaims = PodClaims.of(pod.pod(), claims);
    } catch (PodClaims.Unusable e) {
      return rejected(e.getMessage());
    }
    if (podClaims.isEmpty()) {
      return PreFilterResult.of(Status.skip());
    }
    NodeSelectorTerms[] availableOn = new NodeSelectorTerms[podClaims.size()];
    int toAllocate = 0;
    for (int i = 0; i < podClaims.size(); i++) {
      ResourceClaim c = podClaims.get(i);
      if (PodClaims.allocated(c)) {
        var selector = c.getStatus().getAllocation().getNodeSelector();
        if (selector != null) {
          NodeSelectorTerms terms = NodeSelectorTerms.compile(selector);
          if (!terms.parseErrors().isEmpty()) {
            return PreFilterResult.of(
                Status.error(String.join("; ", terms.parseErrors())).withPlugin(name()));
          }
          availableOn[i] = terms;
        }
        continue;
      }
      toAllocate++;
      if (claims.claimHasPendingAllocation(c.getMetadata().getUid())) {
        return rejected(
            "resource claim " + Allocator.claimRef(c) + " is in the process of being allocated");
      }
      for (DeviceRequest r : Allocator.requests(c)) {
        Status s = checkClasses(c, r);
        if (s != null) {
          return PreFilterResult.of(s);
        }
      }
    }
    Allocator allocator = null;
    if (toAllocate > 0) {
      int slices = objects.resourceSlices().count();
      views.seen(slices);
      allocator =
          new Allocator(
              features,
              claims.allocatedDevices(),
              objects::deviceClass,
              objects.resourceSlices(),
              selectors,
              views,
              verdicts);
    }
    state.write(STATE_KEY, new DynamicResourcesState(podClaims, availableOn, allocator));
    return PreFilterResult.success();
  }

  /** The classes of request {@code r} of claim {@code c} must exist; null when they do. */
  private Status checkClasses(ResourceClaim c, DeviceRequest r) {
    if (r.getExactly() != null) {
      return checkClass(r.getExactly().getDeviceClassName(), r.getName());
    }
    if (r.getFirstAvailable() != null && !r.getFirstAvailable().isEmpty()) {
      if (!features.prioritizedList()) {
        return rejectedStatus(
            "resource claim "
                + Allocator.claimRef(c)
                + ", request "
                + r.getName()
                + ": has subrequests, but the DRAPrioritizedList feature is disabled");
      }
      for (DeviceSubRequest sub : r.getFirstAvailable()) {
        Status s = checkClass(sub.getDeviceClassName(), r.getName() + "/" + sub.getName());
        if (s != null) {
          return s;
        }
      }
      return null;
    }
    return rejectedStatus(
        "resource claim "
            + Allocator.claimRef(c)
            + ", request "
            + r.getName()
            + ": unknown request type");
  }

  private Status checkClass(String className, String request) {
    if (className == null || className.isEmpty()) {
      return Status.error("request " + request + ": unsupported request type").withPlugin(name());
    }
    if (objects.deviceClass(className) == null) {
      return rejectedStatus(
          "request " + request + ": device class " + className + " does not exist");
    }
    return null;
  }

  /**
   * Rejects the node when an allocated claim's devices cannot be reached from it, or when the
   * claims to allocate cannot all get devices there (UnschedulableAndUnresolvable, upstream's
   * reasons); a selector that does not compile or fails is an Error, as upstream.
   */
  @Override
  public Status filter(CycleState state, PodInfo pod, NodeInfo node) {
    DynamicResourcesState s = state.read(STATE_KEY, DynamicResourcesState.class);
    if (s.empty()) {
      return Status.success();
    }
    List<Integer> unavailable = null;
    for (int i = 0; i < s.size(); i++) {
      NodeSelectorTerms on = s.availableOn(i);
      if (on != null && !on.matches(node.name(), node.labels())) {
        if (unavailable == null) {
          unavailable = new ArrayList<>();
        }
        unavailable.add(i);
      }
    }
    Solution allocations = null;
    if (s.allocator() != null) {
      try {
        allocations = s.allocator().search(node, s.plan(), nanoTime, deadline());
      } catch (AllocationTimeout e) {
        return rejectedStatus(TIMED_OUT);
      } catch (AllocationException e) {
        return Status.error(e.getMessage()).withPlugin(name());
      }
      if (allocations == null) {
        return rejectedStatus(CANNOT_ALLOCATE);
      }
    }
    if (unavailable != null) {
      s.unavailableClaims().addAll(unavailable);
      return rejectedStatus(NOT_AVAILABLE);
    }
    return Status.success();
  }

  /** When a search starting now must give up: {@code filterTimeout} from now, or never. */
  private long deadline() {
    return filterTimeout.isZero() ? Long.MAX_VALUE : nanoTime.getAsLong() + filterTimeout.toNanos();
  }

  /** The claims without an allocation, in the pod's order. */
  static List<ResourceClaim> toAllocate(DynamicResourcesState s) {
    List<ResourceClaim> out = new ArrayList<>(s.size());
    for (int i = 0; i < s.size(); i++) {
      if (!PodClaims.allocated(s.claim(i))) {
        out.add(s.claim(i));
      }
    }
    return out;
  }

  @Override
  public FilterDiagnosis diagnose(CycleState state, PodInfo pod, NodeInfo node, Status status) {
    if (!(state.readOrNull(STATE_KEY) instanceof DynamicResourcesState s) || s.empty()) {
      return null;
    }
    return DeviceDiagnosis.of(s, node.name(), node.labels());
  }

  /**
   * When no node fits: the first allocated claim some node could not reach and no other pod uses is
   * the one kube-scheduler deallocates (upstream picks one at random) so the next attempt can
   * allocate it anew. The extender only reports this; it writes nothing.
   */
  @Override
  public PostFilterResult postFilter(
      CycleState state, PodInfo pod, Map<String, Status> filteredNodeStatuses) {
    if (!(state.readOrNull(STATE_KEY) instanceof DynamicResourcesState s)) {
      return PostFilterResult.of(
          Status.error("reading \"" + STATE_KEY + "\" from cycle state: not found"));
    }
    if (s.empty()) {
      return PostFilterResult.of(Status.unschedulable("no new claims to deallocate"));
    }
    for (int i : new TreeSet<>(s.unavailableClaims())) {
      var reserved = s.claim(i).getStatus().getReservedFor();
      if (reserved == null
          || reserved.isEmpty()
          || (reserved.size() == 1 && pod.uid().equals(reserved.get(0).getUid()))) {
        return PostFilterResult.of(Status.unschedulable("deallocation of ResourceClaim completed"));
      }
    }
    return PostFilterResult.of(Status.unschedulable("still not schedulable"));
  }

  /**
   * Takes the allocation Filter finds on {@code nodeName} for the claims to allocate and marks it
   * in flight: from now on every cycle counts those devices as taken, until PreBind has written the
   * claims or Unreserve gives them back. A device another bind reserved since this cycle's
   * PreFilter is an Error (upstream reserves one pod at a time and never meets this).
   */
  @Override
  public Status reserve(CycleState state, PodInfo pod, String nodeName) {
    DynamicResourcesState s = state.read(STATE_KEY, DynamicResourcesState.class);
    if (s.empty() || s.allocator() == null) {
      return Status.success();
    }
    List<ResourceClaim> pending = toAllocate(s);
    if (pending.isEmpty()) {
      return Status.success();
    }
    // The devices Filter found there, found again: the search is a function of this cycle's
    // allocator and the node (and a node's last search is kept), so keeping every node's answer
    // for the one Reserve wants would cost a map entry per node on every filter call.
    NodeInfo node = state.snapshot() == null ? null : state.snapshot().get(nodeName);
    List<AllocationResult> allocations;
    try {
      Solution found =
          node == null ? null : s.allocator().search(node, s.plan(), nanoTime, deadline());
      allocations = found == null ? List.of() : found.results(s.plan().claims());
    } catch (AllocationTimeout e) {
      return Status.error(TIMED_OUT).withPlugin(name());
    } catch (AllocationException e) {
      return Status.error(e.getMessage()).withPlugin(name());
    }
    if (allocations.isEmpty()) {
      return Status.error("claim allocation not found for node").withPlugin(name());
    }
    if (allocations.size() != pending.size()) {
      return Status.error(
              "internal error, have "
                  + allocations.size()
                  + " allocations, "
                  + pending.size()
                  + " claims to allocate, want "
                  + pending.size()
                  + " claims")
          .withPlugin(name());
    }
    int k = 0;
    for (int i = 0; i < s.size(); i++) {
      ResourceClaim c = s.claim(i);
      if (PodClaims.allocated(c)) {
        continue;
      }
      AllocationResult a = allocations.get(k++);
      s.setAllocation(i, a);
      ResourceClaim allocated = new ResourceClaimBuilder(c).build();
      List<String> finalizers =
          new ArrayList<>(
              allocated.getMetadata().getFinalizers() == null
                  ? List.of()
                  : allocated.getMetadata().getFinalizers());
      if (!finalizers.contains(FINALIZER)) {
        finalizers.add(FINALIZER);
      }
      allocated.getMetadata().setFinalizers(finalizers);
      if (allocated.getStatus() == null) {
        allocated.setStatus(new ResourceClaimStatus());
      }
      allocated.getStatus().setAllocation(a);
      DeviceId taken = claims.reserveIfFree(c.getMetadata().getUid(), allocated);
      if (taken != null) {
        // Only binds running at once get here (kube-scheduler reserves one pod at a time):
        // another one reserved the device after this cycle's PreFilter looked.
        return Status.error(
                "device "
                    + taken
                    + " for claim "
                    + Allocator.claimRef(c)
                    + " was allocated to another claim in the meantime")
            .withPlugin(name());
      }
    }
    return Status.success();
  }

  /**
   * Gives back what Reserve took (the allocations in flight, and any version PreBind assumed) and
   * takes the pod's reservation out of claims PreBind reserved; idempotent.
   */
  @Override
  public void unreserve(CycleState state, PodInfo pod, String nodeName) {
    if (!(state.readOrNull(STATE_KEY) instanceof DynamicResourcesState s)) {
      return;
    }
    binding.unreserve(s, pod);
  }

  /**
   * Writes, claim by claim, the allocation Reserve took (with the finalizer) and the pod's
   * reservation into each claim not reserved for the pod yet; a claim kube-scheduler already
   * allocated and reserved for this pod is taken as it is. Any failure is an Error.
   */
  @Override
  public Status preBind(CycleState state, PodInfo pod, String nodeName) {
    DynamicResourcesState s = state.read(STATE_KEY, DynamicResourcesState.class);
    try {
      binding.bind(s, pod);
    } catch (FrameworkException e) {
      return Status.error(e.getMessage()).withPlugin(name());
    }
    return Status.success();
  }

  /** The searches of earlier cycles this plugin keeps for reuse (for tests). */
  NodeVerdicts verdicts() {
    return verdicts;
  }

  private PreFilterResult rejected(String reason) {
    return PreFilterResult.of(rejectedStatus(reason));
  }

  private Status rejectedStatus(String reason) {
    return Status.unresolvable(reason).withPlugin(name());
  }

  /**
   * The factory registered under {@link Names#DYNAMIC_RESOURCES}; rejects a {@code filterTimeout}
   * that is not a duration or is negative.
   */
  public static DynamicResources create(PluginArgs args, Handle handle) {
    return create(args, handle, Allocator.Features.V1_34, System::nanoTime);
  }

  static DynamicResources create(
      PluginArgs args, Handle handle, Allocator.Features features, LongSupplier nanoTime) {
    DynamicResourcesArgs a = args.as(DynamicResourcesArgs.class);
    Duration timeout;
    try {
      timeout = GoDurations.parse(a.filterTimeout());
    } catch (IllegalArgumentException e) {
      throw new FrameworkException("filterTimeout: Invalid value: " + e.getMessage());
    }
    if (timeout.isNegative()) {
      throw new FrameworkException(
          "filterTimeout: Invalid value: \"" + a.filterTimeout() + "\": must be zero or positive");
    }
    return new DynamicResources(handle, features, timeout, nanoTime);
  }
}
