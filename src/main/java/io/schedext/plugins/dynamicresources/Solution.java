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
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The devices one search found for every claim on a node, and the allocation results made from them
 * when asked for: Reserve asks on the chosen node only. The claims are given then: any claims with
 * the requests searched for, in the same order (a node's kept search serves later cycles' claims).
 * Immutable.
 */
final class Solution {

  static final String FROM_CLASS = "FromClass";
  static final String FROM_CLAIM = "FromClaim";

  /** A device picked for a request of a claim. */
  record Pick(String request, String parent, DeviceId id, SliceView slice, boolean adminAccess) {

    String requestName() {
      return parent == null ? request : parent + "/" + request;
    }
  }

  // By claim, request and alternative, as the search had them.
  private final Allocator.RequestData[][][] data;
  // The alternative picked, by claim and request.
  private final int[][] selected;
  private final List<List<Pick>> picks;

  Solution(Allocator.RequestData[][][] data, int[][] selected, List<List<Pick>> picks) {
    this.data = data;
    this.selected = selected;
    this.picks = picks;
  }

  /** One allocation result per claim of {@code claims}, in their order. */
  List<AllocationResult> results(List<ResourceClaim> claims) {
    List<AllocationResult> out = new ArrayList<>(claims.size());
    for (int c = 0; c < claims.size(); c++) {
      out.add(resultOf(claims.get(c), c));
    }
    return out;
  }

  /** The allocation result of claim {@code c}: devices, configuration, node selector. */
  private AllocationResult resultOf(ResourceClaim claim, int c) {
    List<DeviceRequestAllocationResult> devices = new ArrayList<>();
    for (Pick r : picks.get(c)) {
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
      Allocator.RequestData d = data[c][r][selected[c][r]];
      var dc = d.deviceClass();
      if (dc == null) {
        continue;
      }
      String className = dc.getMetadata().getName();
      int[] range = classConfigs.get(className);
      if (range != null) {
        for (int i = range[0]; i < range[1]; i++) {
          List<String> names = new ArrayList<>(config.get(i).getRequests());
          names.add(d.fullName());
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
        x.setRequests(new ArrayList<>(List.of(d.fullName())));
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
        if (data[c][r][0].parent() == null) {
          continue;
        }
        var sub = request.getFirstAvailable().get(selected[c][r]);
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
    out.setNodeSelector(nodeSelector(claim, c));
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
  private NodeSelector nodeSelector(ResourceClaim claim, int c) {
    List<NodeSelectorRequirement> fields = new ArrayList<>();
    List<NodeSelectorRequirement> expressions = new ArrayList<>();
    for (Pick r : picks.get(c)) {
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
                  + claim.getMetadata().getName()
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
