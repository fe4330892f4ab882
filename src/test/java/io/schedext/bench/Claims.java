package io.schedext.bench;

import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.schedext.testing.realcluster.DraObjects;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The DRA objects of the loop's claims mode, written through the API: a made-up driver's
 * DeviceClass, one ResourceSlice per node, one claim per pod.
 */
final class Claims {

  /** The made-up driver, also its DeviceClass's name. */
  static final String DRIVER = SyntheticCluster.GPU_DRIVER;

  private Claims() {}

  /** Creates the DeviceClass selecting the driver's devices. */
  static void deviceClass(KubernetesClient api) {
    DraObjects.deviceClass(api, DRIVER);
  }

  /** Publishes {@code devices} devices on {@code node}, a pool of its own in one slice. */
  static void publish(KubernetesClient api, String node, int devices) {
    DraObjects.publish(api, DRIVER, node, devices, "h100");
  }

  /** Creates claim {@code name} in {@code ns} for one device of the class. */
  static void claim(KubernetesClient api, String ns, String name) {
    DraObjects.claim(api, ns, name, DRIVER, 1);
  }

  /**
   * Deletes every claim of {@code ns}, dropping the finalizer kube-scheduler put on the allocated
   * ones (the resourceclaim controller's job, and no controller-manager runs here), and waits until
   * they are gone.
   */
  static void deleteAll(KubernetesClient api, String ns) throws Exception {
    var claims = api.dynamicResourceAllocation().v1().resourceClaims().inNamespace(ns);
    List<ResourceClaim> all = claims.list().getItems();
    LoopBenchmark.parallel(
        all.size(),
        i -> {
          ResourceClaim c = all.get(i);
          var one = claims.withName(c.getMetadata().getName());
          // Finalizer first: a claim without one (never allocated) is gone at delete, and a patch
          // after it would fail.
          if (c.getMetadata().getFinalizers() != null
              && !c.getMetadata().getFinalizers().isEmpty()) {
            one.patch(
                PatchContext.of(PatchType.JSON_MERGE), "{\"metadata\":{\"finalizers\":null}}");
          }
          one.delete();
        });
    long gone = System.nanoTime() + TimeUnit.MINUTES.toNanos(2);
    while (!claims.list().getItems().isEmpty() && System.nanoTime() < gone) {
      TimeUnit.MILLISECONDS.sleep(200);
    }
  }
}
