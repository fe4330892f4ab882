package io.schedext.plugins.volumebinding;

import io.fabric8.kubernetes.api.model.TopologySelectorLabelRequirement;
import io.fabric8.kubernetes.api.model.TopologySelectorTerm;
import io.fabric8.kubernetes.api.model.storage.CSIDriver;
import io.fabric8.kubernetes.api.model.storage.CSIStorageCapacity;
import io.fabric8.kubernetes.api.model.storage.StorageClass;
import io.schedext.framework.ClusterObjects;
import io.schedext.kube.LabelSelectors;
import io.schedext.kube.Quantities;
import io.schedext.kube.Requirement;
import io.schedext.kube.Selector;
import java.util.ArrayList;
import java.util.List;

/**
 * A storage class as dynamic provisioning checks read it, compiled once per cycle: provisioner,
 * allowed topologies, whether its CSI driver opted into capacity tracking, and the
 * CSIStorageCapacity objects of the class. Immutable.
 *
 * @param name the class name
 * @param found false when the class does not exist
 * @param provisioner the provisioner ("" when unset)
 * @param allowedTopologies one selector per allowed topology term (null for an empty or invalid
 *     term); empty list = every node
 * @param tracksCapacity true when the provisioner is a CSI driver with {@code storageCapacity:
 *     true}
 * @param capacities the capacity objects of this class
 */
public record ProvisioningClass(
    String name,
    boolean found,
    String provisioner,
    List<Selector> allowedTopologies,
    boolean tracksCapacity,
    List<Capacity> capacities) {

  /**
   * One CSIStorageCapacity of the class.
   *
   * @param limit the maximum volume size, else the capacity, in bytes; null when neither is set
   * @param nodeTopology the nodes that can use it, or null when none can (no or invalid topology)
   */
  public record Capacity(Long limit, Selector nodeTopology) {}

  /** Reads and compiles the class {@code name} and what belongs to it. */
  public static ProvisioningClass of(String name, ClusterObjects objects) {
    StorageClass sc = objects.storageClass(name);
    if (sc == null) {
      return new ProvisioningClass(name, false, "", List.of(), false, List.of());
    }
    String provisioner = sc.getProvisioner() == null ? "" : sc.getProvisioner();
    List<Selector> topologies = new ArrayList<>();
    if (sc.getAllowedTopologies() != null) {
      for (TopologySelectorTerm t : sc.getAllowedTopologies()) {
        topologies.add(compile(t));
      }
    }
    CSIDriver driver = objects.csiDriver(provisioner);
    boolean tracks =
        driver != null
            && driver.getSpec() != null
            && Boolean.TRUE.equals(driver.getSpec().getStorageCapacity());
    List<Capacity> capacities = new ArrayList<>();
    if (tracks) {
      for (CSIStorageCapacity c : objects.csiStorageCapacities()) {
        if (name.equals(c.getStorageClassName())) {
          capacities.add(capacity(c));
        }
      }
    }
    return new ProvisioningClass(
        name, true, provisioner, List.copyOf(topologies), tracks, List.copyOf(capacities));
  }

  private static Selector compile(TopologySelectorTerm term) {
    List<TopologySelectorLabelRequirement> exprs = term.getMatchLabelExpressions();
    if (exprs == null || exprs.isEmpty()) {
      return null;
    }
    try {
      List<Requirement> reqs = new ArrayList<>(exprs.size());
      for (TopologySelectorLabelRequirement r : exprs) {
        reqs.add(Requirement.of(r.getKey(), Requirement.Operator.IN, r.getValues()));
      }
      return Selector.everything().and(reqs);
    } catch (IllegalArgumentException e) {
      return null;
    }
  }

  private static Capacity capacity(CSIStorageCapacity c) {
    Long limit = null;
    if (c.getMaximumVolumeSize() != null) {
      limit = Quantities.value(c.getMaximumVolumeSize());
    } else if (c.getCapacity() != null) {
      limit = Quantities.value(c.getCapacity());
    }
    Selector topology = null;
    if (c.getNodeTopology() != null) {
      try {
        topology = LabelSelectors.compile(c.getNodeTopology());
      } catch (IllegalArgumentException e) {
        topology = null;
      }
    }
    return new Capacity(limit, topology);
  }
}
