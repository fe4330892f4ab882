package io.schedext.framework;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaimBuilder;
import io.schedext.cluster.ObjectStore;
import org.junit.jupiter.api.Test;

/**
 * The claims scheduling sees: a device is taken from Reserve (in flight) through PreBind's write
 * (assumed) until the informer shows the written claim, and no step in between lets it go.
 */
class ResourceClaimTrackerTest {

  static ResourceClaim claim(String rv, String... devices) {
    var b =
        new ResourceClaimBuilder()
            .withNewMetadata()
            .withNamespace("ns")
            .withName("c")
            .withUid("uid-c")
            .withResourceVersion(rv)
            .endMetadata();
    if (devices.length == 0) {
      return b.build();
    }
    var r = b.withNewStatus().withNewAllocation().withNewDevices();
    for (String d : devices) {
      r = r.addNewResult().withRequest("r").withDriver("d").withPool("p").withDevice(d).endResult();
    }
    return r.endDevices().endAllocation().endStatus().build();
  }

  static final DeviceId GPU0 = new DeviceId("d", "p", "gpu-0");

  @Test
  void aDeviceStaysTakenFromReserveToTheInformersUpdate() {
    ObjectStore store = new ObjectStore();
    ResourceClaimTracker t = new ResourceClaimTracker(store);
    store.put(claim("1"));
    assertThat(t.allocatedDevices().toSet()).isEmpty();

    t.signalClaimPendingAllocation("uid-c", claim("1", "gpu-0"));
    assertThat(t.claimHasPendingAllocation("uid-c")).isTrue();
    assertThat(t.allocatedDevices().toSet()).containsExactly(GPU0);

    // PreBind wrote it: assumed first, then no longer in flight.
    assertThat(t.assumeClaimAfterApiCall(claim("2", "gpu-0"))).isTrue();
    t.removeClaimPendingAllocation("uid-c");
    assertThat(t.allocatedDevices().toSet()).containsExactly(GPU0);
    assertThat(t.get("ns", "c").getMetadata().getResourceVersion()).isEqualTo("2");

    // The informer delivers the written claim: the assumption is no longer needed.
    store.put(claim("2", "gpu-0"));
    assertThat(t.get("ns", "c").getMetadata().getResourceVersion()).isEqualTo("2");
    assertThat(t.assumed()).isEmpty();
    assertThat(t.allocatedDevices().toSet()).containsExactly(GPU0);
  }

  @Test
  void unreserveGivesTheDeviceBack() {
    ObjectStore store = new ObjectStore();
    ResourceClaimTracker t = new ResourceClaimTracker(store);
    store.put(claim("1"));
    t.signalClaimPendingAllocation("uid-c", claim("1", "gpu-0"));
    assertThat(t.removeClaimPendingAllocation("uid-c")).isTrue();
    t.assumedClaimRestore("ns", "c");
    assertThat(t.allocatedDevices().toSet()).isEmpty();
    assertThat(t.removeClaimPendingAllocation("uid-c")).isFalse();
  }

  @Test
  void anAssumptionOlderThanTheInformersClaimIsRefused() {
    ObjectStore store = new ObjectStore();
    ResourceClaimTracker t = new ResourceClaimTracker(store);
    store.put(claim("5"));
    assertThat(t.assumeClaimAfterApiCall(claim("4", "gpu-0"))).isFalse();
    assertThat(t.allocatedDevices().toSet()).isEmpty();
  }
}
