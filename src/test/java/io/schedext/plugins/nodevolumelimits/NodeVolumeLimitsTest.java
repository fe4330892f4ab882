package io.schedext.plugins.nodevolumelimits;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.AWSElasticBlockStoreVolumeSource;
import io.fabric8.kubernetes.api.model.ConfigMapVolumeSource;
import io.fabric8.kubernetes.api.model.GCEPersistentDiskVolumeSource;
import io.fabric8.kubernetes.api.model.HostPathVolumeSource;
import io.fabric8.kubernetes.api.model.OwnerReferenceBuilder;
import io.fabric8.kubernetes.api.model.PersistentVolume;
import io.fabric8.kubernetes.api.model.PersistentVolumeBuilder;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaim;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaimBuilder;
import io.fabric8.kubernetes.api.model.SecretVolumeSource;
import io.fabric8.kubernetes.api.model.Volume;
import io.fabric8.kubernetes.api.model.VolumeBuilder;
import io.fabric8.kubernetes.api.model.storage.CSINode;
import io.fabric8.kubernetes.api.model.storage.CSINodeBuilder;
import io.fabric8.kubernetes.api.model.storage.CSINodeDriverBuilder;
import io.fabric8.kubernetes.api.model.storage.StorageClassBuilder;
import io.fabric8.kubernetes.api.model.storage.VolumeAttachment;
import io.fabric8.kubernetes.api.model.storage.VolumeAttachmentBuilder;
import io.schedext.cluster.ObjectStore;
import io.schedext.framework.CycleState;
import io.schedext.framework.NodeInfo;
import io.schedext.framework.PluginArgs;
import io.schedext.framework.PodInfo;
import io.schedext.framework.Status;
import io.schedext.plugins.Names;
import io.schedext.testing.MakeNode;
import io.schedext.testing.MakePod;
import io.schedext.testing.NodeWrapper;
import io.schedext.testing.PodWrapper;
import io.schedext.testing.TestFrameworks;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

class NodeVolumeLimitsTest {

  static final String EBS = "ebs.csi.aws.com";
  static final String GCE = "pd.csi.storage.gke.io";
  static final String IN_TREE_EBS = "kubernetes.io/aws-ebs";
  static final String HOSTPATH = "kubernetes.io/hostpath";
  static final String NODE = "node-for-max-pd-test-1";
  static final String SC = "csi-sc";

  static final Status EXCEEDED =
      Status.unschedulable(NodeVolumeLimits.ERR_REASON_MAX_VOLUME_COUNT_EXCEEDED)
          .withPlugin(Names.NODE_VOLUME_LIMITS);

  /** Where the node's limits come from, as upstream's {@code limitSource}. */
  enum Limits {
    NONE,
    NODE,
    CSINODE,
    CSINODE_WITHOUT_LIMIT,
    BOTH_CSINODE_LOWER
  }

  /**
   * One row of upstream's TestCSILimits: the pod to schedule, the pods already on the node, claims
   * beyond the fixture, the limit per driver and where it is declared, and the expected PreFilter
   * and Filter results.
   */
  record Case(
      String name,
      PodInfo newPod,
      List<PodInfo> existing,
      List<PersistentVolumeClaim> extraClaims,
      int maxVols,
      List<String> drivers,
      Limits limits,
      Status wantPreFilter,
      Status wantFilter) {
    @Override
    public String toString() {
      return name;
    }
  }

  static Case fits(
      String name,
      PodInfo pod,
      List<PodInfo> existing,
      int max,
      List<String> drivers,
      Limits limits) {
    return new Case(
        name, pod, existing, List.of(), max, drivers, limits, Status.success(), Status.success());
  }

  static Case exceeds(
      String name,
      PodInfo pod,
      List<PodInfo> existing,
      int max,
      List<String> drivers,
      Limits limits) {
    return new Case(
        name, pod, existing, List.of(), max, drivers, limits, Status.success(), EXCEEDED);
  }

  static PodInfo pvcPod(String name, String... claims) {
    PodWrapper w = MakePod.pod().name(name);
    for (String c : claims) {
      w.pvc(c);
    }
    return w.info();
  }

  static Volume ephemeral(String name) {
    return new VolumeBuilder().withName(name).withNewEphemeral().endEphemeral().build();
  }

  static Volume awsInline(String id) {
    return new VolumeBuilder()
        .withName("aws-" + id)
        .withAwsElasticBlockStore(new AWSElasticBlockStoreVolumeSource(null, null, false, id))
        .build();
  }

  static PersistentVolumeClaim ephemeralClaim(
      String ns, String name, String ownerName, String ownerUid) {
    var b =
        new PersistentVolumeClaimBuilder()
            .withNewMetadata()
            .withNamespace(ns)
            .withName(name)
            .endMetadata()
            .withNewSpec()
            .withStorageClassName(SC)
            .endSpec();
    if (ownerUid != null) {
      b.editMetadata()
          .withOwnerReferences(
              new OwnerReferenceBuilder()
                  .withKind("Pod")
                  .withName(ownerName)
                  .withUid(ownerUid)
                  .withController(true)
                  .build())
          .endMetadata();
    }
    return b.build();
  }

  static Stream<Case> cases() {
    PodInfo runningPod = pvcPod("running", "csi-ebs.csi.aws.com-3");
    PodInfo pendingVolumePod = pvcPod("pending", "csi-4");
    PodInfo unboundPvcPod2 = pvcPod("pending-2", "csi-4");
    PodInfo missingPvPod = pvcPod("missing-pv", "csi-6");
    PodInfo noScPvcPod = pvcPod("no-sc", "csi-5");
    PodInfo gceTwoVolPod =
        pvcPod("gce-two", "csi-pd.csi.storage.gke.io-1", "csi-pd.csi.storage.gke.io-2");
    PodInfo inTreeOneVolPod = pvcPod("in-tree-one", "csi-kubernetes.io/aws-ebs-0");
    PodInfo inTreeTwoVolPod =
        pvcPod("in-tree-two", "csi-kubernetes.io/aws-ebs-1", "csi-kubernetes.io/aws-ebs-2");
    PodInfo csiEbsOneVolPod = pvcPod("ebs-one", "csi-ebs.csi.aws.com-0");
    PodInfo csiEbsTwoVolPod = pvcPod("ebs-two", "csi-ebs.csi.aws.com-1", "csi-ebs.csi.aws.com-2");
    PodInfo inTreeNonMigratableOneVolPod = pvcPod("hostpath-one", "csi-kubernetes.io/hostpath-0");
    PodInfo ephemeralVolumePod =
        MakePod.pod().name("abc").namespace("test").uid("12345").volume(ephemeral("xyz")).info();
    PersistentVolumeClaim ephemeralClaimOwned = ephemeralClaim("test", "abc-xyz", "abc", "12345");
    PersistentVolumeClaim ephemeralClaimNotOwned = ephemeralClaim("test", "abc-xyz", null, null);
    PodInfo ephemeralTwoVolumePod =
        MakePod.pod()
            .name("abc")
            .namespace("test")
            .uid("12345II")
            .volume(ephemeral("x"))
            .volume(ephemeral("y"))
            .info();
    PersistentVolumeClaim ephemeralClaimX = ephemeralClaim("test", "abc-x", "abc", "12345II");
    PersistentVolumeClaim ephemeralClaimY = ephemeralClaim("test", "abc-y", "abc", "12345II");
    PodInfo inTreeInlineVolPod =
        MakePod.pod().name("inline").volume(awsInline("aws-inline1")).info();
    PodInfo inTreeInlineVolPodWithSameCsiVolumeId =
        MakePod.pod().name("inline-same").volume(awsInline("csi-ebs.csi.aws.com-1")).info();
    Volume configMap =
        new VolumeBuilder().withName("cm").withConfigMap(new ConfigMapVolumeSource()).build();
    Volume secret =
        new VolumeBuilder().withName("secret").withSecret(new SecretVolumeSource()).build();
    PodInfo onlyConfigmapAndSecretVolPod =
        MakePod.pod().name("cm-secret").volume(configMap).volume(secret).info();
    PodInfo pvcPodWithConfigmapAndSecret =
        MakePod.pod()
            .name("cm-secret-pvc")
            .volume(configMap)
            .volume(secret)
            .pvc("csi-ebs.csi.aws.com-0")
            .info();
    PodInfo ephemeralPodWithConfigmapAndSecret =
        MakePod.pod()
            .name("abc")
            .namespace("test")
            .uid("12345")
            .volume(configMap)
            .volume(secret)
            .volume(ephemeral("xyz"))
            .info();
    PodInfo inlineMigratablePodWithConfigmapAndSecret =
        MakePod.pod()
            .name("cm-secret-inline")
            .volume(configMap)
            .volume(secret)
            .volume(awsInline("aws-inline1"))
            .info();

    List<String> ebs = List.of(EBS);
    List<String> ebsGce = List.of(EBS, GCE);
    List<String> migrated = List.of(IN_TREE_EBS, EBS);
    Status ephemeralMissing =
        Status.unresolvable(
                "looking up PVC test/abc-xyz: persistentvolumeclaim \"abc-xyz\" not found")
            .withPlugin(Names.NODE_VOLUME_LIMITS);
    return Stream.of(
        fits(
            "a new volume under the limit fits on an empty node",
            csiEbsOneVolPod,
            List.of(),
            2,
            ebs,
            Limits.CSINODE),
        fits(
            "fits when the node volume limit covers the pod's CSI volume",
            csiEbsOneVolPod,
            List.of(runningPod, csiEbsTwoVolPod),
            4,
            ebs,
            Limits.CSINODE),
        exceeds(
            "does not fit when the node volume limit is below the pods' CSI volumes",
            csiEbsOneVolPod,
            List.of(runningPod, csiEbsTwoVolPod),
            2,
            ebs,
            Limits.CSINODE),
        fits(
            "fits when the driver reports no volume limit",
            csiEbsOneVolPod,
            List.of(runningPod, csiEbsTwoVolPod),
            2,
            ebs,
            Limits.CSINODE_WITHOUT_LIMIT),
        exceeds(
            "pending claims count towards the limit through their storage class",
            csiEbsOneVolPod,
            List.of(pendingVolumePod, csiEbsTwoVolPod),
            2,
            ebs,
            Limits.CSINODE),
        fits(
            "two pods with the same pending claim count it once",
            csiEbsOneVolPod,
            List.of(pendingVolumePod, unboundPvcPod2, csiEbsTwoVolPod),
            4,
            ebs,
            Limits.CSINODE),
        exceeds(
            "a claim whose volume is missing counts through its storage class",
            csiEbsOneVolPod,
            List.of(missingPvPod, csiEbsTwoVolPod),
            2,
            ebs,
            Limits.CSINODE),
        fits(
            "an unbound claim without a storage class is not counted",
            csiEbsOneVolPod,
            List.of(runningPod, noScPvcPod),
            2,
            ebs,
            Limits.CSINODE),
        exceeds(
            "volumes of the same driver count together",
            csiEbsOneVolPod,
            List.of(gceTwoVolPod, csiEbsTwoVolPod),
            2,
            ebsGce,
            Limits.CSINODE),
        fits(
            "volumes of another driver do not count",
            gceTwoVolPod,
            List.of(csiEbsTwoVolPod, runningPod),
            2,
            ebsGce,
            Limits.CSINODE),
        exceeds(
            "in-tree volumes count under their CSI driver",
            inTreeOneVolPod,
            List.of(inTreeTwoVolPod),
            2,
            migrated,
            Limits.CSINODE),
        fits(
            "without a CSINode in-tree volumes are not translated",
            inTreeInlineVolPod,
            List.of(inTreeTwoVolPod),
            0,
            migrated,
            Limits.NONE),
        exceeds(
            "unbound claims of an in-tree provisioner count under its CSI driver",
            pendingVolumePod,
            List.of(inTreeTwoVolPod),
            2,
            migrated,
            Limits.CSINODE),
        fits(
            "a driver without a reported limit does not limit in-tree volumes",
            inTreeOneVolPod,
            List.of(inTreeTwoVolPod),
            2,
            migrated,
            Limits.CSINODE_WITHOUT_LIMIT),
        fits(
            "non-migratable in-tree volumes are not counted",
            inTreeNonMigratableOneVolPod,
            List.of(csiEbsTwoVolPod),
            2,
            List.of(HOSTPATH, EBS),
            Limits.CSINODE),
        exceeds(
            "in-tree inline volumes count under their CSI driver",
            inTreeInlineVolPod,
            List.of(inTreeTwoVolPod),
            2,
            migrated,
            Limits.CSINODE),
        exceeds(
            "in-tree and CSI volumes count together when scheduling an in-tree volume",
            inTreeOneVolPod,
            List.of(csiEbsTwoVolPod),
            2,
            migrated,
            Limits.CSINODE),
        exceeds(
            "in-tree, inline and CSI volumes count together",
            inTreeInlineVolPod,
            List.of(csiEbsTwoVolPod, inTreeOneVolPod),
            3,
            migrated,
            Limits.CSINODE),
        fits(
            "an inline volume with the handle of an attached CSI volume is not counted again",
            inTreeInlineVolPodWithSameCsiVolumeId,
            List.of(csiEbsTwoVolPod, inTreeOneVolPod),
            3,
            migrated,
            Limits.CSINODE),
        exceeds(
            "in-tree and CSI volumes count together when scheduling a CSI volume",
            csiEbsOneVolPod,
            List.of(inTreeTwoVolPod),
            2,
            migrated,
            Limits.CSINODE),
        new Case(
            "a missing ephemeral claim is unresolvable",
            ephemeralVolumePod,
            List.of(),
            List.of(),
            0,
            ebs,
            Limits.CSINODE_WITHOUT_LIMIT,
            Status.success(),
            ephemeralMissing),
        new Case(
            "an ephemeral claim not owned by the pod is an error",
            ephemeralVolumePod,
            List.of(),
            List.of(ephemeralClaimNotOwned),
            0,
            ebs,
            Limits.CSINODE_WITHOUT_LIMIT,
            Status.success(),
            Status.error("PVC test/abc-xyz was not created for pod test/abc (pod is not owner)")
                .withPlugin(Names.NODE_VOLUME_LIMITS)),
        new Case(
            "an unbound ephemeral claim fits without limits",
            ephemeralVolumePod,
            List.of(),
            List.of(ephemeralClaimOwned),
            0,
            ebs,
            Limits.CSINODE_WITHOUT_LIMIT,
            Status.success(),
            Status.success()),
        new Case(
            "an ephemeral volume counts towards the limit",
            ephemeralVolumePod,
            List.of(runningPod, csiEbsTwoVolPod),
            List.of(ephemeralClaimOwned),
            2,
            ebs,
            Limits.CSINODE,
            Status.success(),
            EXCEEDED),
        new Case(
            "ephemeral volumes of existing pods count towards the limit",
            csiEbsOneVolPod,
            List.of(runningPod, ephemeralTwoVolumePod),
            List.of(ephemeralClaimX, ephemeralClaimY),
            2,
            ebs,
            Limits.CSINODE,
            Status.success(),
            EXCEEDED),
        new Case(
            "ephemeral and persistent volumes count together",
            csiEbsOneVolPod,
            List.of(runningPod, ephemeralVolumePod, csiEbsTwoVolPod),
            List.of(ephemeralClaimOwned),
            3,
            ebs,
            Limits.CSINODE,
            Status.success(),
            EXCEEDED),
        new Case(
            "ephemeral and persistent volumes fit under a higher limit",
            csiEbsOneVolPod,
            List.of(runningPod, ephemeralVolumePod, csiEbsTwoVolPod),
            List.of(ephemeralClaimOwned),
            5,
            ebs,
            Limits.CSINODE,
            Status.success(),
            Status.success()),
        new Case(
            "a pod with only config maps and secrets skips the Filter",
            onlyConfigmapAndSecretVolPod,
            List.of(),
            List.of(),
            2,
            ebs,
            Limits.CSINODE,
            Status.skip(),
            null),
        fits(
            "a pod with a claim besides config maps and secrets is filtered",
            pvcPodWithConfigmapAndSecret,
            List.of(),
            2,
            ebs,
            Limits.CSINODE),
        new Case(
            "a pod with an ephemeral volume besides config maps and secrets is filtered",
            ephemeralPodWithConfigmapAndSecret,
            List.of(),
            List.of(),
            0,
            ebs,
            Limits.CSINODE_WITHOUT_LIMIT,
            Status.success(),
            ephemeralMissing),
        exceeds(
            "a pod with a migratable inline volume besides config maps and secrets is filtered",
            inlineMigratablePodWithConfigmapAndSecret,
            List.of(inTreeTwoVolPod),
            2,
            migrated,
            Limits.CSINODE),
        fits(
            "node allocatable attach limits limit nothing: 1.34 reads the CSINode only",
            csiEbsOneVolPod,
            List.of(runningPod, csiEbsTwoVolPod),
            2,
            ebs,
            Limits.NODE),
        exceeds(
            "the CSINode count limits whatever the node allocatable says",
            csiEbsOneVolPod,
            List.of(runningPod, csiEbsTwoVolPod),
            3,
            ebs,
            Limits.BOTH_CSINODE_LOWER),
        fits(
            "a volume already attached on the node for another pod is not counted again",
            csiEbsOneVolPod,
            List.of(pvcPod("sharer", "csi-ebs.csi.aws.com-0"), runningPod),
            2,
            ebs,
            Limits.CSINODE));
  }

  static ObjectStore store(Case c) {
    ObjectStore s = new ObjectStore();
    for (String driver : c.drivers()) {
      for (int j = 0; j < 4; j++) {
        String name = "csi-" + driver + "-" + j;
        s.put(pv(name, driver));
        s.put(
            new PersistentVolumeClaimBuilder()
                .withNewMetadata()
                .withNamespace("default")
                .withName(name)
                .endMetadata()
                .withNewSpec()
                .withVolumeName(name)
                .endSpec()
                .build());
      }
    }
    s.put(
        new PersistentVolumeClaimBuilder()
            .withNewMetadata()
            .withNamespace("default")
            .withName("csi-4")
            .endMetadata()
            .withNewSpec()
            .withStorageClassName(SC)
            .endSpec()
            .build());
    s.put(
        new PersistentVolumeClaimBuilder()
            .withNewMetadata()
            .withNamespace("default")
            .withName("csi-5")
            .endMetadata()
            .withNewSpec()
            .endSpec()
            .build());
    s.put(
        new PersistentVolumeClaimBuilder()
            .withNewMetadata()
            .withNamespace("default")
            .withName("csi-6")
            .endMetadata()
            .withNewSpec()
            .withStorageClassName(SC)
            .withVolumeName("missing-in-action")
            .endSpec()
            .build());
    c.extraClaims().forEach(s::put);
    s.put(
        new StorageClassBuilder()
            .withNewMetadata()
            .withName(SC)
            .endMetadata()
            .withProvisioner(c.drivers().get(0))
            .build());
    CSINode csiNode = csiNode(c);
    if (csiNode != null) {
      s.put(csiNode);
    }
    return s;
  }

  static PersistentVolume pv(String name, String driver) {
    var b =
        new PersistentVolumeBuilder().withNewMetadata().withName(name).endMetadata().withNewSpec();
    var spec =
        switch (driver) {
          case IN_TREE_EBS ->
              b.withAwsElasticBlockStore(
                  new AWSElasticBlockStoreVolumeSource(null, null, null, name));
          case HOSTPATH -> b.withHostPath(new HostPathVolumeSource("/tmp", null));
          default -> b.withNewCsi().withDriver(driver).withVolumeHandle(name).endCsi();
        };
    return spec.endSpec().build();
  }

  static CSINode csiNode(Case c) {
    if (c.limits() == Limits.NONE || c.limits() == Limits.NODE) {
      return null;
    }
    boolean withLimit = c.limits() != Limits.CSINODE_WITHOUT_LIMIT;
    List<io.fabric8.kubernetes.api.model.storage.CSINodeDriver> drivers = new ArrayList<>();
    for (String d : c.drivers()) {
      var b = new CSINodeDriverBuilder().withName(d).withNodeID(NODE);
      if (withLimit) {
        b.withNewAllocatable().withCount(c.maxVols()).endAllocatable();
      }
      drivers.add(b.build());
    }
    return new CSINodeBuilder()
        .withNewMetadata()
        .withName(NODE)
        .endMetadata()
        .withNewSpec()
        .withDrivers(drivers)
        .endSpec()
        .build();
  }

  static NodeInfo node(Case c, PodInfo... pods) {
    NodeWrapper w = MakeNode.node().name(NODE);
    if (c.limits() == Limits.NODE || c.limits() == Limits.BOTH_CSINODE_LOWER) {
      Map<String, String> alloc = new LinkedHashMap<>();
      long nodeLimit = c.limits() == Limits.NODE ? c.maxVols() : c.maxVols() + 10L;
      for (String d : c.drivers()) {
        alloc.put("attachable-volumes-csi-" + d, Long.toString(nodeLimit));
      }
      w.allocatable(alloc);
    }
    return w.info(pods);
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void preFilterAndFilter(Case c) {
    NodeVolumeLimits plugin = new NodeVolumeLimits(store(c), NodeVolumeLimits.randomPrefix());
    NodeInfo node = node(c, c.existing().toArray(new PodInfo[0]));
    CycleState state = TestFrameworks.cycleState(List.of(node));
    Status pre = plugin.preFilter(state, c.newPod()).status();
    assertThat(pre).isEqualTo(c.wantPreFilter());
    if (!pre.isSkip()) {
      assertThat(plugin.filter(state, c.newPod(), node)).isEqualTo(c.wantFilter());
    }
  }

  /** A VolumeAttachment of PersistentVolume {@code pv} by {@code attacher} on {@code node}. */
  static VolumeAttachment attachment(String name, String node, String attacher, String pv) {
    return new VolumeAttachmentBuilder()
        .withNewMetadata()
        .withName(name)
        .endMetadata()
        .withNewSpec()
        .withNodeName(node)
        .withAttacher(attacher)
        .withNewSource()
        .withPersistentVolumeName(pv)
        .endSource()
        .endSpec()
        .build();
  }

  record AttachmentCase(
      String name, List<PodInfo> existing, List<VolumeAttachment> attachments, Status want) {
    @Override
    public String toString() {
      return name;
    }
  }

  /**
   * The VolumeAttachment rows of 1.34.9's TestCSILimits (limit 2, the pod brings one new EBS
   * volume), and what makes an attachment count or not.
   */
  static Stream<AttachmentCase> attachmentCases() {
    VolumeAttachment va0 = attachment("va-0", NODE, EBS, "csi-ebs.csi.aws.com-0");
    VolumeAttachment va1 = attachment("va-1", NODE, EBS, "csi-ebs.csi.aws.com-1");
    return Stream.of(
        new AttachmentCase(
            "attachments count towards the limit when no pod uses them",
            List.of(),
            List.of(va0, va1),
            EXCEEDED),
        new AttachmentCase(
            "one attachment under the limit lets the pod fit", List.of(), List.of(va0), null),
        new AttachmentCase(
            "an attachment of a volume a pod on the node uses is counted once",
            List.of(pvcPod("user", "csi-ebs.csi.aws.com-1")),
            List.of(va1),
            null),
        new AttachmentCase(
            "an attachment on another node does not count",
            List.of(),
            List.of(va0, attachment("va-other", "other-node", EBS, "csi-ebs.csi.aws.com-1")),
            null),
        new AttachmentCase(
            "an attachment without an attacher does not count",
            List.of(),
            List.of(va0, attachment("va-x", NODE, "", "csi-ebs.csi.aws.com-1")),
            null),
        new AttachmentCase(
            "an attachment without a persistent volume name does not count",
            List.of(),
            List.of(va0, attachment("va-x", NODE, EBS, null)),
            null),
        new AttachmentCase(
            "an attachment of a missing persistent volume does not count",
            List.of(),
            List.of(va0, attachment("va-x", NODE, EBS, "gone")),
            null));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("attachmentCases")
  void volumeAttachmentsOnTheNodeCount(AttachmentCase c) {
    Case base =
        new Case("", null, List.of(), List.of(), 2, List.of(EBS), Limits.CSINODE, null, null);
    ObjectStore s = store(base);
    c.attachments().forEach(s::put);
    NodeVolumeLimits plugin = new NodeVolumeLimits(s, "prefix");
    PodInfo pod = pvcPod("new", "csi-ebs.csi.aws.com-2");
    NodeInfo node = node(base, c.existing().toArray(new PodInfo[0]));
    assertThat(plugin.filter(TestFrameworks.cycleState(List.of(node)), pod, node))
        .isEqualTo(c.want() == null ? Status.success() : c.want());
  }

  @Test
  void anInlineEbsVolumeWithAMalformedUrlIdIsAnError() {
    Case c =
        new Case(
            "",
            null,
            List.of(),
            List.of(),
            2,
            List.of(IN_TREE_EBS, EBS),
            Limits.CSINODE,
            null,
            null);
    NodeVolumeLimits plugin = new NodeVolumeLimits(store(c), "prefix");
    PodInfo pod = MakePod.pod().name("bad").volume(awsInline("aws://zone/not-a-volume")).info();
    NodeInfo node = node(c);
    assertThat(plugin.filter(TestFrameworks.cycleState(List.of(node)), pod, node))
        .isEqualTo(
            Status.error(
                    "converting volume(aws-aws://zone/not-a-volume) from inline to csi: failed to translate Kubernetes ID to "
                        + "EBS Volume ID Invalid format for AWS volume (aws://zone/not-a-volume)")
                .withPlugin(Names.NODE_VOLUME_LIMITS));
  }

  @Test
  void gcePersistentDisksCountUnderTheirZonalHandle() {
    ObjectStore s = new ObjectStore();
    s.put(
        new PersistentVolumeBuilder()
            .withNewMetadata()
            .withName("gce-a")
            .withLabels(Map.of("topology.kubernetes.io/zone", "us-east1-b"))
            .endMetadata()
            .withNewSpec()
            .withGcePersistentDisk(new GCEPersistentDiskVolumeSource(null, null, "disk-1", null))
            .endSpec()
            .build());
    s.put(
        new PersistentVolumeBuilder()
            .withNewMetadata()
            .withName("csi-a")
            .endMetadata()
            .withNewSpec()
            .withNewCsi()
            .withDriver(GCE)
            .withVolumeHandle("projects/UNSPECIFIED/zones/us-east1-b/disks/disk-1")
            .endCsi()
            .endSpec()
            .build());
    s.put(claim("in-tree", "gce-a"));
    s.put(claim("csi", "csi-a"));
    Case c = new Case("", null, List.of(), List.of(), 1, List.of(GCE), Limits.CSINODE, null, null);
    s.put(csiNode(c));
    NodeVolumeLimits plugin = new NodeVolumeLimits(s, "prefix");
    NodeInfo node = node(c, pvcPod("existing", "csi"));
    assertThat(
            plugin.filter(TestFrameworks.cycleState(List.of(node)), pvcPod("new", "in-tree"), node))
        .as("the translated in-tree disk is the attached CSI disk")
        .isEqualTo(Status.success());
  }

  static PersistentVolumeClaim claim(String name, String volume) {
    return new PersistentVolumeClaimBuilder()
        .withNewMetadata()
        .withNamespace("default")
        .withName(name)
        .endMetadata()
        .withNewSpec()
        .withVolumeName(volume)
        .endSpec()
        .build();
  }

  @Test
  void theFactoryPicksARandomThirtyTwoCharacterPrefix() {
    assertThat(NodeVolumeLimits.randomPrefix())
        .hasSize(32)
        .matches("[bcdfghjklmnpqrstvwxz2456789]+");
    assertThat(
            NodeVolumeLimits.create(PluginArgs.none(), TestFrameworks.handle(new ObjectStore()))
                .name())
        .isEqualTo(Names.NODE_VOLUME_LIMITS);
  }
}
