package io.schedext.plugins.volumerestrictions;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.AWSElasticBlockStoreVolumeSource;
import io.fabric8.kubernetes.api.model.GCEPersistentDiskVolumeSource;
import io.fabric8.kubernetes.api.model.ISCSIVolumeSource;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaim;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaimBuilder;
import io.fabric8.kubernetes.api.model.RBDVolumeSource;
import io.fabric8.kubernetes.api.model.Volume;
import io.fabric8.kubernetes.api.model.VolumeBuilder;
import io.schedext.cluster.ObjectStore;
import io.schedext.framework.CycleState;
import io.schedext.framework.NodeInfo;
import io.schedext.framework.PluginArgs;
import io.schedext.framework.PodInfo;
import io.schedext.framework.Status;
import io.schedext.plugins.Names;
import io.schedext.testing.MakeNode;
import io.schedext.testing.MakePod;
import io.schedext.testing.PodWrapper;
import io.schedext.testing.TestFrameworks;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

class VolumeRestrictionsTest {

  private static final Status DISK_CONFLICT =
      Status.unschedulable(VolumeRestrictions.ERR_REASON_DISK_CONFLICT)
          .withPlugin(Names.VOLUME_RESTRICTIONS);
  private static final Status RWOP_CONFLICT =
      Status.unschedulable(VolumeRestrictions.ERR_REASON_READ_WRITE_ONCE_POD_CONFLICT)
          .withPlugin(Names.VOLUME_RESTRICTIONS);
  private static final Status SKIP = Status.skip();

  /**
   * One table row: PreFilter must return {@code wantPreFilter}; when that is Success, Filter on
   * {@code node} must return {@code wantFilter}.
   */
  record Case(
      String name,
      PodInfo pod,
      List<NodeInfo> nodes,
      List<PersistentVolumeClaim> claims,
      Status wantPreFilter,
      Status wantFilter) {
    @Override
    public String toString() {
      return name;
    }
  }

  static Case disk(
      String name, PodInfo pod, NodeInfo node, Status wantPreFilter, Status wantFilter) {
    return new Case(name, pod, List.of(node), List.of(), wantPreFilter, wantFilter);
  }

  static Volume gce(String pd, boolean readOnly) {
    return new VolumeBuilder()
        .withName("gce-" + pd)
        .withGcePersistentDisk(new GCEPersistentDiskVolumeSource(null, null, pd, readOnly))
        .build();
  }

  static Volume aws(String id, boolean readOnly) {
    return new VolumeBuilder()
        .withName("aws-" + id)
        .withAwsElasticBlockStore(new AWSElasticBlockStoreVolumeSource(null, null, readOnly, id))
        .build();
  }

  static Volume rbd(List<String> monitors, String pool, String image, boolean readOnly) {
    RBDVolumeSource s = new RBDVolumeSource();
    s.setMonitors(monitors);
    s.setPool(pool);
    s.setImage(image);
    s.setFsType("ext4");
    s.setReadOnly(readOnly);
    return new VolumeBuilder().withName("rbd-" + image).withRbd(s).build();
  }

  static Volume iscsi(String iqn, boolean readOnly) {
    ISCSIVolumeSource s = new ISCSIVolumeSource();
    s.setTargetPortal("127.0.0.1:3260");
    s.setIqn(iqn);
    s.setFsType("ext4");
    s.setLun(0);
    s.setReadOnly(readOnly);
    return new VolumeBuilder().withName("iscsi").withIscsi(s).build();
  }

  static PodInfo podWith(String name, Volume... volumes) {
    PodWrapper w = MakePod.pod().name(name);
    for (Volume v : volumes) {
      w.volume(v);
    }
    return w.info();
  }

  static NodeInfo nodeWith(PodInfo... pods) {
    return MakeNode.node().name("node-1").info(pods);
  }

  /** The four in-tree tables of upstream: same disk conflicts, another disk does not. */
  static Stream<Case> diskCases() {
    PodInfo empty = MakePod.pod().name("empty").info();
    Volume gceFoo = gce("foo", false);
    Volume awsFoo = aws("foo", false);
    Volume rbdFoo = rbd(List.of("a", "b"), "foo", "bar", false);
    Volume iscsiFoo = iscsi("iqn.2016-12.server:storage.target01", false);
    return Stream.of(
        disk("a pod without volumes on an empty node is skipped", empty, nodeWith(), SKIP, null),
        disk(
            "a pod without volumes next to a GCE disk user is skipped",
            empty,
            nodeWith(podWith("e", gceFoo)),
            SKIP,
            null),
        disk(
            "the same GCE disk mounted read-write twice conflicts",
            podWith("p", gceFoo),
            nodeWith(podWith("e", gceFoo)),
            Status.success(),
            DISK_CONFLICT),
        disk(
            "another GCE disk does not conflict",
            podWith("p", gce("bar", false)),
            nodeWith(podWith("e", gceFoo)),
            Status.success(),
            Status.success()),
        disk(
            "a volume kind without restrictions is skipped",
            podWith("p", new VolumeBuilder().withName("x").build()),
            nodeWith(),
            SKIP,
            null),
        disk(
            "the same GCE disk read-only on both sides does not conflict",
            podWith("p", gce("foo", true)),
            nodeWith(podWith("e", gce("foo", true))),
            Status.success(),
            Status.success()),
        disk(
            "the same GCE disk read-only on one side only conflicts",
            podWith("p", gce("foo", true)),
            nodeWith(podWith("e", gceFoo)),
            Status.success(),
            DISK_CONFLICT),
        disk(
            "a pod without volumes next to an EBS user is skipped",
            empty,
            nodeWith(podWith("e", awsFoo)),
            SKIP,
            null),
        disk(
            "the same EBS volume conflicts",
            podWith("p", awsFoo),
            nodeWith(podWith("e", awsFoo)),
            Status.success(),
            DISK_CONFLICT),
        disk(
            "another EBS volume does not conflict",
            podWith("p", aws("bar", false)),
            nodeWith(podWith("e", awsFoo)),
            Status.success(),
            Status.success()),
        disk(
            "the same EBS volume conflicts even when both mounts are read-only",
            podWith("p", aws("foo", true)),
            nodeWith(podWith("e", aws("foo", true))),
            Status.success(),
            DISK_CONFLICT),
        disk(
            "a pod without volumes next to an RBD user is skipped",
            empty,
            nodeWith(podWith("e", rbdFoo)),
            SKIP,
            null),
        disk(
            "the same RBD image on the same monitors conflicts",
            podWith("p", rbdFoo),
            nodeWith(podWith("e", rbdFoo)),
            Status.success(),
            DISK_CONFLICT),
        disk(
            "the same RBD image behind disjoint monitors does not conflict",
            podWith("p", rbd(List.of("c", "d"), "foo", "bar", false)),
            nodeWith(podWith("e", rbdFoo)),
            Status.success(),
            Status.success()),
        disk(
            "one shared monitor is enough for an RBD conflict",
            podWith("p", rbd(List.of("b", "z"), "foo", "bar", false)),
            nodeWith(podWith("e", rbdFoo)),
            Status.success(),
            DISK_CONFLICT),
        disk(
            "another RBD pool does not conflict",
            podWith("p", rbd(List.of("a", "b"), "other", "bar", false)),
            nodeWith(podWith("e", rbdFoo)),
            Status.success(),
            Status.success()),
        disk(
            "the same RBD image read-only on both sides does not conflict",
            podWith("p", rbd(List.of("a"), "foo", "bar", true)),
            nodeWith(podWith("e", rbd(List.of("a"), "foo", "bar", true))),
            Status.success(),
            Status.success()),
        disk(
            "a pod without volumes next to an iSCSI user is skipped",
            empty,
            nodeWith(podWith("e", iscsiFoo)),
            SKIP,
            null),
        disk(
            "the same iSCSI IQN conflicts",
            podWith("p", iscsiFoo),
            nodeWith(podWith("e", iscsiFoo)),
            Status.success(),
            DISK_CONFLICT),
        disk(
            "another iSCSI IQN does not conflict",
            podWith("p", iscsi("iqn.2017-12.server:storage.target01", false)),
            nodeWith(podWith("e", iscsiFoo)),
            Status.success(),
            Status.success()),
        disk(
            "the same iSCSI IQN read-only on both sides does not conflict",
            podWith("p", iscsi("iqn.2016-12.server:storage.target01", true)),
            nodeWith(podWith("e", iscsi("iqn.2016-12.server:storage.target01", true))),
            Status.success(),
            Status.success()));
  }

  static PersistentVolumeClaim claim(String name, String accessMode) {
    return new PersistentVolumeClaimBuilder()
        .withNewMetadata()
        .withNamespace("default")
        .withName(name)
        .endMetadata()
        .withNewSpec()
        .withAccessModes(accessMode)
        .endSpec()
        .build();
  }

  /**
   * Upstream's access-mode table: ReadWriteOncePod claims in use anywhere make the pod
   * unschedulable.
   */
  static Stream<Case> accessModeCases() {
    PodInfo podWithOnePvc =
        MakePod.pod().name("pod-with-one-pvc").pvc("claim-with-rwop-1").node("node-1").info();
    PodInfo podWithTwoPvcs =
        MakePod.pod()
            .name("pod-with-two-pvcs")
            .pvc("claim-with-rwop-1")
            .pvc("claim-with-rwop-2")
            .node("node-1")
            .info();
    PodInfo podWithOneConflict =
        MakePod.pod().name("pod-with-one-conflict").pvc("claim-with-rwop-1").node("node-1").info();
    PodInfo podWithTwoConflicts =
        MakePod.pod()
            .name("pod-with-two-conflicts")
            .pvc("claim-with-rwop-1")
            .pvc("claim-with-rwop-2")
            .node("node-1")
            .info();
    PodInfo podWithRwx =
        MakePod.pod().name("pod-with-rwx").pvc("claim-with-rwx").node("node-1").info();
    PersistentVolumeClaim rwop1 = claim("claim-with-rwop-1", "ReadWriteOncePod");
    PersistentVolumeClaim rwop2 = claim("claim-with-rwop-2", "ReadWriteOncePod");
    PersistentVolumeClaim rwx = claim("claim-with-rwx", "ReadWriteMany");
    return Stream.of(
        new Case(
            "a pod without claims is skipped",
            MakePod.pod().name("nothing").info(),
            List.of(),
            List.of(),
            SKIP,
            null),
        new Case(
            "a missing claim is unresolvable with the lister's not-found text",
            podWithOnePvc,
            List.of(),
            List.of(),
            Status.unresolvable("persistentvolumeclaim \"claim-with-rwop-1\" not found")
                .withPlugin(Names.VOLUME_RESTRICTIONS),
            null),
        new Case(
            "an unused ReadWriteOncePod claim skips the Filter",
            podWithOnePvc,
            List.of(nodeWith(podWithRwx)),
            List.of(rwop1, rwx),
            SKIP,
            null),
        new Case(
            "a ReadWriteOncePod claim used by a scheduled pod is unschedulable",
            podWithOneConflict,
            List.of(nodeWith(podWithOnePvc, podWithRwx)),
            List.of(rwop1, rwx),
            Status.success(),
            RWOP_CONFLICT),
        new Case(
            "two ReadWriteOncePod claims in use are unschedulable",
            podWithTwoConflicts,
            List.of(nodeWith(podWithTwoPvcs, podWithRwx)),
            List.of(rwop1, rwop2, rwx),
            Status.success(),
            RWOP_CONFLICT),
        new Case(
            "a ReadWriteOncePod claim used on another node is unschedulable on every node",
            podWithOneConflict,
            List.of(
                MakeNode.node().name("node-2").info(podWithOnePvc),
                MakeNode.node().name("node-1").info()),
            List.of(rwop1),
            Status.success(),
            RWOP_CONFLICT));
  }

  static Stream<Case> cases() {
    return Stream.concat(diskCases(), accessModeCases());
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void preFilterThenFilter(Case c) {
    ObjectStore store = new ObjectStore();
    c.claims().forEach(store::put);
    VolumeRestrictions plugin =
        VolumeRestrictions.create(PluginArgs.none(), TestFrameworks.handle(store));
    CycleState state = TestFrameworks.cycleState(c.nodes());
    Status pre = plugin.preFilter(state, c.pod()).status();
    assertThat(pre).isEqualTo(c.wantPreFilter());
    if (pre.isSuccess()) {
      NodeInfo target = c.nodes().get(c.nodes().size() - 1);
      assertThat(plugin.filter(state, c.pod(), target)).isEqualTo(c.wantFilter());
    }
  }

  @Test
  void removingTheOnlyOtherUserOfAReadWriteOncePodClaimLetsThePodFitAndAddingItBackDoesNot() {
    PodInfo user = MakePod.pod().name("user").pvc("rwop").node("node-1").info();
    PodInfo other = MakePod.pod().name("other").pvc("unrelated").node("node-1").info();
    PodInfo pod = MakePod.pod().name("pod").pvc("rwop").info();
    NodeInfo node = nodeWith(user, other);
    ObjectStore store = new ObjectStore();
    store.put(claim("rwop", "ReadWriteOncePod"));
    store.put(claim("unrelated", "ReadWriteOncePod"));
    VolumeRestrictions plugin =
        VolumeRestrictions.create(PluginArgs.none(), TestFrameworks.handle(store));
    CycleState state = TestFrameworks.cycleState(List.of(node));
    assertThat(plugin.preFilter(state, pod).status()).isEqualTo(Status.success());

    CycleState removed = state.copy();
    assertThat(plugin.removePod(removed, pod, other, node)).isEqualTo(Status.success());
    assertThat(plugin.filter(removed, pod, node)).isEqualTo(RWOP_CONFLICT);
    assertThat(plugin.removePod(removed, pod, user, node)).isEqualTo(Status.success());
    assertThat(plugin.filter(removed, pod, node)).isEqualTo(Status.success());
    assertThat(plugin.filter(state, pod, node))
        .as("the original state is untouched")
        .isEqualTo(RWOP_CONFLICT);

    assertThat(plugin.addPod(removed, pod, user, node)).isEqualTo(Status.success());
    assertThat(plugin.filter(removed, pod, node)).isEqualTo(RWOP_CONFLICT);
  }

  @Test
  void aDiskConflictIsReportedBeforeAReadWriteOncePodConflict() {
    Volume disk = gce("foo", false);
    PodInfo user = MakePod.pod().name("user").pvc("rwop").volume(disk).node("node-1").info();
    PodInfo pod = MakePod.pod().name("pod").pvc("rwop").volume(disk).info();
    NodeInfo node = nodeWith(user);
    ObjectStore store = new ObjectStore();
    store.put(claim("rwop", "ReadWriteOncePod"));
    VolumeRestrictions plugin =
        VolumeRestrictions.create(PluginArgs.none(), TestFrameworks.handle(store));
    CycleState state = TestFrameworks.cycleState(List.of(node));
    assertThat(plugin.preFilter(state, pod).status()).isEqualTo(Status.success());
    assertThat(plugin.filter(state, pod, node)).isEqualTo(DISK_CONFLICT);
  }
}
