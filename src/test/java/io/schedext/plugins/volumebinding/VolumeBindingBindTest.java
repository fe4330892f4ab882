package io.schedext.plugins.volumebinding;

import static io.schedext.plugins.volumebinding.BindFixtures.PROVISIONED_PVC;
import static io.schedext.plugins.volumebinding.BindFixtures.PV_NODE1A;
import static io.schedext.plugins.volumebinding.BindFixtures.UNBOUND_PVC;
import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.PersistentVolumeClaim;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaimBuilder;
import io.schedext.framework.CycleState;
import io.schedext.framework.NodeInfo;
import io.schedext.framework.PodInfo;
import io.schedext.framework.Registry;
import io.schedext.framework.Status;
import io.schedext.framework.runtime.Framework;
import io.schedext.plugins.Names;
import io.schedext.testing.MakeNode;
import io.schedext.testing.MakePod;
import io.schedext.testing.TestFrameworks;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * VolumeBinding's Reserve, Unreserve and PreBind through a framework, on a fake API and a fake
 * clock.
 */
class VolumeBindingBindTest {

  static final NodeInfo NODE1 = FindPodVolumesTest.NODE1;
  static final NodeInfo NODE2 =
      MakeNode.node().name("node2").label(Fixtures.NODE_LABEL_KEY, "node2").info();
  static final List<NodeInfo> NODES = List.of(NODE1, NODE2);

  private FakeApi api;
  private FakeTime time;
  private final AtomicReference<VolumeBinding> plugin = new AtomicReference<>();
  private Framework fw;

  @BeforeEach
  void setUp() {
    api = new FakeApi(Fixtures.store());
    time = new FakeTime().afterEachSleep(() -> api.sync());
    Registry registry =
        new Registry()
            .register(
                Names.VOLUME_BINDING,
                (args, handle) -> {
                  plugin.set(VolumeBinding.create(args, handle, time, time));
                  return plugin.get();
                });
    fw =
        TestFrameworks.framework(
            registry,
            TestFrameworks.services(api.informer(), api),
            List.of(Names.VOLUME_BINDING),
            Map.of(Names.VOLUME_BINDING, "{\"bindTimeoutSeconds\":5}"));
  }

  static PodInfo pod(String name, String... claims) {
    var w = MakePod.pod().name(name).namespace(Fixtures.NS);
    for (String c : claims) {
      w.pvc(c);
    }
    return w.info();
  }

  static PersistentVolumeClaim claim(String name) {
    return new PersistentVolumeClaimBuilder(UNBOUND_PVC)
        .editMetadata()
        .withName(name)
        .withUid(name + "-uid")
        .endMetadata()
        .build();
  }

  /** Plays the PV controller: binds every claim whose volume the API has pre-bound to it. */
  private void bindPreBoundClaims() {
    for (var pv : api.pvs()) {
      var ref = pv.getSpec().getClaimRef();
      PersistentVolumeClaim pvc =
          ref == null ? null : api.pvc(ref.getNamespace() + "/" + ref.getName());
      if (pvc != null && ClaimClassifier.volumeName(pvc).isEmpty()) {
        BindPodVolumesTest.bindClaim(api, pvc, pv.getMetadata().getName());
      }
    }
  }

  @Test
  void reserveTakesTheVolumeForLaterPodsAndUnreserveGivesItBack() {
    api.addPod(Fixtures.NS, "a").putSynced(PV_NODE1A, claim("claim-a"), claim("claim-b"));
    PodInfo a = pod("a", "claim-a");
    PodInfo b = pod("b", "claim-b");
    CycleState state = fw.newCycleState(io.schedext.cache.Snapshot.of(NODES));
    fw.runPreFilterPlugins(state, a);
    assertThat(fw.runFilterPlugins(state, a, NODE1)).isEqualTo(Status.success());

    assertThat(fw.runReservePluginsReserve(state, a.assignedTo("node1"), "node1"))
        .isEqualTo(Status.success());
    assertThat(plugin.get().caches().volume("pv-node1a").getSpec().getClaimRef().getName())
        .isEqualTo("claim-a");
    assertThat(plugin.get().caches().pvs().getApiObject("pv-node1a")).isSameAs(PV_NODE1A);
    assertThat(BindCycle.run(fw, b, NODE1, NODES))
        .isEqualTo(
            Status.unresolvable(VolumeFinder.ERR_REASON_BIND_CONFLICT)
                .withPlugin(Names.VOLUME_BINDING));

    fw.runReservePluginsUnreserve(state, a.assignedTo("node1"), "node1");
    assertThat(plugin.get().caches().volume("pv-node1a")).isSameAs(PV_NODE1A);
    CycleState again = fw.newCycleState(io.schedext.cache.Snapshot.of(NODES));
    fw.runPreFilterPlugins(again, b);
    assertThat(fw.runFilterPlugins(again, b, NODE1)).isEqualTo(Status.success());
    assertThat(api.writes()).isZero();
  }

  @Test
  void aStaticBindingIsWrittenAndWaitedForUntilThePvControllerBindsTheClaim() {
    api.addPod(Fixtures.NS, "a").putSynced(PV_NODE1A, claim("claim-a"));
    time.at(Duration.ofSeconds(2), this::bindPreBoundClaims);

    assertThat(BindCycle.run(fw, pod("a", "claim-a"), NODE1, NODES)).isEqualTo(Status.success());

    assertThat(time.elapsed()).isEqualTo(Duration.ofSeconds(2));
    assertThat(api.pv("pv-node1a").getSpec().getClaimRef().getUid()).isEqualTo("claim-a-uid");
    assertThat(api.pv("pv-node1a").getMetadata().getAnnotations())
        .containsEntry(PodVolumeAssumer.ANN_BOUND_BY_CONTROLLER, "yes");
    assertThat(plugin.get().caches().volume("pv-node1a"))
        .isSameAs(api.pv("pv-node1a"))
        .isSameAs(plugin.get().caches().pvs().getApiObject("pv-node1a"));
    assertThat(plugin.get().caches().claim(Fixtures.NS, "claim-a"))
        .isSameAs(api.pvc("testns/claim-a"));
  }

  @Test
  void aClaimToProvisionIsWrittenWithTheSelectedNode() {
    api.addPod(Fixtures.NS, "a").putSynced(PROVISIONED_PVC);
    time.at(
        Duration.ofSeconds(3),
        () -> {
          api.put(
              Fixtures.volume(
                  "pvc-new",
                  "node1",
                  "1Gi",
                  api.pvc("testns/provisioned-pvc"),
                  Fixtures.WAIT_CLASS));
          BindPodVolumesTest.bindClaim(api, PROVISIONED_PVC, "pvc-new");
        });

    assertThat(BindCycle.run(fw, pod("a", "provisioned-pvc"), NODE1, NODES))
        .isEqualTo(Status.success());

    assertThat(api.pvc("testns/provisioned-pvc").getMetadata().getAnnotations())
        .containsEntry(Fixtures.SELECTED_NODE, "node1");
    assertThat(time.elapsed()).isEqualTo(Duration.ofSeconds(3));
  }

  @Test
  void aTimeoutFailsPreBindAndUnreserveLeavesTheCacheOnTheApiVersion() {
    api.addPod(Fixtures.NS, "a").putSynced(PV_NODE1A, claim("claim-a"));

    assertThat(BindCycle.run(fw, pod("a", "claim-a"), NODE1, NODES))
        .isEqualTo(
            Status.error(
                "running PreBind plugin \"VolumeBinding\": binding volumes: context deadline exceeded"));

    assertThat(time.elapsed()).isEqualTo(Duration.ofSeconds(5));
    assertThat(plugin.get().caches().volume("pv-node1a"))
        .isSameAs(api.pv("pv-node1a"))
        .isSameAs(plugin.get().caches().pvs().getApiObject("pv-node1a"));
    assertThat(api.pv("pv-node1a").getSpec().getClaimRef().getName()).isEqualTo("claim-a");
  }

  @Test
  void aPodWhoseClaimsAreAllBoundWritesNothing() {
    api.addPod(Fixtures.NS, "a").putSynced(FindPodVolumesTest.BOUND_PVC, BindFixtures.PV_BOUND);

    assertThat(BindCycle.run(fw, pod("a", "bound-pvc"), NODE1, NODES)).isEqualTo(Status.success());
    assertThat(api.writes()).isZero();
    assertThat(time.sleeps()).isZero();
  }

  @Test
  void aVolumeGoneBetweenFilterAndReserveFailsReserve() {
    api.addPod(Fixtures.NS, "a").putSynced(PV_NODE1A, claim("claim-a"));
    PodInfo a = pod("a", "claim-a");
    CycleState state = fw.newCycleState(io.schedext.cache.Snapshot.of(NODES));
    fw.runPreFilterPlugins(state, a);
    fw.runFilterPlugins(state, a, NODE1);
    api.delete(PV_NODE1A);
    api.sync();

    assertThat(fw.runReservePluginsReserve(state, a.assignedTo("node1"), "node1"))
        .isEqualTo(
            Status.error(
                "running Reserve plugin \"VolumeBinding\": could not find v1.PersistentVolume \"pv-node1a\""));
  }

  @Test
  void preBindOnANodeFilterNeverSawIsAnError() {
    api.addPod(Fixtures.NS, "a").putSynced(PV_NODE1A, claim("claim-a"));
    PodInfo a = pod("a", "claim-a");
    CycleState state = fw.newCycleState(io.schedext.cache.Snapshot.of(NODES));
    fw.runPreFilterPlugins(state, a);
    fw.runFilterPlugins(state, a, NODE1);
    fw.runReservePluginsReserve(state, a.assignedTo("node1"), "node1");

    assertThat(fw.runPreBindPlugins(state, a.assignedTo("node2"), "node2"))
        .isEqualTo(
            Status.error(
                "running PreBind plugin \"VolumeBinding\": no pod volumes found for node \"node2\""));
  }
}
