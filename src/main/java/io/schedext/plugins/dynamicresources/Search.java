package io.schedext.plugins.dynamicresources;

import io.fabric8.kubernetes.api.model.NodeSelector;
import io.fabric8.kubernetes.api.model.NodeSelectorRequirement;
import io.fabric8.kubernetes.api.model.NodeSelectorRequirementBuilder;
import io.fabric8.kubernetes.api.model.NodeSelectorTerm;
import io.fabric8.kubernetes.api.model.resource.v1.AllocationResult;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceAllocationConfiguration;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceAllocationResult;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceClaimConfiguration;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceClassConfiguration;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceRequest;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceRequestAllocationResult;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceSliceSpec;
import io.schedext.framework.DeviceId;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.LongSupplier;

/**
 * One run of the allocator on one node (upstream's {@code allocator} struct and {@code
 * allocateOne}): the depth-first search over claims, requests, subrequests and devices. Its {@link
 * Solution} makes the allocation results of the first solution when they are asked for (Reserve
 * asks on the chosen node only). Not thread-safe: one Filter call owns it.
 */
final class Search {

  static final String FROM_CLASS = "FromClass";
  static final String FROM_CLAIM = "FromClaim";

  private final Allocator a;
  private final String nodeName;
  private final Map<String, String> labels;
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
  private final List<List<DeviceResult>> result = new ArrayList<>();
  private List<Pools.Pool> pools;

  /** A device picked for a request of a claim. */
  private record DeviceResult(
      String request, String parent, DeviceId id, SliceView slice, boolean adminAccess) {

    String requestName() {
      return parent == null ? request : parent + "/" + request;
    }
  }

  /** The devices a search found for every claim; makes their allocation results on demand. */
  final class Solution {

    private Solution() {}

    /** One allocation result per claim, in the claims' order. */
    List<AllocationResult> results() {
      List<AllocationResult> out = new ArrayList<>(claims.size());
      for (int c = 0; c < claims.size(); c++) {
        out.add(resultOf(c));
      }
      return out;
    }
  }

  Search(
      Allocator a,
      String nodeName,
      Map<String, String> labels,
      Allocator.Plan plan,
      LongSupplier now,
      long deadline) {
    this.a = a;
    this.nodeName = nodeName;
    this.labels = labels;
    this.plan = plan;
    this.claims = plan.claims();
    this.now = now;
    this.deadline = deadline;
    this.data = new Allocator.RequestData[claims.size()][][];
    this.selectedSubRequest = new int[claims.size()][];
  }

  /** The solution, or null when there is none. */
  Solution run() {
    pools = a.pools(nodeName, labels);
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
    return new Solution();
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
            new DeviceResult(
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
    List<DeviceResult> results = result.get(claim);
    results.remove(results.size() - 1);
  }

  /**
   * Throws, as making claim {@code c}'s node selector would, when a device's slice has a node
   * selector of more than one term; checked on every node, made on the chosen one.
   */
  private void checkNodeSelectors(int c) {
    for (DeviceResult r : result.get(c)) {
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

  /** The allocation result of claim {@code c}: devices, configuration, node selector. */
  private AllocationResult resultOf(int c) {
    ResourceClaim claim = claims.get(c);
    List<DeviceRequestAllocationResult> devices = new ArrayList<>();
    for (DeviceResult r : result.get(c)) {
      DeviceRequestAllocationResult x = new DeviceRequestAllocationResult();
      x.setRequest(r.requestName());
      x.setDriver(r.id().driver());
      x.setPool(r.id().pool());
      x.setDevice(r.id().device());
      if (r.adminAccess()) {
        x.setAdminAccess(true);
      }
      devices.add(x);
    }
    List<DeviceAllocationConfiguration> config = new ArrayList<>();
    Map<String, int[]> classConfigs = new HashMap<>();
    List<DeviceRequest> requests = Allocator.requests(claim);
    for (int r = 0; r < requests.size(); r++) {
      Allocator.RequestData data = this.data[c][r][selectedSubRequest[c][r]];
      var dc = data.deviceClass();
      if (dc == null) {
        continue;
      }
      String className = dc.getMetadata().getName();
      int[] range = classConfigs.get(className);
      if (range != null) {
        for (int i = range[0]; i < range[1]; i++) {
          List<String> names = new ArrayList<>(config.get(i).getRequests());
          names.add(data.fullName());
          config.get(i).setRequests(names);
        }
        continue;
      }
      int start = config.size();
      List<DeviceClassConfiguration> classConfig =
          dc.getSpec() == null || dc.getSpec().getConfig() == null
              ? List.of()
              : dc.getSpec().getConfig();
      for (DeviceClassConfiguration cc : classConfig) {
        DeviceAllocationConfiguration x = new DeviceAllocationConfiguration();
        x.setSource(FROM_CLASS);
        x.setRequests(new ArrayList<>(List.of(data.fullName())));
        x.setOpaque(cc.getOpaque());
        config.add(x);
      }
      classConfigs.put(className, new int[] {start, config.size()});
    }
    List<DeviceClaimConfiguration> claimConfig =
        claim.getSpec().getDevices().getConfig() == null
            ? List.of()
            : claim.getSpec().getDevices().getConfig();
    for (DeviceClaimConfiguration cc : claimConfig) {
      List<String> wanted = cc.getRequests() == null ? List.of() : cc.getRequests();
      if (wanted.isEmpty()) {
        config.add(claimConfig(cc, wanted));
        continue;
      }
      for (int r = 0; r < requests.size(); r++) {
        DeviceRequest request = requests.get(r);
        if (wanted.contains(request.getName())) {
          config.add(claimConfig(cc, wanted));
          continue;
        }
        if (this.data[c][r][0].parent() == null) {
          continue;
        }
        var sub = request.getFirstAvailable().get(selectedSubRequest[c][r]);
        if (wanted.contains(request.getName() + "/" + sub.getName())) {
          config.add(claimConfig(cc, wanted));
        }
      }
    }
    AllocationResult out = new AllocationResult();
    DeviceAllocationResult da = new DeviceAllocationResult();
    da.setResults(devices);
    da.setConfig(config);
    out.setDevices(da);
    out.setNodeSelector(nodeSelector(c));
    return out;
  }

  private static DeviceAllocationConfiguration claimConfig(
      DeviceClaimConfiguration cc, List<String> requests) {
    DeviceAllocationConfiguration x = new DeviceAllocationConfiguration();
    x.setSource(FROM_CLAIM);
    x.setRequests(new ArrayList<>(requests));
    x.setOpaque(cc.getOpaque());
    return x;
  }

  /**
   * The node selector of claim {@code c}'s allocation (upstream's {@code createNodeSelector}): the
   * node's name when a device is local to a node, else the requirements of the slices' node
   * selectors combined into one term, or null when the devices are reachable from every node.
   */
  private NodeSelector nodeSelector(int c) {
    List<NodeSelectorRequirement> fields = new ArrayList<>();
    List<NodeSelectorRequirement> expressions = new ArrayList<>();
    for (DeviceResult r : result.get(c)) {
      ResourceSliceSpec spec = r.slice().spec();
      String node = spec.getNodeName();
      if (node != null && !node.isEmpty()) {
        return byName(node);
      }
      NodeSelector ns = spec.getNodeSelector();
      if (ns != null && ns.getNodeSelectorTerms() != null) {
        List<NodeSelectorTerm> terms = ns.getNodeSelectorTerms();
        if (terms.size() == 1) {
          addNew(terms.get(0).getMatchFields(), fields);
          addNew(terms.get(0).getMatchExpressions(), expressions);
        } else if (terms.size() > 1) {
          throw new AllocationException(
              "create NodeSelector for claim "
                  + claims.get(c).getMetadata().getName()
                  + ": unsupported ResourceSlice.NodeSelector with "
                  + terms.size()
                  + " terms");
        }
      }
    }
    if (fields.isEmpty() && expressions.isEmpty()) {
      return null;
    }
    NodeSelectorTerm term = new NodeSelectorTerm();
    term.setMatchFields(fields);
    term.setMatchExpressions(expressions);
    NodeSelector out = new NodeSelector();
    out.setNodeSelectorTerms(new ArrayList<>(List.of(term)));
    return out;
  }

  static NodeSelector byName(String node) {
    NodeSelectorTerm term = new NodeSelectorTerm();
    term.setMatchFields(
        new ArrayList<>(
            List.of(
                new NodeSelectorRequirementBuilder()
                    .withKey("metadata.name")
                    .withOperator("In")
                    .withValues(node)
                    .build())));
    NodeSelector out = new NodeSelector();
    out.setNodeSelectorTerms(new ArrayList<>(List.of(term)));
    return out;
  }

  private static void addNew(List<NodeSelectorRequirement> from, List<NodeSelectorRequirement> to) {
    if (from == null) {
      return;
    }
    for (NodeSelectorRequirement r : from) {
      boolean known = false;
      Set<String> values = new HashSet<>(r.getValues() == null ? List.of() : r.getValues());
      for (NodeSelectorRequirement e : to) {
        if (e.getKey().equals(r.getKey())
            && e.getOperator().equals(r.getOperator())
            && new HashSet<>(e.getValues() == null ? List.of() : e.getValues()).equals(values)) {
          known = true;
          break;
        }
      }
      if (!known) {
        to.add(r);
      }
    }
  }
}
