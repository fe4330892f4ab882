package io.schedext.plugins.volumebinding;

import static io.schedext.plugins.volumebinding.Fixtures.ClaimState.BOUND;
import static io.schedext.plugins.volumebinding.Fixtures.ClaimState.PREBOUND;
import static io.schedext.plugins.volumebinding.Fixtures.ClaimState.SELECTED_NODE;
import static io.schedext.plugins.volumebinding.Fixtures.ClaimState.UNBOUND;
import static io.schedext.plugins.volumebinding.Fixtures.WAIT_CLASS;
import static io.schedext.plugins.volumebinding.Fixtures.WAIT_CLASS_WITH_PROVISIONER;
import static io.schedext.plugins.volumebinding.Fixtures.claim;
import static io.schedext.plugins.volumebinding.Fixtures.volume;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.PersistentVolume;
import io.fabric8.kubernetes.api.model.PersistentVolumeBuilder;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaim;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaimBuilder;
import io.schedext.framework.PodInfo;
import io.schedext.testing.MakePod;
import java.util.Map;

/**
 * The objects of upstream's binder_test.go the binding-side tests use (names as there, in constant
 * case).
 */
final class BindFixtures {

  static final PersistentVolumeClaim UNBOUND_PVC = FindPodVolumesTest.UNBOUND_PVC;
  static final PersistentVolumeClaim UNBOUND_PVC2 = FindPodVolumesTest.UNBOUND_PVC2;
  static final PersistentVolumeClaim PREBOUND_PVC_NODE1A =
      claim("unbound-pvc", "1G", "", PREBOUND, "pv-node1a", WAIT_CLASS);
  static final PersistentVolumeClaim BOUND_PVC_NODE1A =
      claim("unbound-pvc", "1G", "", BOUND, "pv-node1a", WAIT_CLASS);
  static final PersistentVolumeClaim PROVISIONED_PVC = FindPodVolumesTest.PROVISIONED_PVC;
  static final PersistentVolumeClaim PROVISIONED_PVC2 =
      claim("provisioned-pvc2", "1Gi", "", UNBOUND, "", WAIT_CLASS_WITH_PROVISIONER);
  static final PersistentVolumeClaim PROVISIONED_PVC_HIGHER_VERSION =
      claim("provisioned-pvc2", "1Gi", "", UNBOUND, "", "2", WAIT_CLASS_WITH_PROVISIONER);
  static final PersistentVolumeClaim PROVISIONED_PVC_BOUND =
      claim("provisioned-pvc", "1Gi", "", BOUND, "pv-bound", WAIT_CLASS_WITH_PROVISIONER);
  static final PersistentVolumeClaim SELECTED_NODE_PVC =
      claim("provisioned-pvc", "1Gi", "node1", SELECTED_NODE, "", WAIT_CLASS_WITH_PROVISIONER);

  static final PersistentVolume PV_NODE1A = FindPodVolumesTest.PV_NODE1A;
  static final PersistentVolume PV_NODE1B = FindPodVolumesTest.PV_NODE1B;
  static final PersistentVolume PV_NODE2 = FindPodVolumesTest.PV_NODE2;
  static final PersistentVolume PV_BOUND = FindPodVolumesTest.PV_BOUND;
  static final PersistentVolume PV_NODE1A_BOUND = FindPodVolumesTest.PV_NODE1A_BOUND;
  static final PersistentVolume PV_NODE1B_BOUND =
      volume("pv-node1b", "node1", "10G", UNBOUND_PVC2, WAIT_CLASS);
  static final PersistentVolume PV_NODE1B_BOUND_HIGHER_VERSION =
      volume("pv-node1b", "node1", "10G", "2", UNBOUND_PVC2, WAIT_CLASS);

  /**
   * The pod every binder test binds: {@code testns/test-pod} on node1, with no volumes of its own.
   */
  static final PodInfo POD =
      MakePod.pod().name("test-pod").namespace(Fixtures.NS).node("node1").info();

  /** Node labels per node name, as upstream's node informer holds them. */
  static final Map<String, Map<String, String>> NODES =
      Map.of(
          "node1",
          Map.of(Fixtures.NODE_LABEL_KEY, "node1"),
          "node2",
          Map.of(Fixtures.NODE_LABEL_KEY, "node2"));

  private BindFixtures() {}

  /** Upstream's addProvisionAnn: the claim with the selected-node annotation for node1. */
  static PersistentVolumeClaim withSelectedNode(PersistentVolumeClaim pvc) {
    return withSelectedNode(pvc, "node1");
  }

  /** Upstream's pvcSetSelectedNode. */
  static PersistentVolumeClaim withSelectedNode(PersistentVolumeClaim pvc, String node) {
    return new PersistentVolumeClaimBuilder(pvc)
        .editMetadata()
        .addToAnnotations(Fixtures.SELECTED_NODE, node)
        .endMetadata()
        .build();
  }

  /** Upstream's pvcSetEmptyAnnotations. */
  static PersistentVolumeClaim withoutAnnotations(PersistentVolumeClaim pvc) {
    return new PersistentVolumeClaimBuilder(pvc)
        .editMetadata()
        .withAnnotations(Map.of())
        .endMetadata()
        .build();
  }

  /** Upstream's pvRemoveClaimUID. */
  static PersistentVolume withoutClaimUid(PersistentVolume pv) {
    return new PersistentVolumeBuilder(pv)
        .editSpec()
        .editClaimRef()
        .withUid("")
        .endClaimRef()
        .endSpec()
        .build();
  }

  /** The object without its resource version, to compare content as upstream's validations do. */
  @SuppressWarnings("unchecked")
  static <T extends HasMetadata> T withoutVersion(T o) {
    if (o instanceof PersistentVolume pv) {
      return (T)
          new PersistentVolumeBuilder(pv)
              .editMetadata()
              .withResourceVersion(null)
              .endMetadata()
              .build();
    }
    return (T)
        new PersistentVolumeClaimBuilder((PersistentVolumeClaim) o)
            .editMetadata()
            .withResourceVersion(null)
            .endMetadata()
            .build();
  }
}
