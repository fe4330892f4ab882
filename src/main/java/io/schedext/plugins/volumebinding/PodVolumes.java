package io.schedext.plugins.volumebinding;

import io.fabric8.kubernetes.api.model.PersistentVolumeClaim;
import java.util.List;

/**
 * What binding the pod's volumes on one node takes, as upstream's {@code PodVolumes}: the static
 * bindings to existing volumes and the claims to provision dynamically. Immutable.
 *
 * @param staticBindings claims matched to existing volumes
 * @param dynamicProvisions claims whose volume will be provisioned for the node
 */
public record PodVolumes(
    List<BindingInfo> staticBindings, List<PersistentVolumeClaim> dynamicProvisions) {

  /** Nothing to bind. */
  public static final PodVolumes NONE = new PodVolumes(List.of(), List.of());

  /** Copies the lists. */
  public PodVolumes {
    staticBindings = List.copyOf(staticBindings);
    dynamicProvisions = List.copyOf(dynamicProvisions);
  }
}
