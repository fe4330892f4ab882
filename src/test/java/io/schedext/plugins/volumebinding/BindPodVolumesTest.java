package io.schedext.plugins.volumebinding;

import static io.schedext.plugins.volumebinding.BindFixtures.BOUND_PVC_NODE1A;
import static io.schedext.plugins.volumebinding.BindFixtures.NODES;
import static io.schedext.plugins.volumebinding.BindFixtures.POD;
import static io.schedext.plugins.volumebinding.BindFixtures.PROVISIONED_PVC;
import static io.schedext.plugins.volumebinding.BindFixtures.PV_NODE1A;
import static io.schedext.plugins.volumebinding.BindFixtures.PV_NODE1A_BOUND;
import static io.schedext.plugins.volumebinding.BindFixtures.PV_NODE1B;
import static io.schedext.plugins.volumebinding.BindFixtures.PV_NODE1B_BOUND;
import static io.schedext.plugins.volumebinding.BindFixtures.PV_NODE2;
import static io.schedext.plugins.volumebinding.BindFixtures.SELECTED_NODE_PVC;
import static io.schedext.plugins.volumebinding.BindFixtures.UNBOUND_PVC;
import static io.schedext.plugins.volumebinding.BindFixtures.UNBOUND_PVC2;
import static io.schedext.plugins.volumebinding.BindFixtures.withSelectedNode;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.PersistentVolume;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaim;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaimBuilder;
import io.schedext.framework.FrameworkException;
import io.schedext.framework.VolumeWriter;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Upstream's TestBindPodVolumes on a fake clock: a 10 s bind timeout, checks every second after the
 * API writes, the informer catching up after every sleep, and the "PV controller" (or a user)
 * acting at 5 s as upstream's delayed functions do.
 */
class BindPodVolumesTest {

  static final Duration TIMEOUT = Duration.ofSeconds(10);
  static final Duration DELAY = Duration.ofSeconds(5);
  static final String DEADLINE = "binding volumes: context deadline exceeded";

  /**
   * One row: what the informer and API hold, the binding and claim to provision (assumed), API
   * updates made right before PreBind, the node labels, what happens at 5 s, and the expected error
   * (null: none) and clock at the end.
   */
  record Case(
      String name,
      List<PersistentVolume> initPvs,
      List<PersistentVolumeClaim> initPvcs,
      BindingInfo binding,
      PersistentVolumeClaim toProvision,
      List<HasMetadata> apiUpdates,
      Map<String, Map<String, String>> nodes,
      Consumer<FakeApi> at5s,
      String wantError,
      Duration wantElapsed) {
    @Override
    public String toString() {
      return name;
    }
  }

  /** The claim as the API holds it now, bound to {@code pv} with the bind-completed annotation. */
  static void bindClaim(FakeApi api, PersistentVolumeClaim claim, String pv) {
    PersistentVolumeClaim current = api.pvc(AssumeCache.keyOf(claim));
    api.update(
        new PersistentVolumeClaimBuilder(current)
            .editMetadata()
            .addToAnnotations(Fixtures.BIND_COMPLETED, "yes")
            .endMetadata()
            .editSpec()
            .withVolumeName(pv)
            .endSpec()
            .build());
  }

  static Stream<Case> cases() {
    BindingInfo node1a = new BindingInfo(UNBOUND_PVC, PV_NODE1A_BOUND);
    return Stream.of(
        new Case(
            "nothing to bind is done at the first check",
            List.of(),
            List.of(),
            null,
            null,
            List.of(),
            NODES,
            null,
            null,
            Duration.ofSeconds(1)),
        new Case(
            "an already bound binding is done at the first check",
            List.of(PV_NODE1A_BOUND),
            List.of(BOUND_PVC_NODE1A),
            node1a,
            null,
            List.of(),
            NODES,
            null,
            null,
            Duration.ofSeconds(1)),
        new Case(
            "a static binding succeeds once the PV controller binds the claim",
            List.of(PV_NODE1A),
            List.of(UNBOUND_PVC),
            node1a,
            null,
            List.of(),
            NODES,
            api -> bindClaim(api, UNBOUND_PVC, "pv-node1a"),
            null,
            DELAY),
        new Case(
            "a dynamic provisioning succeeds once the provisioner creates and binds a volume",
            List.of(),
            List.of(PROVISIONED_PVC),
            null,
            withSelectedNode(PROVISIONED_PVC, "node1"),
            List.of(),
            NODES,
            api -> {
              api.put(
                  Fixtures.volume(
                      "dynamic-pv",
                      "node1",
                      "1G",
                      api.pvc("testns/provisioned-pvc"),
                      Fixtures.WAIT_CLASS));
              bindClaim(api, PROVISIONED_PVC, "dynamic-pv");
            },
            null,
            DELAY),
        new Case(
            "a volume the PV controller bound before PreBind makes the write conflict",
            List.of(PV_NODE1A),
            List.of(UNBOUND_PVC),
            node1a,
            null,
            List.of(PV_NODE1A_BOUND, BOUND_PVC_NODE1A),
            NODES,
            null,
            "Operation cannot be fulfilled on persistentvolumes \"pv-node1a\": the object has been modified; please "
                + "apply your changes to the latest version and try again",
            Duration.ZERO),
        new Case(
            "a pod deleted while waiting fails",
            List.of(PV_NODE1A),
            List.of(UNBOUND_PVC),
            node1a,
            null,
            List.of(),
            NODES,
            api -> api.deletePod(Fixtures.NS, "test-pod"),
            "binding volumes: pod does not exist any more: pod \"test-pod\" not found",
            DELAY),
        new Case(
            "a claim never bound times out",
            List.of(PV_NODE1A),
            List.of(UNBOUND_PVC),
            node1a,
            null,
            List.of(),
            NODES,
            null,
            DEADLINE,
            TIMEOUT),
        new Case(
            "another claim never bound times out too",
            List.of(PV_NODE1B),
            List.of(UNBOUND_PVC2),
            new BindingInfo(UNBOUND_PVC2, PV_NODE1B_BOUND),
            null,
            List.of(),
            NODES,
            null,
            DEADLINE,
            TIMEOUT),
        new Case(
            "a claim deleted while waiting fails",
            List.of(PV_NODE1A),
            List.of(UNBOUND_PVC),
            node1a,
            null,
            List.of(),
            NODES,
            api -> api.delete(UNBOUND_PVC),
            "binding volumes: failed to check binding: could not find v1.PersistentVolumeClaim \"testns/unbound-pvc\"",
            DELAY),
        new Case(
            "a volume whose node affinity the node does not match fails",
            List.of(PV_NODE1A_BOUND),
            List.of(BOUND_PVC_NODE1A),
            node1a,
            null,
            List.of(),
            Map.of("node1", Map.of()),
            null,
            "binding volumes: pv \"pv-node1a\" node affinity doesn't match node \"node1\": no matching "
                + "NodeSelectorTerms",
            Duration.ofSeconds(1)),
        new Case(
            "a claim provisioned with a volume of another node fails",
            List.of(PV_NODE1A, PV_NODE2),
            List.of(SELECTED_NODE_PVC),
            null,
            SELECTED_NODE_PVC,
            List.of(),
            NODES,
            api -> bindClaim(api, SELECTED_NODE_PVC, "pv-node2"),
            "binding volumes: pv \"pv-node2\" node affinity doesn't match node \"node1\": no matching "
                + "NodeSelectorTerms",
            DELAY));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void bindPodVolumes(Case c) {
    FakeApi api = CheckBindingsTest.setUp(c.initPvs(), c.initPvcs());
    VolumeAssumeCaches caches = new VolumeAssumeCaches(api.informer());
    List<BindingInfo> bindings = c.binding() == null ? List.of() : List.of(c.binding());
    List<PersistentVolumeClaim> provisions =
        c.toProvision() == null ? List.of() : List.of(c.toProvision());
    bindings.forEach(b -> caches.pvs().assume(b.pv()));
    provisions.forEach(caches.pvcs()::assume);
    c.apiUpdates().forEach(api::update);
    FakeTime time = new FakeTime().afterEachSleep(api::sync);
    if (c.at5s() != null) {
      time.at(DELAY, () -> c.at5s().accept(api));
    }
    PodVolumeBinder binder = new PodVolumeBinder(caches, api, TIMEOUT, time, time);
    PodVolumes volumes = new PodVolumes(bindings, provisions);

    if (c.wantError() == null) {
      binder.bindPodVolumes(POD, "node1", volumes, c.nodes()::get);
    } else {
      assertThatThrownBy(() -> binder.bindPodVolumes(POD, "node1", volumes, c.nodes()::get))
          .isInstanceOf(FrameworkException.class)
          .hasMessage(c.wantError());
    }
    assertThat(time.elapsed()).isEqualTo(c.wantElapsed());
  }

  @Test
  void theWaitChecksOncePerSecondAndTheDeadlineWinsTheLastTick() {
    FakeTime time = new FakeTime();
    PodVolumeBinder binder =
        new PodVolumeBinder(
            new VolumeAssumeCaches(), VolumeWriter.NONE, Duration.ofSeconds(3), time, time);
    int[] checks = {0};

    assertThatThrownBy(() -> binder.waitUntilBound(() -> ++checks[0] < 0))
        .hasMessage("context deadline exceeded");
    assertThat(checks[0]).isEqualTo(2);
    assertThat(time.elapsed()).isEqualTo(Duration.ofSeconds(3));
  }

  @Test
  void aZeroTimeoutGivesUpBeforeTheFirstCheck() {
    FakeTime time = new FakeTime();
    PodVolumeBinder binder =
        new PodVolumeBinder(new VolumeAssumeCaches(), VolumeWriter.NONE, Duration.ZERO, time, time);

    assertThatThrownBy(() -> binder.waitUntilBound(() -> true))
        .hasMessage("context deadline exceeded");
    assertThat(time.elapsed()).isZero();
  }

  @Test
  void anInterruptedWaitIsCanceled() {
    PodVolumeBinder binder =
        new PodVolumeBinder(
            new VolumeAssumeCaches(),
            VolumeWriter.NONE,
            TIMEOUT,
            new FakeTime(),
            d -> {
              throw new InterruptedException();
            });

    assertThatThrownBy(() -> binder.waitUntilBound(() -> true)).hasMessage("context canceled");
    assertThat(Thread.interrupted()).isTrue();
  }
}
