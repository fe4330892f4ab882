package io.schedext.plugins.dynamicresources;

import io.fabric8.kubernetes.api.model.resource.v1.DeviceClass;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceRequest;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceSelector;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceSubRequest;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import io.schedext.framework.FilterDiagnosis;
import io.schedext.plugins.dynamicresources.cel.CompiledSelector;
import io.schedext.plugins.dynamicresources.cel.SelectorException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Why DynamicResources rejected a node, in more detail than upstream's reason (explain only): the
 * claim and request that cannot be satisfied there, how many devices the node offers, how many of
 * them the request's class selects, how many each class and request selector rejected, how many
 * other claims hold, and the first failing CEL expression with a device it rejected (or failed on).
 * Each request is checked on its own; when every request could be served alone but not all
 * together, it says whether a {@code matchAttribute} constraint or the number of devices is what
 * stands in the way. Stateless.
 */
final class DeviceDiagnosis {

  private DeviceDiagnosis() {}

  /**
   * What a selector rejected.
   *
   * @param by which selector: {@code class <name> selector #i} or {@code request selector #i}
   * @param expression its CEL expression
   * @param devices how many devices it rejected (or failed on)
   * @param firstDevice the first of them, {@code driver/pool/device}
   * @param error the runtime or compile error, when it failed rather than rejected
   */
  record Rejection(String by, String expression, int devices, String firstDevice, String error) {}

  /**
   * One request (or subrequest) checked alone on the node.
   *
   * @param claim {@code namespace/name}
   * @param request the request, {@code request/subrequest} for an alternative of firstAvailable
   * @param deviceClass its DeviceClass
   * @param wanted how many devices it wants, or {@code all}
   * @param devicesOnNode the devices the node can reach (every pool, every class)
   * @param devicesOfClass of those, the ones the class's selectors select
   * @param rejected what each selector rejected, in evaluation order (class first)
   * @param allocated selected devices other claims hold (allocated or being allocated)
   * @param usable selected devices that are free
   * @param satisfiable whether the request could be served alone
   */
  record RequestCheck(
      String claim,
      String request,
      String deviceClass,
      String wanted,
      int devicesOnNode,
      int devicesOfClass,
      List<Rejection> rejected,
      int allocated,
      int usable,
      boolean satisfiable) {}

  /**
   * The diagnosis as explain's JSON carries it.
   *
   * @param claim the claim that cannot be satisfied, or null
   * @param request its request, or null
   * @param problem one sentence
   * @param firstFailingExpression the first CEL expression that rejected (or failed on) a device
   *     for that request, or null
   * @param rejectedDevice the device it rejected first, or null
   * @param requests every request checked, in the pod's order
   */
  record Detail(
      String claim,
      String request,
      String problem,
      String firstFailingExpression,
      String rejectedDevice,
      List<RequestCheck> requests) {}

  static FilterDiagnosis of(DynamicResourcesState s, String node, Map<String, String> labels) {
    for (int i = 0; i < s.size(); i++) {
      var on = s.availableOn(i);
      if (on != null && !on.matches(node, labels)) {
        String claim = Allocator.claimRef(s.claim(i));
        String problem =
            "claim "
                + claim
                + " is allocated already, to devices this node cannot reach (its allocation's"
                + " node selector does not match the node)";
        return new FilterDiagnosis(
            List.of(problem), new Detail(claim, null, problem, null, null, List.of()));
      }
    }
    Allocator a = s.allocator();
    if (a == null) {
      return null;
    }
    List<Pools.Pool> pools;
    try {
      pools = a.pools(node, labels);
    } catch (AllocationException e) {
      return new FilterDiagnosis(
          List.of(e.getMessage()), new Detail(null, null, e.getMessage(), null, null, List.of()));
    }
    int onNode = 0;
    for (Pools.Pool p : pools) {
      for (SliceView sv : p.slices()) {
        onNode += sv.devices().size();
      }
    }
    List<RequestCheck> checks = new ArrayList<>();
    RequestCheck failing = null;
    for (ResourceClaim claim : DynamicResources.toAllocate(s)) {
      for (DeviceRequest r : Allocator.requests(claim)) {
        List<DeviceRequestView> alternatives = new ArrayList<>();
        if (r.getFirstAvailable() != null && !r.getFirstAvailable().isEmpty()) {
          for (DeviceSubRequest sub : r.getFirstAvailable()) {
            alternatives.add(DeviceRequestView.of(sub));
          }
        } else {
          alternatives.add(DeviceRequestView.of(r));
        }
        boolean any = false;
        RequestCheck first = null;
        for (DeviceRequestView alt : alternatives) {
          String name =
              alt instanceof DeviceRequestView.Sub ? r.getName() + "/" + alt.name() : r.getName();
          RequestCheck c = check(a, claim, alt, name, pools, onNode);
          checks.add(c);
          any |= c.satisfiable();
          if (first == null) {
            first = c;
          }
        }
        if (!any && failing == null) {
          failing = first;
        }
      }
    }
    if (failing != null) {
      return describe(failing, checks);
    }
    String together = together(a, s, checks);
    return new FilterDiagnosis(
        List.of(together), new Detail(null, null, together, null, null, checks));
  }

  /** Checks one request alone against the node's devices. */
  private static RequestCheck check(
      Allocator a,
      ResourceClaim claim,
      DeviceRequestView req,
      String name,
      List<Pools.Pool> pools,
      int onNode) {
    DeviceClass dc = a.deviceClass(req.deviceClassName());
    List<DeviceSelector> classSelectors =
        dc == null || dc.getSpec() == null || dc.getSpec().getSelectors() == null
            ? List.of()
            : dc.getSpec().getSelectors();
    List<String> keys = new ArrayList<>();
    List<DeviceSelector> selectors = new ArrayList<>(classSelectors);
    selectors.addAll(req.selectors());
    for (int i = 0; i < classSelectors.size(); i++) {
      keys.add("class " + req.deviceClassName() + " selector #" + i);
    }
    for (int i = 0; i < req.selectors().size(); i++) {
      keys.add("request selector #" + i);
    }
    List<CompiledSelector> compiled = a.compiled(selectors);
    int[] counts = new int[keys.size()];
    String[][] firsts = new String[keys.size()][];
    int ofClass = 0;
    int allocated = 0;
    int usable = 0;
    int selected = 0;
    for (Pools.Pool p : pools) {
      Set<String> taken = a.allocated().inPool(p.driver(), p.name());
      for (SliceView sv : p.slices()) {
        for (DeviceView d : sv.devices()) {
          int rejectedBy = firstRejecting(compiled, d, firsts);
          if (rejectedBy >= 0) {
            counts[rejectedBy]++;
            if (rejectedBy >= classSelectors.size()) {
              ofClass++;
            }
            continue;
          }
          ofClass++;
          selected++;
          var bc = d.device().getBindingConditions();
          var counters = d.device().getConsumesCounters();
          if ((bc != null && !bc.isEmpty()) || (counters != null && !counters.isEmpty())) {
            continue;
          }
          if (!req.adminAccess() && taken.contains(d.name())) {
            allocated++;
          } else {
            usable++;
          }
        }
      }
    }
    List<Rejection> rejections = new ArrayList<>();
    for (int i = 0; i < keys.size(); i++) {
      String[] f = firsts[i] == null ? new String[2] : firsts[i];
      rejections.add(
          new Rejection(keys.get(i), expression(selectors.get(i)), counts[i], f[0], f[1]));
    }
    boolean all = req.allocationMode().equals(DeviceRequestView.ALL);
    boolean ok = all ? selected > 0 && usable == selected : usable >= req.count();
    return new RequestCheck(
        Allocator.claimRef(claim),
        name,
        req.deviceClassName(),
        all ? "all" : Long.toString(req.count()),
        onNode,
        ofClass,
        rejections,
        allocated,
        usable,
        ok);
  }

  /**
   * The index of the selector (class selectors first) that rejects (or fails on) the device first,
   * in the order Filter evaluates them, or -1 when all select it; remembers the first device each
   * one rejected, with the error if it failed.
   */
  private static int firstRejecting(
      List<CompiledSelector> selectors, DeviceView d, String[][] firsts) {
    for (int i = 0; i < selectors.size(); i++) {
      CompiledSelector c = selectors.get(i);
      String error = c.error();
      boolean matches = false;
      if (error == null) {
        try {
          matches = d.matches(c);
        } catch (SelectorException e) {
          error = e.getMessage();
        }
      }
      if (error != null || !matches) {
        if (firsts[i] == null) {
          firsts[i] = new String[] {d.id().toString(), error};
        }
        return i;
      }
    }
    return -1;
  }

  private static String expression(DeviceSelector s) {
    return s.getCel() == null ? "" : s.getCel().getExpression();
  }

  private static FilterDiagnosis describe(RequestCheck f, List<RequestCheck> checks) {
    List<String> lines = new ArrayList<>();
    String wanted = f.wanted().equals("all") ? "all devices" : plural(f.wanted(), "device");
    lines.add(
        "claim "
            + f.claim()
            + ", request "
            + f.request()
            + ": wants "
            + wanted
            + " of class "
            + f.deviceClass()
            + ", "
            + f.usable()
            + " usable");
    StringBuilder b = new StringBuilder();
    b.append("the node offers ")
        .append(plural(Integer.toString(f.devicesOnNode()), "device"))
        .append(", ")
        .append(f.devicesOfClass())
        .append(" of the class");
    Rejection firstFailing = null;
    for (Rejection r : f.rejected()) {
      if (r.devices() == 0) {
        continue;
      }
      b.append("; ").append(r.by()).append(r.error() == null ? " rejected " : " failed on ");
      b.append(r.devices());
      if (firstFailing == null) {
        firstFailing = r;
      }
    }
    b.append("; ").append(f.allocated()).append(" allocated to other claims");
    lines.add(b.toString());
    if (firstFailing != null) {
      lines.add(
          "first failing: "
              + firstFailing.expression()
              + (firstFailing.error() == null
                  ? " rejected " + firstFailing.firstDevice()
                  : " failed on " + firstFailing.firstDevice() + ": " + firstFailing.error()));
    }
    String problem = lines.get(0);
    return new FilterDiagnosis(
        lines,
        new Detail(
            f.claim(),
            f.request(),
            problem,
            firstFailing == null ? null : firstFailing.expression(),
            firstFailing == null ? null : firstFailing.firstDevice(),
            checks));
  }

  /**
   * When every request could be served alone: a constraint the usable devices cannot keep, or more
   * devices wanted together than are usable.
   */
  private static String together(Allocator a, DynamicResourcesState s, List<RequestCheck> checks) {
    for (ResourceClaim claim : DynamicResources.toAllocate(s)) {
      var constraints = Allocator.constraints(claim);
      for (var c : constraints) {
        if (c.getMatchAttribute() != null) {
          return "every request of claim "
              + Allocator.claimRef(claim)
              + " could be served alone, but not together with its constraint matchAttribute "
              + c.getMatchAttribute()
              + " (the usable devices do not share one value of it)";
        }
      }
    }
    long wanted = 0;
    for (RequestCheck c : checks) {
      if (!c.wanted().equals("all") && c.request() != null) {
        wanted += Long.parseLong(c.wanted());
      }
    }
    return "every request could be served alone, but not all together: they want "
        + wanted
        + " devices in all, and usable devices are shared between requests";
  }

  private static String plural(String n, String word) {
    return n + " " + word + (n.equals("1") ? "" : "s");
  }
}
