package io.schedext.testing.realcluster;

import io.fabric8.kubernetes.api.model.resource.v1.Device;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceAttributeBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceClassBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaimBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceSliceBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.util.ArrayList;
import java.util.List;

/**
 * Dynamic resource allocation objects of a made-up driver, written through a real API server with
 * no kubelet and no driver behind them: its DeviceClass, one ResourceSlice per node (a pool of its
 * own) and claims for devices of the class.
 */
public final class DraObjects {

  private DraObjects() {}

  /** Creates DeviceClass {@code driver}, selecting every device of that driver. */
  public static void deviceClass(KubernetesClient api, String driver) {
    api.dynamicResourceAllocation()
        .v1()
        .deviceClasses()
        .resource(
            new DeviceClassBuilder()
                .withNewMetadata()
                .withName(driver)
                .endMetadata()
                .withNewSpec()
                .addNewSelector()
                .withNewCel()
                .withExpression("device.driver == \"" + driver + "\"")
                .endCel()
                .endSelector()
                .endSpec()
                .build())
        .create();
  }

  /**
   * Publishes {@code devices} devices of {@code driver} on {@code node}, named {@code gpu-0} … and
   * with attribute {@code model}, in one slice, a pool named after the node.
   */
  public static void publish(
      KubernetesClient api, String driver, String node, int devices, String model) {
    List<Device> list = new ArrayList<>(devices);
    for (int d = 0; d < devices; d++) {
      list.add(
          new DeviceBuilder()
              .withName("gpu-" + d)
              .addToAttributes("model", new DeviceAttributeBuilder().withString(model).build())
              .build());
    }
    api.dynamicResourceAllocation()
        .v1()
        .resourcesSlices()
        .resource(
            new ResourceSliceBuilder()
                .withNewMetadata()
                .withName(node + "-" + driver)
                .endMetadata()
                .withNewSpec()
                .withDriver(driver)
                .withNodeName(node)
                .withNewPool()
                .withName(node)
                .withGeneration(1L)
                .withResourceSliceCount(1L)
                .endPool()
                .withDevices(list)
                .endSpec()
                .build())
        .create();
  }

  /**
   * Creates claim {@code name} in {@code ns}: one request, {@code gpu}, for {@code count} devices
   * of class {@code deviceClass}.
   */
  public static void claim(
      KubernetesClient api, String ns, String name, String deviceClass, long count) {
    api.dynamicResourceAllocation()
        .v1()
        .resourceClaims()
        .inNamespace(ns)
        .resource(
            new ResourceClaimBuilder()
                .withNewMetadata()
                .withName(name)
                .withNamespace(ns)
                .endMetadata()
                .withNewSpec()
                .withNewDevices()
                .addNewRequest()
                .withName("gpu")
                .withNewExactly()
                .withDeviceClassName(deviceClass)
                .withAllocationMode("ExactCount")
                .withCount(count)
                .endExactly()
                .endRequest()
                .endDevices()
                .endSpec()
                .build())
        .create();
  }
}
