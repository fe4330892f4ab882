package io.schedext.plugins.volumebinding;

import io.fabric8.kubernetes.api.model.PersistentVolumeClaim;
import io.schedext.framework.FrameworkException;
import io.schedext.kube.Quantities;
import io.schedext.kube.Selector;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Decides whether claims without a matching volume can be provisioned for a node, as upstream's
 * {@code checkVolumeProvisions}: the class must have a real provisioner, allow the node's topology,
 * and — when its CSI driver tracks capacity — some CSIStorageCapacity of the class reachable from
 * the node must be large enough. Stateless and thread-safe.
 */
public final class ProvisioningChecker {

  /** The provisioner name meaning "no dynamic provisioning". */
  public static final String NOT_SUPPORTED_PROVISIONER = "kubernetes.io/no-provisioner";

  private ProvisioningChecker() {}

  /**
   * The outcome for the claims of one node.
   *
   * @param satisfied false when some claim cannot be provisioned at all (a bind conflict)
   * @param sufficientStorage false when some claim's class lacks capacity on the node
   * @param dynamicProvisions the claims to provision, empty unless every claim passed
   */
  public record Outcome(
      boolean satisfied,
      boolean sufficientStorage,
      List<PersistentVolumeClaim> dynamicProvisions) {}

  /**
   * Checks {@code claims} in order, stopping at the first that fails; throws {@link
   * FrameworkException} when a claim has no class or its class does not exist.
   */
  public static Outcome check(
      List<ClaimRequest> claims,
      Map<String, ProvisioningClass> classes,
      Map<String, String> nodeLabels) {
    List<PersistentVolumeClaim> provisions = new ArrayList<>(claims.size());
    for (ClaimRequest claim : claims) {
      if (claim.className().isEmpty()) {
        throw new FrameworkException("no class for claim \"" + claim.key() + "\"");
      }
      ProvisioningClass pc = classes.get(claim.className());
      if (pc == null || !pc.found()) {
        throw new FrameworkException("failed to find storage class \"" + claim.className() + "\"");
      }
      if (pc.provisioner().isEmpty() || NOT_SUPPORTED_PROVISIONER.equals(pc.provisioner())) {
        return new Outcome(false, true, List.of());
      }
      if (!topologyAllows(pc.allowedTopologies(), nodeLabels)) {
        return new Outcome(false, true, List.of());
      }
      if (!hasEnoughCapacity(claim, pc, nodeLabels)) {
        return new Outcome(true, false, List.of());
      }
      provisions.add(claim.pvc());
    }
    return new Outcome(true, true, provisions);
  }

  /**
   * Upstream's {@code MatchTopologySelectorTerms}: no terms admit every node, empty or invalid
   * terms none.
   */
  static boolean topologyAllows(List<Selector> terms, Map<String, String> nodeLabels) {
    if (terms.isEmpty()) {
      return true;
    }
    for (Selector s : terms) {
      if (s != null && s.matches(nodeLabels)) {
        return true;
      }
    }
    return false;
  }

  private static boolean hasEnoughCapacity(
      ClaimRequest claim, ProvisioningClass pc, Map<String, String> labels) {
    if (claim.storageRequest() == null || !pc.tracksCapacity()) {
      return true;
    }
    long size = Quantities.value(claim.storageRequest());
    for (ProvisioningClass.Capacity c : pc.capacities()) {
      if (c.limit() != null
          && c.limit() >= size
          && c.nodeTopology() != null
          && c.nodeTopology().matches(labels)) {
        return true;
      }
    }
    return false;
  }
}
