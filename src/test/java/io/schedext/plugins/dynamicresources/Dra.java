package io.schedext.plugins.dynamicresources;

import io.fabric8.kubernetes.api.model.NodeSelector;
import io.fabric8.kubernetes.api.model.NodeSelectorBuilder;
import io.fabric8.kubernetes.api.model.NodeSelectorRequirement;
import io.fabric8.kubernetes.api.model.NodeSelectorTerm;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.resource.v1.AllocationResult;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceAllocationConfiguration;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceAttribute;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceAttributeBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceCapacity;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceCapacityBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceClaimConfiguration;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceClaimConfigurationBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceClass;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceClassBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceClassConfigurationBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceConstraint;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceConstraintBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceRequest;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceRequestAllocationResult;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceRequestBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceSelector;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceSelectorBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceSubRequest;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceSubRequestBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.ExactDeviceRequestBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.OpaqueDeviceConfiguration;
import io.fabric8.kubernetes.api.model.resource.v1.OpaqueDeviceConfigurationBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaimBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceSlice;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceSliceBuilder;
import io.schedext.framework.DeviceId;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;

/**
 * One-line builders of dynamic resource allocation objects for tests, after upstream's allocator
 * test helpers ({@code class}, {@code claim}, {@code request}, {@code slice}, {@code device}, ...),
 * and a comparable text form of allocation results.
 */
final class Dra {

  static final String REGION = "region";
  static final String PLANET = "planet";
  static final String EARTH = "earth";

  /** A slice for every node. */
  static final String ALL_NODES = "<all nodes>";

  private Dra() {}

  /** A node's name and labels as the allocator sees them. */
  record Node(String name, Map<String, String> labels) {}

  static Node node(String name, String region) {
    return new Node(name, Map.of(REGION, region, PLANET, EARTH));
  }

  /** A class selecting the devices of {@code driver}. */
  static DeviceClass deviceClass(String name, String driver) {
    return new DeviceClassBuilder()
        .withNewMetadata()
        .withName(name)
        .endMetadata()
        .withNewSpec()
        .withSelectors(cel("device.driver == \"" + driver + "\""))
        .endSpec()
        .build();
  }

  static DeviceClass classWithConfig(String name, String driver, String attribute) {
    DeviceClass c = deviceClass(name, driver);
    c.getSpec()
        .setConfig(
            new ArrayList<>(
                List.of(
                    new DeviceClassConfigurationBuilder()
                        .withOpaque(opaque(driver, attribute))
                        .build())));
    return c;
  }

  static OpaqueDeviceConfiguration opaque(String driver, String attribute) {
    return new OpaqueDeviceConfigurationBuilder()
        .withDriver(driver)
        .withParameters(Map.of(attribute, attribute + "Value"))
        .build();
  }

  static DeviceSelector cel(String expression) {
    return new DeviceSelectorBuilder().withNewCel().withExpression(expression).endCel().build();
  }

  static DeviceRequest request(String name, String cls, long count, DeviceSelector... selectors) {
    return new DeviceRequestBuilder()
        .withName(name)
        .withExactly(
            new ExactDeviceRequestBuilder()
                .withDeviceClassName(cls)
                .withAllocationMode("ExactCount")
                .withCount(count)
                .withSelectors(selectors)
                .build())
        .build();
  }

  static DeviceRequest allRequest(String name, String cls, DeviceSelector... selectors) {
    DeviceRequest r = request(name, cls, 0, selectors);
    r.getExactly().setAllocationMode("All");
    r.getExactly().setCount(null);
    return r;
  }

  static DeviceRequest admin(DeviceRequest r) {
    r.getExactly().setAdminAccess(true);
    return r;
  }

  static DeviceSubRequest subRequest(
      String name, String cls, long count, DeviceSelector... selectors) {
    return new DeviceSubRequestBuilder()
        .withName(name)
        .withDeviceClassName(cls)
        .withAllocationMode("ExactCount")
        .withCount(count)
        .withSelectors(selectors)
        .build();
  }

  static DeviceSubRequest allSubRequest(String name, String cls) {
    return new DeviceSubRequestBuilder()
        .withName(name)
        .withDeviceClassName(cls)
        .withAllocationMode("All")
        .build();
  }

  static DeviceRequest prioritized(String name, DeviceSubRequest... subs) {
    return new DeviceRequestBuilder().withName(name).withFirstAvailable(subs).build();
  }

  static DeviceConstraint matchAttribute(String attribute, String... requests) {
    return new DeviceConstraintBuilder()
        .withMatchAttribute(attribute)
        .withRequests(requests.length == 0 ? null : Arrays.asList(requests))
        .build();
  }

  static DeviceClaimConfiguration claimConfig(List<String> requests, String driver, String attr) {
    return new DeviceClaimConfigurationBuilder()
        .withRequests(requests)
        .withOpaque(opaque(driver, attr))
        .build();
  }

  static ResourceClaim claim(String name, String request, String cls, DeviceConstraint... cs) {
    return claimWithRequests(name, List.of(cs), request(request, cls, 1));
  }

  static ResourceClaim claimWithRequests(
      String name, List<DeviceConstraint> constraints, DeviceRequest... requests) {
    return new ResourceClaimBuilder()
        .withNewMetadata()
        .withName(name)
        .withUid("uid-" + name)
        .endMetadata()
        .withNewSpec()
        .withNewDevices()
        .withRequests(requests)
        .withConstraints(constraints)
        .endDevices()
        .endSpec()
        .build();
  }

  static ResourceClaim withConfig(ResourceClaim c, DeviceClaimConfiguration... configs) {
    c.getSpec().getDevices().setConfig(new ArrayList<>(List.of(configs)));
    return c;
  }

  /**
   * Attributes from pairs of name and value (Boolean, Long/Integer, String; "v:1.0.0" is a
   * version).
   */
  static Map<String, DeviceAttribute> attrs(Object... pairs) {
    Map<String, DeviceAttribute> out = new LinkedHashMap<>();
    for (int i = 0; i < pairs.length; i += 2) {
      Object v = pairs[i + 1];
      DeviceAttributeBuilder b = new DeviceAttributeBuilder();
      if (v instanceof Boolean bool) {
        b.withBool(bool);
      } else if (v instanceof Number n) {
        b.withInt(n.longValue());
      } else if (v instanceof String s && s.startsWith("v:")) {
        b.withVersion(s.substring(2));
      } else {
        b.withString((String) v);
      }
      out.put((String) pairs[i], b.build());
    }
    return out;
  }

  static Map<String, DeviceCapacity> capacity(String... pairs) {
    Map<String, DeviceCapacity> out = new LinkedHashMap<>();
    for (int i = 0; i < pairs.length; i += 2) {
      out.put(pairs[i], new DeviceCapacityBuilder().withValue(new Quantity(pairs[i + 1])).build());
    }
    return out;
  }

  static io.fabric8.kubernetes.api.model.resource.v1.Device device(
      String name, Map<String, DeviceCapacity> capacity, Map<String, DeviceAttribute> attrs) {
    return new DeviceBuilder()
        .withName(name)
        .withCapacity(capacity == null || capacity.isEmpty() ? null : capacity)
        .withAttributes(attrs == null || attrs.isEmpty() ? null : attrs)
        .build();
  }

  static io.fabric8.kubernetes.api.model.resource.v1.Device device(String name) {
    return device(name, null, null);
  }

  /**
   * A slice of one pool (generation 1, one slice) for {@code nodeSelection}: a node name, {@link
   * #ALL_NODES}, or a {@link NodeSelector}.
   */
  static ResourceSlice slice(
      String name,
      Object nodeSelection,
      String pool,
      String driver,
      io.fabric8.kubernetes.api.model.resource.v1.Device... devices) {
    ResourceSlice s =
        new ResourceSliceBuilder()
            .withNewMetadata()
            .withName(name)
            .endMetadata()
            .withNewSpec()
            .withDriver(driver)
            .withNewPool()
            .withName(pool)
            .withGeneration(1L)
            .withResourceSliceCount(1L)
            .endPool()
            .withDevices(devices)
            .endSpec()
            .build();
    if (nodeSelection instanceof NodeSelector ns) {
      s.getSpec().setNodeSelector(ns);
    } else if (ALL_NODES.equals(nodeSelection)) {
      s.getSpec().setAllNodes(true);
    } else {
      s.getSpec().setNodeName((String) nodeSelection);
    }
    return s;
  }

  static ResourceSlice sliceWithOneDevice(String name, Object node, String pool, String driver) {
    return slice(name, node, pool, driver, device("device-1"));
  }

  static ResourceSlice sliceWithDevices(
      String name, Object node, String pool, String driver, int count) {
    var devices = new io.fabric8.kubernetes.api.model.resource.v1.Device[count];
    for (int i = 0; i < count; i++) {
      devices[i] = device("device-" + i);
    }
    return slice(name, node, pool, driver, devices);
  }

  static NodeSelector nodeLabelSelector(String key, String... values) {
    return new NodeSelectorBuilder()
        .addNewNodeSelectorTerm()
        .addNewMatchExpression()
        .withKey(key)
        .withOperator("In")
        .withValues(values)
        .endMatchExpression()
        .endNodeSelectorTerm()
        .build();
  }

  static NodeSelector localNodeSelector(String node) {
    return new NodeSelectorBuilder()
        .addNewNodeSelectorTerm()
        .addNewMatchField()
        .withKey("metadata.name")
        .withOperator("In")
        .withValues(node)
        .endMatchField()
        .endNodeSelectorTerm()
        .build();
  }

  static DeviceId id(String driver, String pool, String device) {
    return new DeviceId(driver, pool, device);
  }

  /** An expected device result: {@code request driver/pool/device}, {@code [admin]} when so. */
  static String device(String request, String driver, String pool, String device, boolean admin) {
    return request + " " + driver + "/" + pool + "/" + device + (admin ? " [admin]" : "");
  }

  static String device(String request, String driver, String pool, String device) {
    return device(request, driver, pool, device, false);
  }

  /**
   * An expected claim result: its node selector, its devices in any order, and its configuration
   * entries ({@code Source requests driver:attribute}).
   */
  static String result(NodeSelector selector, List<String> devices, String... config) {
    return "node "
        + selector(selector)
        + "; devices "
        + new java.util.TreeSet<>(devices)
        + "; config "
        + List.of(config);
  }

  static String result(NodeSelector selector, String... devices) {
    return result(selector, List.of(devices));
  }

  static String config(String source, List<String> requests, String driver, String attribute) {
    return source + " " + requests + " " + driver + ":" + attribute;
  }

  /** {@code r} in the form {@link #result} writes. */
  static String text(AllocationResult r) {
    List<String> devices = new ArrayList<>();
    for (DeviceRequestAllocationResult d : r.getDevices().getResults()) {
      devices.add(
          device(
              d.getRequest(),
              d.getDriver(),
              d.getPool(),
              d.getDevice(),
              Boolean.TRUE.equals(d.getAdminAccess())));
    }
    List<String> config = new ArrayList<>();
    var cs =
        r.getDevices().getConfig() == null
            ? List.<DeviceAllocationConfiguration>of()
            : r.getDevices().getConfig();
    for (DeviceAllocationConfiguration c : cs) {
      @SuppressWarnings("unchecked")
      Map<String, Object> params = (Map<String, Object>) c.getOpaque().getParameters();
      String attribute = params.keySet().iterator().next();
      config.add(config(c.getSource(), c.getRequests(), c.getOpaque().getDriver(), attribute));
    }
    return result(r.getNodeSelector(), devices, config.toArray(new String[0]));
  }

  /** A node selector as sorted text, so that the order of requirements and values is irrelevant. */
  static String selector(NodeSelector s) {
    if (s == null) {
      return "everywhere";
    }
    List<String> terms = new ArrayList<>();
    for (NodeSelectorTerm t : s.getNodeSelectorTerms()) {
      terms.add(
          "fields"
              + requirements(t.getMatchFields())
              + " labels"
              + requirements(t.getMatchExpressions()));
    }
    return terms.stream().sorted().collect(Collectors.joining(" | "));
  }

  private static String requirements(List<NodeSelectorRequirement> rs) {
    Map<String, String> out = new TreeMap<>();
    if (rs != null) {
      for (NodeSelectorRequirement r : rs) {
        out.put(
            r.getKey() + " " + r.getOperator(), new java.util.TreeSet<>(r.getValues()).toString());
      }
    }
    return out.toString();
  }
}
