package io.schedext.plugins.dynamicresources;

import io.fabric8.kubernetes.api.model.resource.v1.AllocationResult;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceClass;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceConstraint;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceRequest;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceSelector;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceSlice;
import io.schedext.framework.NodeInfo;
import io.schedext.framework.ResourceSlices;
import io.schedext.framework.TakenDevices;
import io.schedext.plugins.dynamicresources.cel.CompiledSelector;
import io.schedext.plugins.dynamicresources.cel.DeviceSelectors;
import io.schedext.plugins.dynamicresources.cel.SelectorException;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import java.util.function.LongSupplier;

/**
 * The structured-parameters allocator (upstream's {@code dynamic-resource-allocation/structured},
 * the "stable" variant's semantics with the features 1.34 enables: admin access and prioritized
 * lists): for one node, finds devices for every request of every claim, claim after claim, request
 * after request, device after device, backtracking through all candidates in pool, slice and device
 * order until the first full solution. A candidate must be reachable from the node, not taken (by
 * an allocated claim, an allocation in flight, or earlier in this search; admin access only needs
 * it not taken by the same claim), selected by its class's and its request's CEL selectors, and
 * keep every {@code matchAttribute} constraint of its claim. One instance serves one scheduling
 * cycle: made in PreFilter from what the cluster held then, used by Filter on many nodes at once.
 * Thread-safe.
 */
final class Allocator {

  /** {@code resourceapi.AllocationResultsMaxSize}: devices one claim may get. */
  static final int MAX_DEVICES_PER_CLAIM = 32;

  /**
   * The feature gates that change allocation.
   *
   * @param adminAccess DRAAdminAccess (beta, on in 1.34)
   * @param prioritizedList DRAPrioritizedList (beta, on in 1.34)
   */
  record Features(boolean adminAccess, boolean prioritizedList) {

    /** What kube-scheduler 1.34 runs with by default. */
    static final Features V1_34 = new Features(true, true);
  }

  private final Features features;
  private final TakenDevices allocated;
  private final Function<String, DeviceClass> classes;
  private final ResourceSlices slices;
  private final DeviceSelectors selectors;
  private final SliceViews views;
  private final NodeVerdicts verdicts;

  Allocator(
      Features features,
      TakenDevices allocated,
      Function<String, DeviceClass> classes,
      ResourceSlices slices,
      DeviceSelectors selectors,
      SliceViews views,
      NodeVerdicts verdicts) {
    this.features = features;
    this.allocated = allocated;
    this.classes = classes;
    this.slices = slices;
    this.selectors = selectors;
    this.views = views;
    this.verdicts = verdicts;
  }

  Features features() {
    return features;
  }

  /** The devices other claims hold, allocated or in flight, when the cycle began. */
  TakenDevices allocated() {
    return allocated;
  }

  DeviceClass deviceClass(String name) {
    return classes.apply(name);
  }

  DeviceSelectors selectors() {
    return selectors;
  }

  /** The pools node {@code nodeName} with {@code labels} can reach. */
  List<Pools.Pool> pools(String nodeName, Map<String, String> labels) {
    List<ResourceSlice> own = slices.ofNode(nodeName);
    if (slices.shared().isEmpty()) {
      return views.ofNode(nodeName, own);
    }
    List<ResourceSlice> candidates = new ArrayList<>(own.size() + slices.shared().size());
    candidates.addAll(own);
    candidates.addAll(slices.shared());
    return Pools.gather(candidates, nodeName, labels, views::of);
  }

  /**
   * Allocates {@code claims} on node {@code nodeName} with {@code labels}: one result per claim, in
   * order, or null when they cannot all be allocated there. Throws {@link AllocationException} when
   * the input is broken, {@link AllocationTimeout} once {@code now} passes {@code deadline}
   * (nanoseconds; no deadline when it is {@link Long#MAX_VALUE}).
   */
  List<AllocationResult> allocate(
      String nodeName,
      Map<String, String> labels,
      List<ResourceClaim> claims,
      LongSupplier now,
      long deadline) {
    if (claims.isEmpty()) {
      return null;
    }
    Solution s = new Search(this, plan(claims), pools(nodeName, labels), now, deadline).run();
    return s == null ? null : s.results(claims);
  }

  /**
   * As {@link #allocate}, for claims planned once for every node: the devices found on {@code
   * node}, from which the allocation results are made only for the node chosen; null when there is
   * no solution. A node whose last search still holds is answered from it ({@link NodeVerdicts}).
   */
  Solution search(NodeInfo node, Plan plan, LongSupplier now, long deadline) {
    if (plan.claims().isEmpty()) {
      return null;
    }
    NodeVerdicts.Slot slot =
        plan.shape() == null || node.name() == null ? null : verdicts.slot(node);
    if (slot != null) {
      NodeVerdicts.Verdict known =
          slot.lookup(plan.shape(), slices, allocated, verdicts.reusedCounter());
      if (known != null) {
        return known.found();
      }
    }
    List<Pools.Pool> pools = pools(node.name(), node.labels());
    Solution found = new Search(this, plan, pools, now, deadline).run();
    if (slot != null) {
      slot.keep(plan.shape(), slices, pools, allocated, found);
    }
    return found;
  }

  /** The claim as upstream's logs and errors name it: {@code namespace/name}, or just the name. */
  static String claimRef(ResourceClaim c) {
    String ns = c.getMetadata().getNamespace();
    return ns == null || ns.isEmpty()
        ? c.getMetadata().getName()
        : ns + "/" + c.getMetadata().getName();
  }

  /**
   * Whether the device matches {@code list} of compiled selectors, in order, stopping at the first
   * that does not; a selector that did not compile or fails is an error of {@code claim} (for a
   * request's selectors) or of class {@code dc} (when {@code claim} is null).
   */
  private static boolean selectorsMatch(
      List<CompiledSelector> list, ResourceClaim claim, DeviceClass dc, DeviceView device) {
    for (int i = 0; i < list.size(); i++) {
      CompiledSelector c = list.get(i);
      if (c.error() != null) {
        throw new AllocationException(
            owner(claim, dc) + ": selector #" + i + ": CEL compile error: " + c.error());
      }
      try {
        if (!device.matches(c)) {
          return false;
        }
      } catch (SelectorException e) {
        throw new AllocationException(
            owner(claim, dc) + ": selector #" + i + ": CEL runtime error: " + e.getMessage());
      }
    }
    return true;
  }

  private static String owner(ResourceClaim claim, DeviceClass dc) {
    return claim != null ? "claim " + claimRef(claim) : "class " + dc.getMetadata().getName();
  }

  CompiledSelector compiled(DeviceSelector s) {
    String expr = s.getCel() == null ? "" : s.getCel().getExpression();
    return selectors.getOrCompile(expr == null ? "" : expr);
  }

  /** {@code list} compiled, in order (a selector that does not compile is kept with its error). */
  List<CompiledSelector> compiled(List<DeviceSelector> list) {
    if (list.isEmpty()) {
      return List.of();
    }
    List<CompiledSelector> out = new ArrayList<>(list.size());
    for (DeviceSelector s : list) {
      out.add(compiled(s));
    }
    return out;
  }

  /** The claim's requests; an unset list reads as empty. */
  static List<DeviceRequest> requests(ResourceClaim c) {
    if (c.getSpec() == null
        || c.getSpec().getDevices() == null
        || c.getSpec().getDevices().getRequests() == null) {
      return List.of();
    }
    return c.getSpec().getDevices().getRequests();
  }

  static List<DeviceConstraint> constraints(ResourceClaim c) {
    if (c.getSpec() == null
        || c.getSpec().getDevices() == null
        || c.getSpec().getDevices().getConstraints() == null) {
      return List.of();
    }
    return c.getSpec().getDevices().getConstraints();
  }

  /**
   * What one request (or subrequest) needs, worked out before the search.
   *
   * @param request the request or subrequest
   * @param parent the request a subrequest belongs to, or null
   * @param deviceClass its class
   * @param devices how many devices it needs
   * @param all the devices of an {@code All} request, decided up front; null otherwise
   * @param classSelectors the class's selectors, compiled once for every device
   * @param requestSelectors the request's own selectors, compiled once for every device
   */
  record RequestData(
      DeviceRequestView request,
      DeviceRequestView parent,
      DeviceClass deviceClass,
      int devices,
      List<Candidate> all,
      List<CompiledSelector> classSelectors,
      List<CompiledSelector> requestSelectors) {

    /** {@code request} or {@code parent/subrequest}. */
    String fullName() {
      return parent == null ? request.name() : parent.name() + "/" + request.name();
    }
  }

  /** A device with the slice it was found in. */
  record Candidate(DeviceView device, SliceView slice) {}

  /**
   * A request or subrequest as checked once for every node: what it needs, or the error every node
   * reports for it.
   *
   * @param data what it needs (for an {@code All} request, without its devices: they depend on the
   *     node); null when there is an error
   * @param error the error, or null
   */
  record Planned(RequestData data, String error) {}

  /**
   * One claim as checked once for every node.
   *
   * @param claim the claim
   * @param requestErrors per request, an error met before its alternatives are looked at, or null
   * @param requests per request, its alternatives: itself alone, or its subrequests in order
   * @param constraints its constraints, unused (each search takes copies), or null on an error
   * @param constraintError why its constraints cannot be used, or null
   */
  record ClaimPlan(
      ResourceClaim claim,
      String[] requestErrors,
      Planned[][] requests,
      List<MatchAttributeConstraint> constraints,
      String constraintError) {}

  /**
   * The claims one cycle allocates, checked once; every node's search starts from it.
   *
   * @param claims the claims
   * @param plans each claim checked
   * @param shape what the searches depend on besides the node, to reuse a node's last search by;
   *     null when this allocator keeps no searches
   */
  record Plan(List<ResourceClaim> claims, List<ClaimPlan> plans, NodeVerdicts.Shape shape) {}

  /**
   * Checks what does not depend on the node, claim after claim and request after request, as
   * upstream's allocator does on every node: an error is kept where it was met, and every node's
   * search reports it when it gets there (after any error an earlier request meets on that node).
   */
  Plan plan(List<ResourceClaim> claims) {
    List<ClaimPlan> plans = new ArrayList<>(claims.size());
    for (ResourceClaim claim : claims) {
      List<DeviceRequest> requests = requests(claim);
      String[] requestErrors = new String[requests.size()];
      Planned[][] planned = new Planned[requests.size()][];
      for (int r = 0; r < requests.size(); r++) {
        DeviceRequest request = requests.get(r);
        var subs = request.getFirstAvailable();
        boolean hasSubs = subs != null && !subs.isEmpty();
        if (hasSubs && !features.prioritizedList()) {
          requestErrors[r] =
              "claim "
                  + claimRef(claim)
                  + ", request "
                  + request.getName()
                  + ": has subrequests, but the DRAPrioritizedList feature is disabled";
          continue;
        }
        if (hasSubs) {
          DeviceRequestView parent = DeviceRequestView.of(request);
          planned[r] = new Planned[subs.size()];
          for (int i = 0; i < subs.size(); i++) {
            planned[r][i] = planRequest(claim, DeviceRequestView.of(subs.get(i)), parent);
          }
        } else {
          planned[r] = new Planned[] {planRequest(claim, DeviceRequestView.of(request), null)};
        }
      }
      List<MatchAttributeConstraint> constraints = null;
      String constraintError = null;
      try {
        constraints = constraintsOf(claim);
      } catch (AllocationException e) {
        constraintError = e.getMessage();
      }
      plans.add(new ClaimPlan(claim, requestErrors, planned, constraints, constraintError));
    }
    NodeVerdicts.Shape shape =
        verdicts == null ? null : verdicts.canonical(NodeVerdicts.Shape.of(claims, this));
    return new Plan(List.copyOf(claims), List.copyOf(plans), shape);
  }

  private Planned planRequest(
      ResourceClaim claim, DeviceRequestView request, DeviceRequestView parent) {
    try {
      return new Planned(validate(claim, request, parent), null);
    } catch (AllocationException e) {
      return new Planned(null, e.getMessage());
    }
  }

  /**
   * Checks one request as upstream's {@code validateDeviceRequest}, in its order, for what does not
   * depend on the node: its selectors are CEL, admin access only with the gate, its class exists,
   * its mode is known and its count fits.
   */
  private RequestData validate(
      ResourceClaim claim, DeviceRequestView request, DeviceRequestView parent) {
    List<DeviceSelector> sel = request.selectors();
    for (int i = 0; i < sel.size(); i++) {
      if (sel.get(i).getCel() == null) {
        throw new AllocationException(
            "claim "
                + claimRef(claim)
                + ", request "
                + request.name()
                + ", selector #"
                + i
                + ": CEL expression empty (unsupported selector type?)");
      }
    }
    if (!features.adminAccess() && request.hasAdminAccess()) {
      throw new AllocationException(
          "claim "
              + claimRef(claim)
              + ", request "
              + request.name()
              + ": admin access is requested, but the feature is disabled");
    }
    if (request.deviceClassName().isEmpty()) {
      throw new AllocationException(
          "claim "
              + claimRef(claim)
              + ", request "
              + request.name()
              + ": missing device class name (unsupported request type?)");
    }
    DeviceClass dc = classes.apply(request.deviceClassName());
    if (dc == null) {
      throw new AllocationException(
          "claim "
              + claimRef(claim)
              + ", request "
              + request.name()
              + ": could not retrieve device class "
              + request.deviceClassName()
              + ": deviceclass.resource.k8s.io \""
              + request.deviceClassName()
              + "\" not found");
    }
    List<CompiledSelector> classSelectors =
        compiled(
            dc.getSpec() == null || dc.getSpec().getSelectors() == null
                ? List.of()
                : dc.getSpec().getSelectors());
    List<CompiledSelector> requestSelectors = compiled(request.selectors());
    String mode = request.allocationMode();
    if (mode.equals(DeviceRequestView.EXACT_COUNT)) {
      long n = request.count();
      if (n > Integer.MAX_VALUE) {
        throw new AllocationException(
            "claim "
                + claimRef(claim)
                + ", request "
                + request.name()
                + ": exact count "
                + n
                + " is too large");
      }
      return new RequestData(request, parent, dc, (int) n, null, classSelectors, requestSelectors);
    }
    if (mode.equals(DeviceRequestView.ALL)) {
      return new RequestData(request, parent, dc, 0, null, classSelectors, requestSelectors);
    }
    throw new AllocationException(
        "claim "
            + claimRef(claim)
            + ", request "
            + request.name()
            + ": unsupported count mode "
            + mode);
  }

  /**
   * What request {@code planned} needs on a node whose pools are {@code pools}: the plan's data,
   * and for an {@code All} request the devices it gets there (every pool must be complete and
   * valid); throws the plan's error.
   */
  RequestData onNode(ResourceClaim claim, Planned planned, List<Pools.Pool> pools) {
    if (planned.error() != null) {
      throw new AllocationException(planned.error());
    }
    RequestData data = planned.data();
    DeviceRequestView request = data.request();
    if (!request.allocationMode().equals(DeviceRequestView.ALL)) {
      return data;
    }
    List<Candidate> all = new ArrayList<>();
    for (Pools.Pool pool : pools) {
      String unusable = pool.incomplete() ? "being updated" : pool.invalid() ? "invalid" : null;
      if (unusable != null) {
        throw new AllocationException(
            "claim "
                + claimRef(claim)
                + ", request "
                + request.name()
                + ": asks for all devices, but resource pool "
                + pool.id()
                + " is currently "
                + unusable);
      }
      for (SliceView slice : pool.slices()) {
        for (DeviceView d : slice.devices()) {
          if (isSelectable(claim, data, d)) {
            all.add(new Candidate(d, slice));
          }
        }
      }
    }
    return new RequestData(
        request,
        data.parent(),
        data.deviceClass(),
        all.size(),
        List.copyOf(all),
        data.classSelectors(),
        data.requestSelectors());
  }

  /**
   * Whether the request's class and its own selectors select the device; devices with binding
   * conditions are never selectable (the gates are off in 1.34).
   */
  boolean isSelectable(ResourceClaim claim, RequestData data, DeviceView d) {
    var bc = d.device().getBindingConditions();
    if (bc != null && !bc.isEmpty()) {
      return false;
    }
    if (!selectorsMatch(data.classSelectors(), null, data.deviceClass(), d)) {
      return false;
    }
    return selectorsMatch(data.requestSelectors(), claim, null, d);
  }

  /** The constraints of a claim as searchable objects; throws on one of an unknown kind. */
  static List<MatchAttributeConstraint> constraintsOf(ResourceClaim claim) {
    List<DeviceConstraint> raw = constraints(claim);
    List<MatchAttributeConstraint> out = new ArrayList<>(raw.size());
    for (int i = 0; i < raw.size(); i++) {
      DeviceConstraint c = raw.get(i);
      if (c.getMatchAttribute() == null) {
        throw new AllocationException(
            "claim "
                + claimRef(claim)
                + ", constraint #"
                + i
                + ": empty constraint (unsupported constraint type?)");
      }
      Set<String> names = c.getRequests() == null ? Set.of() : new LinkedHashSet<>(c.getRequests());
      out.add(new MatchAttributeConstraint(names, c.getMatchAttribute()));
    }
    return out;
  }
}
