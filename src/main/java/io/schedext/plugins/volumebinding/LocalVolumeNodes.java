package io.schedext.plugins.volumebinding;

import io.fabric8.kubernetes.api.model.NodeSelectorRequirement;
import io.fabric8.kubernetes.api.model.NodeSelectorTerm;
import io.fabric8.kubernetes.api.model.PersistentVolume;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Upstream's {@code GetEligibleNodes}: when bound claims use local volumes pinned by {@code
 * kubernetes.io/hostname In} terms, only the named nodes (the hostname label values, taken as node
 * names) are worth filtering. Stateless.
 */
final class LocalVolumeNodes {

  static final String HOSTNAME = "kubernetes.io/hostname";

  private LocalVolumeNodes() {}

  /**
   * The nodes the bound claims allow, or null when they do not narrow the nodes (or a volume is
   * missing).
   */
  static Set<String> eligible(List<PreparedClaims.BoundClaim> bound) {
    Set<String> eligible = null;
    for (PreparedClaims.BoundClaim b : bound) {
      if (b.volume() == null) {
        return null;
      }
      Set<String> names = nodeNames(b.volume().pv());
      if (names.isEmpty()) {
        continue;
      }
      if (eligible == null) {
        eligible = new HashSet<>(names);
      } else {
        eligible.retainAll(names);
      }
    }
    return eligible;
  }

  /** The union over the volume's required terms of the intersection of their hostname In values. */
  static Set<String> nodeNames(PersistentVolume pv) {
    Set<String> result = new HashSet<>();
    if (pv.getSpec() == null
        || pv.getSpec().getNodeAffinity() == null
        || pv.getSpec().getNodeAffinity().getRequired() == null
        || pv.getSpec().getNodeAffinity().getRequired().getNodeSelectorTerms() == null) {
      return result;
    }
    for (NodeSelectorTerm term :
        pv.getSpec().getNodeAffinity().getRequired().getNodeSelectorTerms()) {
      Set<String> nodes = null;
      if (term.getMatchExpressions() == null) {
        continue;
      }
      for (NodeSelectorRequirement r : term.getMatchExpressions()) {
        if (HOSTNAME.equals(r.getKey()) && "In".equals(r.getOperator())) {
          Set<String> values = r.getValues() == null ? Set.of() : new HashSet<>(r.getValues());
          if (nodes == null) {
            nodes = values;
          } else {
            nodes.retainAll(values);
          }
        }
      }
      if (nodes != null) {
        result.addAll(nodes);
      }
    }
    return result;
  }
}
