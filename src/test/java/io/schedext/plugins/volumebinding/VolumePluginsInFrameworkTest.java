package io.schedext.plugins.volumebinding;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.PersistentVolume;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaim;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaimBuilder;
import io.schedext.cache.Snapshot;
import io.schedext.cluster.ObjectStore;
import io.schedext.framework.CycleState;
import io.schedext.framework.NodeInfo;
import io.schedext.framework.PodInfo;
import io.schedext.framework.PreFilterResult;
import io.schedext.framework.Registry;
import io.schedext.framework.Status;
import io.schedext.framework.runtime.Framework;
import io.schedext.plugins.Names;
import io.schedext.plugins.nodevolumelimits.NodeVolumeLimits;
import io.schedext.plugins.volumerestrictions.VolumeRestrictions;
import io.schedext.plugins.volumezone.VolumeZone;
import io.schedext.testing.MakeNode;
import io.schedext.testing.MakePod;
import io.schedext.testing.TestFrameworks;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The four volume plugins through the framework, in the default profile's order, with their
 * factories.
 */
class VolumePluginsInFrameworkTest {

  static final String HOSTNAME = "kubernetes.io/hostname";
  static final String ZONE = "topology.kubernetes.io/zone";

  static Framework framework(ObjectStore store, String volumeBindingArgs) {
    Registry registry =
        new Registry()
            .register(Names.VOLUME_RESTRICTIONS, VolumeRestrictions::create)
            .register(Names.NODE_VOLUME_LIMITS, NodeVolumeLimits::create)
            .register(Names.VOLUME_BINDING, VolumeBinding::create)
            .register(Names.VOLUME_ZONE, VolumeZone::create);
    return TestFrameworks.framework(
        registry,
        store,
        List.of(
            Names.VOLUME_RESTRICTIONS,
            Names.NODE_VOLUME_LIMITS,
            Names.VOLUME_BINDING,
            Names.VOLUME_ZONE),
        Map.of(Names.VOLUME_BINDING, volumeBindingArgs));
  }

  static NodeInfo node(String name, String zone) {
    return MakeNode.node().name(name).label(HOSTNAME, name).label(ZONE, zone).info();
  }

  @Test
  void aBoundLocalVolumeNarrowsNoNodesAndItsAffinityAndZoneAreCheckedByFilter() {
    ObjectStore store = new ObjectStore();
    store.put(
        Fixtures.storageClass("local", "WaitForFirstConsumer", "kubernetes.io/no-provisioner"));
    PersistentVolume pv =
        Fixtures.volumeWithAffinity("pv-a", "local", "10Gi", "Bound", Map.of(HOSTNAME, "node-a"));
    pv.getMetadata().setLabels(Map.of(ZONE, "zone-b"));
    store.put(pv);
    store.put(
        new PersistentVolumeClaimBuilder()
            .withNewMetadata()
            .withNamespace("default")
            .withName("data")
            .addToAnnotations("pv.kubernetes.io/bind-completed", "yes")
            .endMetadata()
            .withNewSpec()
            .withStorageClassName("local")
            .withVolumeName("pv-a")
            .endSpec()
            .build());
    Framework fw = framework(store, "{\"bindTimeoutSeconds\":30}");
    NodeInfo a = node("node-a", "zone-a");
    NodeInfo b = node("node-b", "zone-b");
    CycleState state = fw.newCycleState(Snapshot.of(List.of(a, b)));
    PodInfo pod = MakePod.pod().name("p").pvc("data").info();

    PreFilterResult pre = fw.runPreFilterPlugins(state, pod);
    assertThat(pre).as("1.34's VolumeBinding narrows nothing").isEqualTo(PreFilterResult.success());
    assertThat(state.skipFilterPlugins()).containsExactly(Names.VOLUME_RESTRICTIONS);
    assertThat(fw.runFilterPlugins(state, pod, a))
        .isEqualTo(
            Status.unresolvable(VolumeZone.ERR_REASON_CONFLICT).withPlugin(Names.VOLUME_ZONE));
    assertThat(fw.runFilterPlugins(state, pod, b))
        .isEqualTo(
            Status.unresolvable("node(s) didn't match PersistentVolume's node affinity")
                .withPlugin(Names.VOLUME_BINDING));
  }

  @Test
  void anUnboundClaimIsMatchedOnTheNodeHoldingAFreeVolume() {
    ObjectStore store = new ObjectStore();
    store.put(
        Fixtures.storageClass("local", "WaitForFirstConsumer", "kubernetes.io/no-provisioner"));
    store.put(
        Fixtures.volumeWithAffinity(
            "pv-b", "local", "10Gi", "Available", Map.of(HOSTNAME, "node-b")));
    PersistentVolumeClaim claim =
        new PersistentVolumeClaimBuilder()
            .withNewMetadata()
            .withNamespace("default")
            .withName("data")
            .endMetadata()
            .withNewSpec()
            .withStorageClassName("local")
            .endSpec()
            .build();
    store.put(claim);
    Framework fw = framework(store, "{}");
    NodeInfo a = node("node-a", "zone-a");
    NodeInfo b = node("node-b", "zone-b");
    CycleState state = fw.newCycleState(Snapshot.of(List.of(a, b)));
    PodInfo pod = MakePod.pod().name("p").pvc("data").info();

    assertThat(fw.runPreFilterPlugins(state, pod)).isEqualTo(PreFilterResult.success());
    assertThat(state.skipFilterPlugins())
        .containsExactlyInAnyOrder(Names.VOLUME_RESTRICTIONS, Names.VOLUME_ZONE);
    assertThat(fw.runFilterPlugins(state, pod, a))
        .isEqualTo(
            Status.unresolvable(VolumeFinder.ERR_REASON_BIND_CONFLICT)
                .withPlugin(Names.VOLUME_BINDING));
    assertThat(fw.runFilterPlugins(state, pod, b)).isEqualTo(Status.success());
    VolumeBindingState s = state.read(VolumeBinding.STATE_KEY, VolumeBindingState.class);
    assertThat(s.podVolumesByNode().keySet()).containsExactly("node-b");
  }
}
