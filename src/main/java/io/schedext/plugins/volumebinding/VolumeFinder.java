package io.schedext.plugins.volumebinding;

import io.schedext.framework.FrameworkException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Upstream's {@code FindPodVolumes} for one node: bound claims' volumes must admit the node;
 * delayed claims already provisioned for another node (selected-node annotation) rule the node out;
 * the others are matched to existing volumes, and what stays unmatched must be provisionable.
 * Stateless and thread-safe.
 */
public final class VolumeFinder {

  /** A bound claim's volume does not admit the node. */
  public static final String ERR_REASON_NODE_CONFLICT =
      "node(s) didn't match PersistentVolume's node affinity";

  /** Some delayed claim can neither be matched nor provisioned. */
  public static final String ERR_REASON_BIND_CONFLICT =
      "node(s) didn't find available persistent volumes to bind";

  /** A claim to provision lacks storage capacity reachable from the node. */
  public static final String ERR_REASON_NOT_ENOUGH_SPACE =
      "node(s) did not have enough free storage";

  /** A bound claim's volume does not exist. */
  public static final String ERR_REASON_PV_NOT_EXIST =
      "node(s) unavailable due to one or more pvc(s) bound to non-existent pv(s)";

  private VolumeFinder() {}

  /**
   * What binding takes on the node, and why the node cannot be used (empty when it can).
   *
   * @param volumes the static bindings and claims to provision
   * @param reasons the conflict reasons in upstream's order
   */
  public record Result(PodVolumes volumes, List<String> reasons) {}

  /**
   * Checks {@code claims} against the node called {@code nodeName} with {@code nodeLabels}. Throws
   * {@link FrameworkException} for the failures upstream reports as errors (malformed claim
   * selector, claim class missing).
   */
  public static Result find(
      PreparedClaims claims, String nodeName, Map<String, String> nodeLabels) {
    boolean boundSatisfied = true;
    boolean boundVolumesFound = true;
    boolean unboundSatisfied = true;
    boolean sufficientStorage = true;
    List<BindingInfo> staticBindings = List.of();
    List<io.fabric8.kubernetes.api.model.PersistentVolumeClaim> provisions = List.of();

    for (PreparedClaims.BoundClaim b : claims.bound()) {
      if (b.volume() == null) {
        boundVolumesFound = false;
        break;
      }
      if (!b.volume().fitsNode(nodeLabels)) {
        boundSatisfied = false;
        break;
      }
    }

    if (!claims.delayed().isEmpty()) {
      List<ClaimRequest> toMatch = new ArrayList<>();
      List<ClaimRequest> toProvision = new ArrayList<>();
      boolean selectedElsewhere = false;
      for (ClaimRequest c : claims.delayed()) {
        if (c.selectedNode() == null) {
          toMatch.add(c);
        } else if (c.selectedNode().equals(nodeName)) {
          toProvision.add(c);
        } else {
          selectedElsewhere = true;
          break;
        }
      }
      if (selectedElsewhere) {
        unboundSatisfied = false;
      } else {
        if (!toMatch.isEmpty()) {
          PvMatcher.Matches m =
              PvMatcher.findMatchingVolumes(toMatch, claims.volumesByClass(), nodeLabels);
          unboundSatisfied = m.allMatched();
          staticBindings = m.bindings();
          toProvision.addAll(m.unmatched());
        }
        if (!toProvision.isEmpty()) {
          ProvisioningChecker.Outcome p =
              ProvisioningChecker.check(toProvision, claims.classes(), nodeLabels);
          unboundSatisfied = p.satisfied();
          sufficientStorage = p.sufficientStorage();
          provisions = p.dynamicProvisions();
        }
      }
    }

    List<String> reasons = new ArrayList<>(0);
    if (!boundSatisfied) {
      reasons.add(ERR_REASON_NODE_CONFLICT);
    }
    if (!unboundSatisfied) {
      reasons.add(ERR_REASON_BIND_CONFLICT);
    }
    if (!sufficientStorage) {
      reasons.add(ERR_REASON_NOT_ENOUGH_SPACE);
    }
    if (!boundVolumesFound) {
      reasons.add(ERR_REASON_PV_NOT_EXIST);
    }
    return new Result(new PodVolumes(staticBindings, provisions), reasons);
  }
}
