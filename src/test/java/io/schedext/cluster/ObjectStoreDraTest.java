package io.schedext.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaimBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceSlice;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceSliceBuilder;
import io.schedext.framework.AllocatedDevices;
import io.schedext.framework.DeviceId;
import io.schedext.framework.ResourceSlices;
import org.junit.jupiter.api.Test;

/**
 * The object store's dynamic resource allocation indexes: the devices the claims hold, kept claim
 * by claim with a revision, and the slices by the node they are published for.
 */
class ObjectStoreDraTest {

  static ResourceClaim claim(String name, String rv, String... devicesAdmin) {
    ResourceClaimBuilder b =
        new ResourceClaimBuilder()
            .withNewMetadata()
            .withNamespace("ns")
            .withName(name)
            .withResourceVersion(rv)
            .endMetadata();
    if (devicesAdmin.length == 0) {
      return b.build();
    }
    var results = b.withNewStatus().withNewAllocation().withNewDevices();
    for (String d : devicesAdmin) {
      boolean admin = d.endsWith("!");
      results =
          results
              .addNewResult()
              .withRequest("r")
              .withDriver("gpu.example.com")
              .withPool("node-a")
              .withDevice(admin ? d.substring(0, d.length() - 1) : d)
              .withAdminAccess(admin ? Boolean.TRUE : null)
              .endResult();
    }
    return results.endDevices().endAllocation().endStatus().build();
  }

  static DeviceId gpu(String name) {
    return new DeviceId("gpu.example.com", "node-a", name);
  }

  @Test
  void theAllocatedDevicesFollowTheClaimsAndAdminAccessTakesNone() {
    ObjectStore store = new ObjectStore();
    long r0 = store.allocatedDevicesRevision();
    store.put(claim("a", "1"));
    assertThat(store.allocatedDevicesRevision()).as("no allocation, no change").isEqualTo(r0);
    store.put(claim("a", "2", "gpu-0", "gpu-1"));
    store.put(claim("b", "3", "gpu-2!"));
    AllocatedDevices d = store.allocatedDevices();
    assertThat(d.devices().toSet()).containsExactlyInAnyOrder(gpu("gpu-0"), gpu("gpu-1"));
    assertThat(d.revision()).isGreaterThan(r0);
    store.put(claim("a", "4", "gpu-0"));
    assertThat(store.allocatedDevices().devices().toSet()).containsExactly(gpu("gpu-0"));
    store.remove(claim("a", "4", "gpu-0"));
    assertThat(store.allocatedDevices().devices().toSet()).isEmpty();
  }

  @Test
  void aDeviceTwoClaimsNameStaysTakenUntilBothLetItGo() {
    ObjectStore store = new ObjectStore();
    store.put(claim("a", "1", "gpu-0"));
    store.put(claim("b", "2", "gpu-0"));
    store.remove(claim("a", "1"));
    assertThat(store.allocatedDevices().devices().toSet()).containsExactly(gpu("gpu-0"));
    store.remove(claim("b", "2"));
    assertThat(store.allocatedDevices().devices().toSet()).isEmpty();
  }

  @Test
  void theTakenSetIsMadeAgainOnlyAfterAChangeAndFollowsManyChanges() {
    ObjectStore store = new ObjectStore();
    store.put(claim("a", "1", "gpu-0"));
    var before = store.allocatedDevices().devices();
    store.put(claim("b", "2", "gpu-1"));
    var after = store.allocatedDevices().devices();
    assertThat(after.toSet()).containsExactlyInAnyOrder(gpu("gpu-0"), gpu("gpu-1"));
    assertThat(store.allocatedDevices().devices()).as("nothing changed since").isSameAs(after);
    assertThat(before.toSet()).containsExactly(gpu("gpu-0"));
    store.clear(ResourceClaim.class);
    assertThat(store.allocatedDevices().devices().toSet()).isEmpty();
    for (int i = 0; i < 1100; i++) {
      store.put(claim("c" + i, "3", "gpu-" + i));
    }
    assertThat(store.allocatedDevices().devices().size()).isEqualTo(1100);
  }

  static ResourceSlice slice(String name, String node, boolean allNodes) {
    return new ResourceSliceBuilder()
        .withNewMetadata()
        .withName(name)
        .endMetadata()
        .withNewSpec()
        .withDriver("gpu.example.com")
        .withNodeName(node)
        .withAllNodes(allNodes ? Boolean.TRUE : null)
        .withNewPool()
        .withName(name)
        .withGeneration(1L)
        .withResourceSliceCount(1L)
        .endPool()
        .endSpec()
        .build();
  }

  @Test
  void theSlicesAreIndexedByTheirNodeAndRebuiltOnlyAfterAChange() {
    ObjectStore store = new ObjectStore();
    store.put(slice("b", "node-a", false));
    store.put(slice("a", "node-a", false));
    store.put(slice("net", null, true));
    ResourceSlices s = store.resourceSlices();
    assertThat(s.ofNode("node-a"))
        .extracting(x -> x.getMetadata().getName())
        .containsExactly("a", "b");
    assertThat(s.ofNode("node-b")).isEmpty();
    assertThat(s.shared()).extracting(x -> x.getMetadata().getName()).containsExactly("net");
    assertThat(s.count()).isEqualTo(3);
    assertThat(store.resourceSlices()).isSameAs(s);
    store.remove(slice("b", "node-a", false));
    assertThat(store.resourceSlices().ofNode("node-a"))
        .extracting(x -> x.getMetadata().getName())
        .containsExactly("a");
  }
}
