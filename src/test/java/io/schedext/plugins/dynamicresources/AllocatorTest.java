package io.schedext.plugins.dynamicresources;

import static io.schedext.plugins.dynamicresources.Dra.ALL_NODES;
import static io.schedext.plugins.dynamicresources.Dra.EARTH;
import static io.schedext.plugins.dynamicresources.Dra.PLANET;
import static io.schedext.plugins.dynamicresources.Dra.REGION;
import static io.schedext.plugins.dynamicresources.Dra.admin;
import static io.schedext.plugins.dynamicresources.Dra.allRequest;
import static io.schedext.plugins.dynamicresources.Dra.allSubRequest;
import static io.schedext.plugins.dynamicresources.Dra.attrs;
import static io.schedext.plugins.dynamicresources.Dra.capacity;
import static io.schedext.plugins.dynamicresources.Dra.cel;
import static io.schedext.plugins.dynamicresources.Dra.claim;
import static io.schedext.plugins.dynamicresources.Dra.claimConfig;
import static io.schedext.plugins.dynamicresources.Dra.claimWithRequests;
import static io.schedext.plugins.dynamicresources.Dra.classWithConfig;
import static io.schedext.plugins.dynamicresources.Dra.config;
import static io.schedext.plugins.dynamicresources.Dra.device;
import static io.schedext.plugins.dynamicresources.Dra.deviceClass;
import static io.schedext.plugins.dynamicresources.Dra.id;
import static io.schedext.plugins.dynamicresources.Dra.localNodeSelector;
import static io.schedext.plugins.dynamicresources.Dra.matchAttribute;
import static io.schedext.plugins.dynamicresources.Dra.node;
import static io.schedext.plugins.dynamicresources.Dra.nodeLabelSelector;
import static io.schedext.plugins.dynamicresources.Dra.prioritized;
import static io.schedext.plugins.dynamicresources.Dra.request;
import static io.schedext.plugins.dynamicresources.Dra.result;
import static io.schedext.plugins.dynamicresources.Dra.slice;
import static io.schedext.plugins.dynamicresources.Dra.sliceWithDevices;
import static io.schedext.plugins.dynamicresources.Dra.sliceWithOneDevice;
import static io.schedext.plugins.dynamicresources.Dra.subRequest;
import static io.schedext.plugins.dynamicresources.Dra.withConfig;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.api.model.NodeSelector;
import io.fabric8.kubernetes.api.model.NodeSelectorBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.AllocationResult;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceClass;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceConstraint;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceSelector;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaimBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceSlice;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceSliceBuilder;
import io.schedext.framework.DeviceId;
import io.schedext.framework.ResourceSlices;
import io.schedext.framework.TakenDevices;
import io.schedext.plugins.dynamicresources.cel.DeviceSelectors;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The structured allocator against the cases of upstream's shared allocator test ({@code
 * structured/internal/allocatortesting}) that the stable allocator runs with the gates 1.34 has
 * (all of them off, or admin access and prioritized lists on as each case says), in our own words.
 * Not ported: the partitionable devices, device taints, binding conditions and consumable capacity
 * cases (alpha gates, off in 1.34), and the two that count the experimental allocator's search
 * steps.
 */
class AllocatorTest {

  static final String NODE1 = "node-1";
  static final String NODE2 = "node-2";
  static final String REGION1 = "region-1";
  static final String REGION2 = "region-2";
  static final String CLASS_A = "class-a";
  static final String CLASS_B = "class-b";
  static final String DRIVER_A = "driver-a";
  static final String DRIVER_B = "driver-b";
  static final String POOL1 = "pool-1";
  static final String POOL2 = "pool-2";
  static final String POOL3 = "pool-3";
  static final String POOL4 = "pool-4";
  static final String REQ0 = "req-0";
  static final String REQ1 = "req-1";
  static final String REQ2 = "req-2";
  static final String SUB0 = "subReq-0";
  static final String SUB1 = "subReq-1";
  static final String CLAIM0 = "claim-0";
  static final String CLAIM1 = "claim-1";
  static final String SLICE1 = "slice-1";
  static final String SLICE2 = "slice-2";
  static final String DEVICE1 = "device-1";
  static final String DEVICE2 = "device-2";
  static final String DEVICE3 = "device-3";
  static final String INT_ATTR = DRIVER_A + "/numa";
  static final String VERSION_ATTR = DRIVER_A + "/driverVersion";
  static final String STRING_ATTR = DRIVER_A + "/stringAttribute";
  static final String BOOL_ATTR = DRIVER_A + "/boolAttribute";

  static final Allocator.Features NONE = new Allocator.Features(false, false);
  static final Allocator.Features ADMIN = new Allocator.Features(true, false);
  static final Allocator.Features LISTS = new Allocator.Features(false, true);

  record Case(
      String name,
      Allocator.Features features,
      List<ResourceClaim> claims,
      Set<DeviceId> allocated,
      List<DeviceClass> classes,
      List<ResourceSlice> slices,
      Dra.Node node,
      List<String> expect,
      String error) {

    @Override
    public String toString() {
      return name;
    }
  }

  /** Builds a case field by field, as upstream's struct literals name only what they set. */
  static final class C {
    final String name;
    Allocator.Features features = NONE;
    List<ResourceClaim> claims = List.of();
    Set<DeviceId> allocated = Set.of();
    List<DeviceClass> classes = List.of();
    List<ResourceSlice> slices = List.of();
    Dra.Node node;
    List<String> expect = List.of();
    String error;

    C(String name) {
      this.name = name;
    }

    C features(Allocator.Features f) {
      features = f;
      return this;
    }

    C claims(ResourceClaim... c) {
      claims = List.of(c);
      return this;
    }

    C allocated(DeviceId... ids) {
      allocated = Set.of(ids);
      return this;
    }

    C classes(DeviceClass... c) {
      classes = List.of(c);
      return this;
    }

    C slices(ResourceSlice... s) {
      slices = List.of(s);
      return this;
    }

    C node(Dra.Node n) {
      node = n;
      return this;
    }

    C expect(String... results) {
      expect = List.of(results);
      return this;
    }

    C error(String substring) {
      error = substring;
      return this;
    }

    Case build() {
      return new Case(name, features, claims, allocated, classes, slices, node, expect, error);
    }
  }

  static C c(String sentence) {
    return new C(sentence);
  }

  static DeviceSelector memoryAtLeast(String q) {
    return cel(
        "device.capacity[\"" + DRIVER_A + "\"].memory.compareTo(quantity(\"" + q + "\")) >= 0");
  }

  static ResourceSlice obsolete(ResourceSlice s) {
    ResourceSlice out = new ResourceSliceBuilder(s).build();
    out.getMetadata().setName(s.getMetadata().getName() + "-obsolete");
    return out;
  }

  static ResourceSlice generation(ResourceSlice s, long g) {
    s.getSpec().getPool().setGeneration(g);
    return s;
  }

  static ResourceSlice sliceCount(ResourceSlice s, long n) {
    s.getSpec().getPool().setResourceSliceCount(n);
    return s;
  }

  static ResourceClaim mode(ResourceClaim c, String mode) {
    c.getSpec().getDevices().getRequests().get(0).getExactly().setAllocationMode(mode);
    return c;
  }

  static NodeSelector union() {
    return new NodeSelectorBuilder()
        .addNewNodeSelectorTerm()
        .addNewMatchExpression()
        .withKey(REGION)
        .withOperator("In")
        .withValues(REGION1)
        .endMatchExpression()
        .addNewMatchExpression()
        .withKey(PLANET)
        .withOperator("In")
        .withValues(EARTH)
        .endMatchExpression()
        .addNewMatchField()
        .withKey("metadata.name")
        .withOperator("In")
        .withValues(NODE1)
        .endMatchField()
        .endNodeSelectorTerm()
        .build();
  }

  static Stream<Case> cases() {
    NodeSelector local1 = localNodeSelector(NODE1);
    List<Case> cs = new ArrayList<>();
    cs.add(c("no claims allocate nothing").build());
    cs.add(
        c("one claim gets the node's one device")
            .claims(claim(CLAIM0, REQ0, CLASS_A))
            .classes(deviceClass(CLASS_A, DRIVER_A))
            .slices(sliceWithOneDevice(SLICE1, NODE1, POOL1, DRIVER_A))
            .node(node(NODE1, REGION1))
            .expect(result(local1, device(REQ0, DRIVER_A, POOL1, DEVICE1)))
            .build());
    cs.add(
        c("the devices of another node are not taken")
            .claims(claim(CLAIM0, REQ0, CLASS_A))
            .classes(deviceClass(CLASS_A, DRIVER_A))
            .slices(
                sliceWithOneDevice(SLICE1, NODE1, POOL1, DRIVER_B),
                sliceWithOneDevice(SLICE2, NODE2, POOL2, DRIVER_A))
            .node(node(NODE2, REGION2))
            .expect(result(localNodeSelector(NODE2), device(REQ0, DRIVER_A, POOL2, DEVICE1)))
            .build());
    cs.add(
        c("a small and a large request get a small and a large device")
            .claims(
                claimWithRequests(
                    CLAIM0,
                    List.of(),
                    request(REQ0, CLASS_A, 1, memoryAtLeast("1Gi")),
                    request(REQ1, CLASS_A, 1, memoryAtLeast("2Gi"))))
            .classes(deviceClass(CLASS_A, DRIVER_A))
            .slices(
                slice(
                    SLICE1,
                    NODE1,
                    POOL1,
                    DRIVER_A,
                    device(DEVICE1, capacity("memory", "1Gi"), null),
                    device(DEVICE2, capacity("memory", "2Gi"), null)))
            .node(node(NODE1, REGION1))
            .expect(
                result(
                    local1,
                    device(REQ0, DRIVER_A, POOL1, DEVICE1),
                    device(REQ1, DRIVER_A, POOL1, DEVICE2)))
            .build());
    cs.add(
        c("the large device given to the small request is taken back for the large one")
            .claims(
                claimWithRequests(
                    CLAIM0,
                    List.of(),
                    request(REQ0, CLASS_A, 1, memoryAtLeast("1Gi")),
                    request(REQ1, CLASS_A, 1, memoryAtLeast("2Gi"))))
            .classes(deviceClass(CLASS_A, DRIVER_A))
            .slices(
                slice(
                    SLICE1,
                    NODE1,
                    POOL1,
                    DRIVER_A,
                    device(DEVICE2, capacity("memory", "2Gi"), null),
                    device(DEVICE1, capacity("memory", "1Gi"), null)))
            .node(node(NODE1, REGION1))
            .expect(
                result(
                    local1,
                    device(REQ0, DRIVER_A, POOL1, DEVICE1),
                    device(REQ1, DRIVER_A, POOL1, DEVICE2)))
            .build());
    cs.add(
        c("the large device given to the small claim is taken back for the large claim")
            .claims(
                claimWithRequests(
                    CLAIM0, List.of(), request(REQ0, CLASS_A, 1, memoryAtLeast("1Gi"))),
                claimWithRequests(
                    CLAIM1, List.of(), request(REQ1, CLASS_A, 1, memoryAtLeast("2Gi"))))
            .classes(deviceClass(CLASS_A, DRIVER_A))
            .slices(
                slice(
                    SLICE1,
                    NODE1,
                    POOL1,
                    DRIVER_A,
                    device(DEVICE2, capacity("memory", "2Gi"), null),
                    device(DEVICE1, capacity("memory", "1Gi"), null)))
            .node(node(NODE1, REGION1))
            .expect(
                result(local1, device(REQ0, DRIVER_A, POOL1, DEVICE1)),
                result(local1, device(REQ1, DRIVER_A, POOL1, DEVICE2)))
            .build());
    cs.add(
        c("two devices come from two slices")
            .claims(claimWithRequests(CLAIM0, List.of(), request(REQ0, CLASS_A, 2)))
            .classes(deviceClass(CLASS_A, DRIVER_A))
            .slices(
                sliceWithOneDevice(SLICE1, NODE1, POOL1, DRIVER_A),
                sliceWithOneDevice(SLICE2, NODE1, POOL2, DRIVER_A))
            .node(node(NODE1, REGION1))
            .expect(
                result(
                    local1,
                    device(REQ0, DRIVER_A, POOL1, DEVICE1),
                    device(REQ0, DRIVER_A, POOL2, DEVICE1)))
            .build());
    cs.add(
        c("a slice of an older pool generation is ignored")
            .claims(claim(CLAIM0, REQ0, CLASS_A))
            .classes(deviceClass(CLASS_A, DRIVER_A))
            .slices(
                obsolete(sliceWithOneDevice(SLICE1, NODE1, POOL1, DRIVER_A)),
                generation(sliceWithOneDevice(SLICE1, NODE1, POOL1, DRIVER_A), 2))
            .node(node(NODE1, REGION1))
            .expect(result(local1, device(REQ0, DRIVER_A, POOL1, DEVICE1)))
            .build());
    ResourceSlice dupA = sliceCount(sliceWithOneDevice(SLICE1, NODE1, POOL1, DRIVER_A), 2);
    ResourceSlice dupB = new ResourceSliceBuilder(dupA).build();
    dupB.getMetadata().setName(SLICE1 + "-2");
    cs.add(
        c("a pool whose slices repeat a device name is invalid")
            .claims(claim(CLAIM0, REQ0, CLASS_A))
            .classes(deviceClass(CLASS_A, DRIVER_A))
            .slices(dupA, dupB)
            .node(node(NODE1, REGION1))
            .error("pool pool-1 is invalid: duplicate device name device-1")
            .build());
    cs.add(
        c("without slices nothing is allocated")
            .claims(claim(CLAIM0, REQ0, CLASS_A))
            .classes(deviceClass(CLASS_A, DRIVER_A))
            .node(node(NODE1, REGION1))
            .expect()
            .build());
    cs.add(
        c("one device is not enough for two claims")
            .claims(claim(CLAIM0, REQ0, CLASS_A), claim(CLAIM0, REQ1, CLASS_A))
            .classes(deviceClass(CLASS_A, DRIVER_A))
            .slices(sliceWithOneDevice(SLICE1, NODE1, POOL1, DRIVER_A))
            .node(node(NODE1, REGION1))
            .expect()
            .build());
    cs.add(
        c("a request of a class that does not exist is an error")
            .claims(claim(CLAIM0, REQ0, CLASS_A))
            .slices(sliceWithOneDevice(SLICE1, NODE1, POOL1, DRIVER_A))
            .node(node(NODE1, REGION1))
            .error("could not retrieve device class class-a")
            .build());
    cs.add(
        c("a request of an unknown class is an error")
            .claims(claim(CLAIM0, REQ0, "unknown-class"))
            .classes(deviceClass(CLASS_A, DRIVER_A))
            .slices(sliceWithOneDevice(SLICE1, NODE1, POOL1, DRIVER_A))
            .node(node(NODE1, REGION1))
            .error("could not retrieve device class unknown-class")
            .build());
    cs.add(
        c("a request without a class is an error")
            .claims(claim(CLAIM0, REQ0, ""))
            .classes(deviceClass(CLASS_A, DRIVER_A))
            .slices(sliceWithOneDevice(SLICE1, NODE1, POOL1, DRIVER_A))
            .node(node(NODE1, REGION1))
            .error(
                "claim claim-0, request req-0: missing device class name (unsupported request"
                    + " type?)")
            .build());
    cs.add(
        c("All gets the only device")
            .claims(claimWithRequests(CLAIM0, List.of(), allRequest(REQ0, CLASS_A)))
            .classes(deviceClass(CLASS_A, DRIVER_A))
            .slices(sliceWithOneDevice(SLICE1, NODE1, POOL1, DRIVER_A))
            .node(node(NODE1, REGION1))
            .expect(result(local1, device(REQ0, DRIVER_A, POOL1, DEVICE1)))
            .build());
    cs.add(
        c("All gets the devices of every pool")
            .claims(claimWithRequests(CLAIM0, List.of(), allRequest(REQ0, CLASS_A)))
            .classes(deviceClass(CLASS_A, DRIVER_A))
            .slices(
                sliceWithOneDevice(SLICE1, NODE1, POOL1, DRIVER_A),
                sliceWithOneDevice(SLICE1, NODE1, POOL2, DRIVER_A))
            .node(node(NODE1, REGION1))
            .expect(
                result(
                    local1,
                    device(REQ0, DRIVER_A, POOL1, DEVICE1),
                    device(REQ0, DRIVER_A, POOL2, DEVICE1)))
            .build());
    cs.add(
        c("All waits while a pool is incomplete")
            .claims(claimWithRequests(CLAIM0, List.of(), allRequest(REQ0, CLASS_A)))
            .classes(deviceClass(CLASS_A, DRIVER_A))
            .slices(sliceCount(sliceWithOneDevice(SLICE1, NODE1, POOL1, DRIVER_A), 2))
            .node(node(NODE1, REGION1))
            .error(
                "claim claim-0, request req-0: asks for all devices, but resource pool"
                    + " driver-a/pool-1 is currently being updated")
            .build());
    ResourceClaim allA = claimWithRequests(CLAIM0, List.of(), allRequest(REQ0, CLASS_A));
    ResourceClaim oneB = claimWithRequests(CLAIM1, List.of(), request(REQ0, CLASS_B, 1));
    cs.add(
        c("All of one class and one device of another")
            .claims(allA, oneB)
            .classes(deviceClass(CLASS_A, DRIVER_A), deviceClass(CLASS_B, DRIVER_B))
            .slices(
                sliceWithOneDevice(SLICE1, NODE1, POOL1, DRIVER_A),
                sliceWithOneDevice(SLICE1, NODE1, POOL1, DRIVER_B))
            .node(node(NODE1, REGION1))
            .expect(
                result(local1, device(REQ0, DRIVER_A, POOL1, DEVICE1)),
                result(local1, device(REQ0, DRIVER_B, POOL1, DEVICE1)))
            .build());
    cs.add(
        c("one device of one class and All of another")
            .claims(oneB, allA)
            .classes(deviceClass(CLASS_A, DRIVER_A), deviceClass(CLASS_B, DRIVER_B))
            .slices(
                sliceWithOneDevice(SLICE1, NODE1, POOL1, DRIVER_A),
                sliceWithOneDevice(SLICE1, NODE1, POOL1, DRIVER_B))
            .node(node(NODE1, REGION1))
            .expect(
                result(local1, device(REQ0, DRIVER_B, POOL1, DEVICE1)),
                result(local1, device(REQ0, DRIVER_A, POOL1, DEVICE1)))
            .build());
    ResourceSlice twoA = slice(SLICE1, NODE1, POOL1, DRIVER_A, device(DEVICE1), device(DEVICE2));
    cs.add(
        c("All of two devices and one device of another class")
            .claims(allA, oneB)
            .classes(deviceClass(CLASS_A, DRIVER_A), deviceClass(CLASS_B, DRIVER_B))
            .slices(twoA, sliceWithOneDevice(SLICE1, NODE1, POOL1, DRIVER_B))
            .node(node(NODE1, REGION1))
            .expect(
                result(
                    local1,
                    device(REQ0, DRIVER_A, POOL1, DEVICE1),
                    device(REQ0, DRIVER_A, POOL1, DEVICE2)),
                result(local1, device(REQ0, DRIVER_B, POOL1, DEVICE1)))
            .build());
    cs.add(
        c("one device of one class and All of two devices of another")
            .claims(oneB, allA)
            .classes(deviceClass(CLASS_A, DRIVER_A), deviceClass(CLASS_B, DRIVER_B))
            .slices(twoA, sliceWithOneDevice(SLICE1, NODE1, POOL1, DRIVER_B))
            .node(node(NODE1, REGION1))
            .expect(
                result(local1, device(REQ0, DRIVER_B, POOL1, DEVICE1)),
                result(
                    local1,
                    device(REQ0, DRIVER_A, POOL1, DEVICE1),
                    device(REQ0, DRIVER_A, POOL1, DEVICE2)))
            .build());
    ResourceClaim oneA = claimWithRequests(CLAIM1, List.of(), request(REQ0, CLASS_A, 1));
    cs.add(
        c("one device cannot go to one claim and to All of another")
            .claims(oneA, allA)
            .classes(deviceClass(CLASS_A, DRIVER_A))
            .slices(sliceWithOneDevice(SLICE1, NODE1, POOL1, DRIVER_A))
            .node(node(NODE1, REGION1))
            .expect()
            .build());
    cs.add(
        c("one device cannot go to All of one claim and to another")
            .claims(allA, oneA)
            .classes(deviceClass(CLASS_A, DRIVER_A))
            .slices(sliceWithOneDevice(SLICE1, NODE1, POOL1, DRIVER_A))
            .node(node(NODE1, REGION1))
            .expect()
            .build());
    cs.add(
        c("All of a slice without devices is nothing")
            .claims(allA)
            .classes(deviceClass(CLASS_A, DRIVER_A))
            .slices(slice(SLICE1, NODE1, POOL1, DRIVER_A))
            .node(node(NODE1, REGION1))
            .expect()
            .build());
    cs.add(
        c("All without slices is nothing")
            .claims(allA)
            .classes(deviceClass(CLASS_A, DRIVER_A))
            .node(node(NODE1, REGION1))
            .expect()
            .build());
    cs.add(
        c("All cannot be had while one device is allocated")
            .claims(allA)
            .allocated(id(DRIVER_A, POOL1, DEVICE1))
            .classes(deviceClass(CLASS_A, DRIVER_A))
            .slices(twoA)
            .node(node(NODE1, REGION1))
            .expect()
            .build());
    cs.add(
        c("All with admin access includes allocated devices")
            .features(ADMIN)
            .claims(claimWithRequests(CLAIM0, List.of(), admin(allRequest(REQ0, CLASS_A))))
            .allocated(id(DRIVER_A, POOL1, DEVICE1))
            .classes(deviceClass(CLASS_A, DRIVER_A))
            .slices(twoA)
            .node(node(NODE1, REGION1))
            .expect(
                result(
                    local1,
                    device(REQ0, DRIVER_A, POOL1, DEVICE1, true),
                    device(REQ0, DRIVER_A, POOL1, DEVICE2, true)))
            .build());
    cs.add(
        c("All with admin access cannot share a device with its own claim's other request")
            .features(ADMIN)
            .claims(
                claimWithRequests(
                    CLAIM0,
                    List.of(),
                    admin(request(REQ0, CLASS_A, 1)),
                    admin(allRequest(REQ1, CLASS_A))))
            .classes(deviceClass(CLASS_A, DRIVER_A))
            .slices(twoA)
            .node(node(NODE1, REGION1))
            .expect()
            .build());
    cs.add(
        c("a count with admin access includes allocated devices")
            .features(ADMIN)
            .claims(claimWithRequests(CLAIM0, List.of(), admin(request(REQ0, CLASS_A, 2))))
            .allocated(id(DRIVER_A, POOL1, DEVICE1))
            .classes(deviceClass(CLASS_A, DRIVER_A))
            .slices(twoA)
            .node(node(NODE1, REGION1))
            .expect(
                result(
                    local1,
                    device(REQ0, DRIVER_A, POOL1, DEVICE1, true),
                    device(REQ0, DRIVER_A, POOL1, DEVICE2, true)))
            .build());
    cs.add(
        c("two claims with admin access share a device")
            .features(ADMIN)
            .claims(
                claimWithRequests(CLAIM0, List.of(), admin(request(REQ0, CLASS_A, 1))),
                claimWithRequests(CLAIM1, List.of(), admin(request(REQ0, CLASS_A, 1))))
            .classes(deviceClass(CLASS_A, DRIVER_A))
            .slices(twoA)
            .node(node(NODE1, REGION1))
            .expect(
                result(local1, device(REQ0, DRIVER_A, POOL1, DEVICE1, true)),
                result(local1, device(REQ0, DRIVER_A, POOL1, DEVICE1, true)))
            .build());
    cs.add(
        c("admin access takes a device another claim of the pod is getting")
            .features(ADMIN)
            .claims(
                claim(CLAIM0, REQ0, CLASS_A),
                claimWithRequests(CLAIM1, List.of(), admin(request(REQ0, CLASS_A, 1))))
            .classes(deviceClass(CLASS_A, DRIVER_A))
            .slices(twoA)
            .node(node(NODE1, REGION1))
            .expect(
                result(local1, device(REQ0, DRIVER_A, POOL1, DEVICE1)),
                result(local1, device(REQ0, DRIVER_A, POOL1, DEVICE1, true)))
            .build());
    ResourceClaim allFirst =
        claimWithRequests(
            CLAIM0,
            List.of(),
            prioritized(REQ0, allSubRequest(SUB0, CLASS_A), subRequest(SUB1, CLASS_B, 1)));
    cs.add(
        c("the alternative after All of an empty slice")
            .features(LISTS)
            .claims(allFirst)
            .classes(deviceClass(CLASS_A, DRIVER_A), deviceClass(CLASS_B, DRIVER_B))
            .slices(
                slice(SLICE1, NODE1, POOL1, DRIVER_A),
                sliceWithOneDevice(SLICE2, NODE1, POOL2, DRIVER_B))
            .node(node(NODE1, REGION1))
            .expect(result(local1, device("req-0/subReq-1", DRIVER_B, POOL2, DEVICE1)))
            .build());
    cs.add(
        c("the alternative after All without slices")
            .features(LISTS)
            .claims(allFirst)
            .classes(deviceClass(CLASS_A, DRIVER_A), deviceClass(CLASS_B, DRIVER_B))
            .slices(sliceWithOneDevice(SLICE2, NODE1, POOL2, DRIVER_B))
            .node(node(NODE1, REGION1))
            .expect(result(local1, device("req-0/subReq-1", DRIVER_B, POOL2, DEVICE1)))
            .build());
    cs.add(
        c("the alternative after All of partly allocated devices")
            .features(LISTS)
            .claims(allFirst)
            .allocated(id(DRIVER_A, POOL1, DEVICE1))
            .classes(deviceClass(CLASS_A, DRIVER_A), deviceClass(CLASS_B, DRIVER_B))
            .slices(twoA, sliceWithOneDevice(SLICE2, NODE1, POOL2, DRIVER_B))
            .node(node(NODE1, REGION1))
            .expect(result(local1, device("req-0/subReq-1", DRIVER_B, POOL2, DEVICE1)))
            .build());
    cs.add(
        c("a network-attached device is allocated with the slice's node selector")
            .claims(claim(CLAIM0, REQ0, CLASS_A))
            .classes(deviceClass(CLASS_A, DRIVER_A))
            .slices(sliceWithOneDevice(SLICE1, nodeLabelSelector(REGION, REGION1), POOL1, DRIVER_A))
            .node(node(NODE1, REGION1))
            .expect(
                result(nodeLabelSelector(REGION, REGION1), device(REQ0, DRIVER_A, POOL1, DEVICE1)))
            .build());
    cs.add(
        c("a network-attached device of another region is not reachable")
            .claims(claim(CLAIM0, REQ0, CLASS_A))
            .classes(deviceClass(CLASS_A, DRIVER_A))
            .slices(sliceWithOneDevice(SLICE1, nodeLabelSelector(REGION, REGION1), POOL1, DRIVER_A))
            .node(node(NODE2, REGION2))
            .expect()
            .build());
    cs.add(
        c("devices of several node selections get the union of their selectors")
            .claims(claimWithRequests(CLAIM0, List.of(), request(REQ0, CLASS_A, 4)))
            .classes(deviceClass(CLASS_A, DRIVER_A))
            .slices(
                sliceWithOneDevice(SLICE1, nodeLabelSelector(REGION, REGION1), POOL1, DRIVER_A),
                sliceWithOneDevice(SLICE1, ALL_NODES, POOL2, DRIVER_A),
                sliceWithOneDevice(SLICE1, nodeLabelSelector(PLANET, EARTH), POOL3, DRIVER_A),
                sliceWithOneDevice(SLICE1, local1, POOL4, DRIVER_A))
            .node(node(NODE1, REGION1))
            .expect(
                result(
                    union(),
                    device(REQ0, DRIVER_A, POOL1, DEVICE1),
                    device(REQ0, DRIVER_A, POOL2, DEVICE1),
                    device(REQ0, DRIVER_A, POOL3, DEVICE1),
                    device(REQ0, DRIVER_A, POOL4, DEVICE1)))
            .build());
    cs.add(
        c("one node-local device makes the allocation the node's")
            .claims(claimWithRequests(CLAIM0, List.of(), request(REQ0, CLASS_A, 2)))
            .classes(deviceClass(CLASS_A, DRIVER_A))
            .slices(
                sliceWithOneDevice(SLICE1, nodeLabelSelector(REGION, REGION1), POOL1, DRIVER_A),
                sliceWithOneDevice(SLICE1, NODE1, POOL2, DRIVER_A))
            .node(node(NODE1, REGION1))
            .expect(
                result(
                    local1,
                    device(REQ0, DRIVER_A, POOL1, DEVICE1),
                    device(REQ0, DRIVER_A, POOL2, DEVICE1)))
            .build());
    cs.add(
        c("two claims get devices of two drivers")
            .claims(claim(CLAIM0, REQ0, CLASS_A), claim(CLAIM0, REQ0, CLASS_B))
            .classes(deviceClass(CLASS_A, DRIVER_A), deviceClass(CLASS_B, DRIVER_B))
            .slices(twoA, sliceWithOneDevice(SLICE1, NODE1, POOL1, DRIVER_B))
            .node(node(NODE1, REGION1))
            .expect(
                result(local1, device(REQ0, DRIVER_A, POOL1, DEVICE1)),
                result(local1, device(REQ0, DRIVER_B, POOL1, DEVICE1)))
            .build());
    cs.add(
        c("an allocated device is not allocated again")
            .claims(claim(CLAIM0, REQ0, CLASS_A))
            .allocated(id(DRIVER_A, POOL1, DEVICE1), id(DRIVER_A, POOL1, DEVICE2))
            .classes(deviceClass(CLASS_A, DRIVER_A))
            .slices(sliceWithOneDevice(SLICE1, NODE1, POOL1, DRIVER_A))
            .node(node(NODE1, REGION1))
            .expect()
            .build());
    cs.add(
        c("admin access with the gate off is an error")
            .features(NONE)
            .claims(claimWithRequests(CLAIM0, List.of(), admin(request(REQ0, CLASS_A, 1))))
            .classes(deviceClass(CLASS_A, DRIVER_A))
            .slices(sliceWithOneDevice(SLICE1, NODE1, POOL1, DRIVER_A))
            .node(node(NODE1, REGION1))
            .error(
                "claim claim-0, request req-0: admin access is requested, but the feature is"
                    + " disabled")
            .build());
    cs.add(
        c("admin access gets an allocated device")
            .features(ADMIN)
            .claims(claimWithRequests(CLAIM0, List.of(), admin(request(REQ0, CLASS_A, 1))))
            .allocated(id(DRIVER_A, POOL1, DEVICE1), id(DRIVER_A, POOL1, DEVICE2))
            .classes(deviceClass(CLASS_A, DRIVER_A))
            .slices(sliceWithOneDevice(SLICE1, NODE1, POOL1, DRIVER_A))
            .node(node(NODE1, REGION1))
            .expect(result(local1, device(REQ0, DRIVER_A, POOL1, DEVICE1, true)))
            .build());
    var same =
        attrs(
            "driverVersion",
            "v:1.0.0",
            "numa",
            1,
            "stringAttribute",
            "stringAttributeValue",
            "boolAttribute",
            true);
    cs.add(
        c("devices that agree on every constrained attribute")
            .claims(
                claimWithRequests(
                    CLAIM0,
                    List.of(
                        matchAttribute(INT_ATTR),
                        matchAttribute(VERSION_ATTR),
                        matchAttribute(STRING_ATTR),
                        matchAttribute(BOOL_ATTR)),
                    request(REQ0, CLASS_A, 1),
                    request(REQ1, CLASS_A, 1)))
            .classes(deviceClass(CLASS_A, DRIVER_A))
            .slices(
                slice(
                    SLICE1,
                    NODE1,
                    POOL1,
                    DRIVER_A,
                    device(DEVICE1, null, same),
                    device(DEVICE2, null, same)))
            .node(node(NODE1, REGION1))
            .expect(
                result(
                    local1,
                    device(REQ0, DRIVER_A, POOL1, DEVICE1),
                    device(REQ1, DRIVER_A, POOL1, DEVICE2)))
            .build());
    cs.add(
        c("a device without the constrained attribute cannot be picked")
            .claims(
                claim(CLAIM0, REQ0, CLASS_A, matchAttribute(DRIVER_A + "/NonExistentAttribute")))
            .classes(deviceClass(CLASS_A, DRIVER_A))
            .slices(sliceWithOneDevice(SLICE1, NODE1, POOL1, DRIVER_A))
            .node(node(NODE1, REGION1))
            .expect()
            .build());
    for (Object[] differ :
        new Object[][] {
          {"int", "numa", 1, 2, INT_ATTR},
          {
            "string",
            "stringAttribute",
            "stringAttributeValue",
            "stringAttributeValue2",
            STRING_ATTR
          },
          {"bool", "boolAttribute", true, false, BOOL_ATTR},
          {"version", "driverVersion", "v:1.0.0", "v:2.0.0", VERSION_ATTR}
        }) {
      cs.add(
          c("two devices whose " + differ[0] + " attribute differs do not keep the constraint")
              .claims(
                  claimWithRequests(
                      CLAIM0,
                      List.of(matchAttribute((String) differ[4])),
                      request(REQ0, CLASS_A, 2)))
              .classes(deviceClass(CLASS_A, DRIVER_A), deviceClass(CLASS_B, DRIVER_B))
              .slices(
                  slice(
                      SLICE1,
                      NODE1,
                      POOL1,
                      DRIVER_A,
                      device(DEVICE1, null, attrs(differ[1], differ[2])),
                      device(DEVICE2, null, attrs(differ[1], differ[3]))))
              .node(node(NODE1, REGION1))
              .expect()
              .build());
    }
    cs.add(
        c("All of devices that break a constraint is an error")
            .claims(
                claimWithRequests(
                    CLAIM0, List.of(matchAttribute(INT_ATTR)), allRequest(REQ0, CLASS_A)))
            .classes(deviceClass(CLASS_A, DRIVER_A), deviceClass(CLASS_B, DRIVER_B))
            .slices(
                slice(
                    SLICE1,
                    NODE1,
                    POOL1,
                    DRIVER_A,
                    device(DEVICE1, null, attrs("numa", 1)),
                    device(DEVICE2, null, attrs("numa", 2))))
            .node(node(NODE1, REGION1))
            .error(
                "claim claim-0, request req-0: cannot add device driver-a/pool-1/device-2 because"
                    + " a claim constraint would not be satisfied")
            .build());
    cs.add(
        c("a constraint for one request leaves the other free")
            .claims(
                claimWithRequests(
                    CLAIM0,
                    List.of(matchAttribute(VERSION_ATTR, REQ0)),
                    request(REQ0, CLASS_A, 1),
                    request(REQ1, CLASS_A, 1)))
            .classes(deviceClass(CLASS_A, DRIVER_A), deviceClass(CLASS_B, DRIVER_B))
            .slices(
                slice(
                    SLICE1,
                    NODE1,
                    POOL1,
                    DRIVER_A,
                    device(DEVICE1, null, attrs("driverVersion", "v:1.0.0")),
                    device(DEVICE2, null, attrs("driverVersion", "v:2.0.0"))))
            .node(node(NODE1, REGION1))
            .expect(
                result(
                    local1,
                    device(REQ0, DRIVER_A, POOL1, DEVICE1),
                    device(REQ1, DRIVER_A, POOL1, DEVICE2)))
            .build());
    cs.add(
        c("the search backtracks when a later device breaks a constraint")
            .claims(
                claimWithRequests(
                    CLAIM0,
                    List.of(matchAttribute(VERSION_ATTR, REQ0), matchAttribute(STRING_ATTR)),
                    request(REQ0, CLASS_A, 1),
                    request(REQ1, CLASS_A, 1)))
            .classes(deviceClass(CLASS_A, DRIVER_A), deviceClass(CLASS_B, DRIVER_B))
            .slices(
                slice(
                    SLICE1,
                    NODE1,
                    POOL1,
                    DRIVER_A,
                    device(
                        DEVICE1, null, attrs("driverVersion", "v:1.0.0", "stringAttribute", "a")),
                    device(
                        DEVICE2, null, attrs("driverVersion", "v:2.0.0", "stringAttribute", "b")),
                    device(
                        DEVICE3, null, attrs("driverVersion", "v:3.0.0", "stringAttribute", "b"))))
            .node(node(NODE1, REGION1))
            .expect(
                result(
                    local1,
                    device(REQ0, DRIVER_A, POOL1, DEVICE2),
                    device(REQ1, DRIVER_A, POOL1, DEVICE3)))
            .build());
    cs.add(
        c("a class's configuration comes with its devices")
            .claims(claim(CLAIM0, REQ0, CLASS_A))
            .classes(classWithConfig(CLASS_A, DRIVER_A, "classAttribute"))
            .slices(sliceWithOneDevice(SLICE1, NODE1, POOL1, DRIVER_A))
            .node(node(NODE1, REGION1))
            .expect(
                result(
                    local1,
                    List.of(device(REQ0, DRIVER_A, POOL1, DEVICE1)),
                    config("FromClass", List.of(REQ0), DRIVER_A, "classAttribute")))
            .build());
    cs.add(
        c("a class's configuration is listed once for all its requests")
            .claims(
                claimWithRequests(
                    CLAIM0,
                    List.of(),
                    request(REQ0, CLASS_A, 1),
                    request(REQ1, CLASS_A, 1),
                    request(REQ2, CLASS_B, 1)))
            .classes(
                classWithConfig(CLASS_A, DRIVER_A, "classAttribute-A"),
                classWithConfig(CLASS_B, DRIVER_B, "classAttribute-B"))
            .slices(
                sliceWithDevices(SLICE1, NODE1, POOL1, DRIVER_A, 2),
                sliceWithOneDevice(SLICE2, NODE1, POOL1, DRIVER_B))
            .node(node(NODE1, REGION1))
            .expect(
                result(
                    local1,
                    List.of(
                        device(REQ0, DRIVER_A, POOL1, "device-0"),
                        device(REQ1, DRIVER_A, POOL1, DEVICE1),
                        device(REQ2, DRIVER_B, POOL1, DEVICE1)),
                    config("FromClass", List.of(REQ0, REQ1), DRIVER_A, "classAttribute-A"),
                    config("FromClass", List.of(REQ2), DRIVER_B, "classAttribute-B")))
            .build());
    cs.add(
        c("a claim's configuration comes with its devices")
            .claims(
                withConfig(
                    claim(CLAIM0, REQ0, CLASS_A),
                    claimConfig(List.of(REQ0), DRIVER_A, "deviceAttribute")))
            .classes(deviceClass(CLASS_A, DRIVER_A))
            .slices(sliceWithOneDevice(SLICE1, NODE1, POOL1, DRIVER_A))
            .node(node(NODE1, REGION1))
            .expect(
                result(
                    local1,
                    List.of(device(REQ0, DRIVER_A, POOL1, DEVICE1)),
                    config("FromClaim", List.of(REQ0), DRIVER_A, "deviceAttribute")))
            .build());
    ResourceClaim emptySelector = claim(CLAIM0, REQ0, CLASS_A);
    emptySelector
        .getSpec()
        .getDevices()
        .getRequests()
        .get(0)
        .getExactly()
        .setSelectors(
            new ArrayList<>(
                List.of(new io.fabric8.kubernetes.api.model.resource.v1.DeviceSelector())));
    cs.add(
        c("a selector of an unknown kind is an error")
            .claims(emptySelector)
            .classes(deviceClass(CLASS_A, DRIVER_A))
            .slices(sliceWithOneDevice(SLICE1, NODE1, POOL1, DRIVER_A))
            .node(node(NODE1, REGION1))
            .error("CEL expression empty (unsupported selector type?)")
            .build());
    cs.add(
        c("an unknown allocation mode is an error")
            .claims(mode(claim(CLAIM0, REQ0, CLASS_A), "future-mode"))
            .classes(deviceClass(CLASS_A, DRIVER_A))
            .slices(sliceWithOneDevice(SLICE1, NODE1, POOL1, DRIVER_A))
            .node(node(NODE1, REGION1))
            .error("unsupported count mode future-mode")
            .build());
    ResourceClaim emptyConstraint = claim(CLAIM0, REQ0, CLASS_A, new DeviceConstraint());
    cs.add(
        c("a constraint of an unknown kind is an error")
            .claims(emptyConstraint)
            .classes(deviceClass(CLASS_A, DRIVER_A))
            .slices(sliceWithOneDevice(SLICE1, NODE1, POOL1, DRIVER_A))
            .node(node(NODE1, REGION1))
            .error("empty constraint (unsupported constraint type?)")
            .build());
    ResourceClaim badCel =
        claimWithRequests(CLAIM0, List.of(), request(REQ0, CLASS_A, 1, cel("noSuchVar")));
    cs.add(
        c("a request selector that does not compile is an error")
            .claims(badCel)
            .classes(deviceClass(CLASS_A, DRIVER_A))
            .slices(sliceWithOneDevice(SLICE1, NODE1, POOL1, DRIVER_A))
            .node(node(NODE1, REGION1))
            .error("undeclared reference")
            .build());
    DeviceClass badClass = deviceClass(CLASS_A, DRIVER_A);
    badClass.getSpec().getSelectors().get(0).getCel().setExpression("noSuchVar");
    cs.add(
        c("a class selector that does not compile is an error")
            .claims(claim(CLAIM0, REQ0, CLASS_A))
            .classes(badClass)
            .slices(sliceWithOneDevice(SLICE1, NODE1, POOL1, DRIVER_A))
            .node(node(NODE1, REGION1))
            .error("undeclared reference")
            .build());
    cs.add(
        c("All with a selector that does not compile is an error")
            .claims(
                claimWithRequests(CLAIM0, List.of(), allRequest(REQ0, CLASS_A, cel("noSuchVar"))))
            .classes(deviceClass(CLASS_A, DRIVER_A))
            .slices(sliceWithOneDevice(SLICE1, NODE1, POOL1, DRIVER_A))
            .node(node(NODE1, REGION1))
            .error("undeclared reference")
            .build());
    cs.add(
        c("more devices than a claim may hold in one request is an error")
            .claims(claimWithRequests(CLAIM0, List.of(), request(REQ0, CLASS_A, 500)))
            .classes(deviceClass(CLASS_A, DRIVER_A))
            .error("exceeds the claim limit")
            .build());
    cs.add(
        c("as many devices as a claim may hold is fine")
            .claims(claimWithRequests(CLAIM0, List.of(), request(REQ0, CLASS_A, 32)))
            .classes(deviceClass(CLASS_A, DRIVER_A))
            .expect()
            .build());
    cs.add(
        c("more devices than a claim may hold in all its requests is an error")
            .claims(
                claimWithRequests(
                    CLAIM0, List.of(), request(REQ0, CLASS_A, 32), request(REQ1, CLASS_A, 1)))
            .classes(deviceClass(CLASS_A, DRIVER_A))
            .slices(sliceWithDevices(SLICE1, NODE1, POOL1, DRIVER_A, 33))
            .node(node(NODE1, REGION1))
            .error("exceeds the claim limit")
            .build());
    cs.add(
        c("the second alternative when the first has no device")
            .features(LISTS)
            .claims(
                claimWithRequests(
                    CLAIM0,
                    List.of(),
                    prioritized(REQ0, subRequest(SUB0, CLASS_B, 1), subRequest(SUB1, CLASS_A, 1))))
            .classes(deviceClass(CLASS_A, DRIVER_A), deviceClass(CLASS_B, DRIVER_B))
            .slices(sliceWithOneDevice(SLICE1, NODE1, POOL1, DRIVER_A))
            .node(node(NODE1, REGION1))
            .expect(result(local1, device("req-0/subReq-1", DRIVER_A, POOL1, DEVICE1)))
            .build());
    cs.add(
        c("no alternative when none has enough devices")
            .features(LISTS)
            .claims(
                claimWithRequests(
                    CLAIM0,
                    List.of(),
                    prioritized(REQ0, subRequest(SUB0, CLASS_B, 2), subRequest(SUB1, CLASS_A, 2))))
            .classes(deviceClass(CLASS_A, DRIVER_A), deviceClass(CLASS_B, DRIVER_B))
            .slices(
                sliceWithOneDevice(SLICE1, NODE1, POOL1, DRIVER_A),
                sliceWithOneDevice(SLICE2, NODE1, POOL2, DRIVER_B))
            .node(node(NODE1, REGION1))
            .expect()
            .build());
    cs.add(
        c("a claim's configuration for the chosen alternative")
            .features(LISTS)
            .claims(
                withConfig(
                    claimWithRequests(
                        CLAIM0,
                        List.of(),
                        prioritized(
                            REQ0, subRequest(SUB0, CLASS_A, 1), subRequest(SUB1, CLASS_B, 2))),
                    claimConfig(List.of("req-0/subReq-0"), DRIVER_A, "foo"),
                    claimConfig(List.of("req-0/subReq-1"), DRIVER_B, "bar")))
            .classes(deviceClass(CLASS_A, DRIVER_A), deviceClass(CLASS_B, DRIVER_B))
            .slices(slice(SLICE1, NODE1, POOL1, DRIVER_B, device(DEVICE1), device(DEVICE2)))
            .node(node(NODE1, REGION1))
            .expect(
                result(
                    local1,
                    List.of(
                        device("req-0/subReq-1", DRIVER_B, POOL1, DEVICE1),
                        device("req-0/subReq-1", DRIVER_B, POOL1, DEVICE2)),
                    config("FromClaim", List.of("req-0/subReq-1"), DRIVER_B, "bar")))
            .build());
    cs.add(
        c("the class configuration of the chosen alternative")
            .features(LISTS)
            .claims(
                claimWithRequests(
                    CLAIM0,
                    List.of(),
                    prioritized(REQ0, subRequest(SUB0, CLASS_A, 2), subRequest(SUB1, CLASS_B, 2))))
            .classes(
                classWithConfig(CLASS_A, DRIVER_A, "foo"),
                classWithConfig(CLASS_B, DRIVER_B, "bar"))
            .slices(
                slice(SLICE1, NODE1, POOL1, DRIVER_B, device(DEVICE1), device(DEVICE2)),
                slice(SLICE2, NODE1, POOL2, DRIVER_A, device(DEVICE3)))
            .node(node(NODE1, REGION1))
            .expect(
                result(
                    local1,
                    List.of(
                        device("req-0/subReq-1", DRIVER_B, POOL1, DEVICE1),
                        device("req-0/subReq-1", DRIVER_B, POOL1, DEVICE2)),
                    config("FromClass", List.of("req-0/subReq-1"), DRIVER_B, "bar")))
            .build());
    ResourceSlice memories =
        slice(
            SLICE1,
            NODE1,
            POOL1,
            DRIVER_A,
            device(DEVICE1, capacity("memory", "2Gi"), null),
            device(DEVICE2, capacity("memory", "2Gi"), null),
            device(DEVICE3, capacity("memory", "1Gi"), null));
    cs.add(
        c("alternatives with selectors: the first does not fit, the second does")
            .features(LISTS)
            .claims(
                claimWithRequests(
                    CLAIM0,
                    List.of(),
                    request(REQ0, CLASS_A, 1, memoryAtLeast("1Gi")),
                    prioritized(
                        REQ1,
                        subRequest(SUB0, CLASS_A, 1, memoryAtLeast("4Gi")),
                        subRequest(SUB1, CLASS_A, 2, memoryAtLeast("2Gi")))))
            .classes(deviceClass(CLASS_A, DRIVER_A))
            .slices(memories)
            .node(node(NODE1, REGION1))
            .expect(
                result(
                    local1,
                    device(REQ0, DRIVER_A, POOL1, DEVICE3),
                    device("req-1/subReq-1", DRIVER_A, POOL1, DEVICE1),
                    device("req-1/subReq-1", DRIVER_A, POOL1, DEVICE2)))
            .build());
    ResourceSlice big =
        slice(
            SLICE1,
            NODE1,
            POOL1,
            DRIVER_A,
            device(DEVICE1, capacity("memory", "8Gi"), attrs("driverVersion", "v:1.0.0")));
    cs.add(
        c("a constraint on the parent request applies to its alternatives")
            .features(LISTS)
            .claims(
                claimWithRequests(
                    CLAIM0,
                    List.of(matchAttribute(VERSION_ATTR, REQ0, REQ1)),
                    request(REQ0, CLASS_A, 1, memoryAtLeast("8Gi")),
                    prioritized(
                        REQ1,
                        subRequest(SUB0, CLASS_A, 1, memoryAtLeast("2Gi")),
                        subRequest(SUB1, CLASS_A, 1, memoryAtLeast("1Gi")))))
            .classes(deviceClass(CLASS_A, DRIVER_A))
            .slices(
                big,
                slice(
                    SLICE2,
                    NODE1,
                    POOL2,
                    DRIVER_A,
                    device(DEVICE2, capacity("memory", "2Gi"), attrs("driverVersion", "v:2.0.0")),
                    device(DEVICE3, capacity("memory", "1Gi"), attrs("driverVersion", "v:1.0.0"))))
            .node(node(NODE1, REGION1))
            .expect(
                result(
                    local1,
                    device(REQ0, DRIVER_A, POOL1, DEVICE1),
                    device("req-1/subReq-1", DRIVER_A, POOL2, DEVICE3)))
            .build());
    cs.add(
        c("a constraint on one alternative leaves the others free")
            .features(LISTS)
            .claims(
                claimWithRequests(
                    CLAIM0,
                    List.of(matchAttribute(VERSION_ATTR, REQ0, "req-1/subReq-0")),
                    request(REQ0, CLASS_A, 1, memoryAtLeast("8Gi")),
                    prioritized(
                        REQ1,
                        subRequest(SUB0, CLASS_A, 1, memoryAtLeast("2Gi")),
                        subRequest(SUB1, CLASS_A, 1, memoryAtLeast("1Gi")))))
            .classes(deviceClass(CLASS_A, DRIVER_A))
            .slices(
                big,
                slice(
                    SLICE2,
                    NODE1,
                    POOL2,
                    DRIVER_A,
                    device(DEVICE2, capacity("memory", "2Gi"), attrs("driverVersion", "v:2.0.0"))))
            .node(node(NODE1, REGION1))
            .expect(
                result(
                    local1,
                    device(REQ0, DRIVER_A, POOL1, DEVICE1),
                    device("req-1/subReq-1", DRIVER_A, POOL2, DEVICE2)))
            .build());
    cs.add(
        c("the alternative after All of partly allocated devices of the same class")
            .features(LISTS)
            .claims(
                claimWithRequests(
                    CLAIM0,
                    List.of(),
                    prioritized(REQ0, allSubRequest(SUB0, CLASS_A), subRequest(SUB1, CLASS_A, 1))))
            .allocated(id(DRIVER_A, POOL1, DEVICE1))
            .classes(deviceClass(CLASS_A, DRIVER_A))
            .slices(twoA)
            .node(node(NODE1, REGION1))
            .expect(result(local1, device("req-0/subReq-1", DRIVER_A, POOL1, DEVICE2)))
            .build());
    cs.add(
        c("All as an alternative after a request that took a device")
            .features(LISTS)
            .claims(
                claimWithRequests(
                    CLAIM0,
                    List.of(),
                    request(REQ0, CLASS_A, 1),
                    prioritized(REQ1, allSubRequest(SUB0, CLASS_A), subRequest(SUB1, CLASS_A, 1))))
            .classes(deviceClass(CLASS_A, DRIVER_A))
            .slices(twoA)
            .node(node(NODE1, REGION1))
            .expect(
                result(
                    local1,
                    device(REQ0, DRIVER_A, POOL1, DEVICE1),
                    device("req-1/subReq-1", DRIVER_A, POOL1, DEVICE2)))
            .build());
    cs.add(
        c("alternatives with the gate off are an error")
            .features(NONE)
            .claims(
                claimWithRequests(
                    CLAIM0, List.of(), prioritized(REQ0, subRequest(SUB0, CLASS_A, 1))))
            .classes(deviceClass(CLASS_A, DRIVER_A))
            .slices(sliceWithOneDevice(SLICE1, NODE1, POOL1, DRIVER_A))
            .node(node(NODE1, REGION1))
            .error(
                "claim claim-0, request req-0: has subrequests, but the DRAPrioritizedList"
                    + " feature is disabled")
            .build());
    ResourceSlice eight =
        slice(SLICE1, NODE1, POOL1, DRIVER_A, device(DEVICE1, capacity("memory", "8Gi"), attrs()));
    ResourceSlice four =
        slice(SLICE2, NODE1, POOL2, DRIVER_A, device(DEVICE2, capacity("memory", "4Gi"), attrs()));
    cs.add(
        c("a request before the alternatives takes the large device, the alternatives the small")
            .features(LISTS)
            .claims(
                claimWithRequests(
                    CLAIM0,
                    List.of(),
                    request(REQ1, CLASS_A, 1, memoryAtLeast("8Gi")),
                    prioritized(
                        REQ0,
                        subRequest(SUB0, CLASS_A, 1, memoryAtLeast("8Gi")),
                        subRequest(SUB1, CLASS_A, 1, memoryAtLeast("4Gi")))))
            .classes(deviceClass(CLASS_A, DRIVER_A))
            .slices(eight, four)
            .node(node(NODE1, REGION1))
            .expect(
                result(
                    local1,
                    device(REQ1, DRIVER_A, POOL1, DEVICE1),
                    device("req-0/subReq-1", DRIVER_A, POOL2, DEVICE2)))
            .build());
    cs.add(
        c("the search goes back to the second alternative for a later request")
            .features(LISTS)
            .claims(
                claimWithRequests(
                    CLAIM0,
                    List.of(),
                    prioritized(
                        REQ0,
                        subRequest(SUB0, CLASS_A, 1, memoryAtLeast("8Gi")),
                        subRequest(SUB1, CLASS_A, 1, memoryAtLeast("4Gi"))),
                    request(REQ1, CLASS_A, 1, memoryAtLeast("8Gi"))))
            .classes(deviceClass(CLASS_A, DRIVER_A))
            .slices(eight, four)
            .node(node(NODE1, REGION1))
            .expect(
                result(
                    local1,
                    device("req-0/subReq-1", DRIVER_A, POOL2, DEVICE2),
                    device(REQ1, DRIVER_A, POOL1, DEVICE1)))
            .build());
    cs.add(
        c("an alternative asking for too many devices is passed over")
            .features(LISTS)
            .claims(
                claimWithRequests(
                    CLAIM0,
                    List.of(),
                    prioritized(
                        REQ0, subRequest(SUB0, CLASS_B, 500), subRequest(SUB1, CLASS_A, 1))))
            .classes(deviceClass(CLASS_A, DRIVER_A), deviceClass(CLASS_B, DRIVER_B))
            .slices(sliceWithOneDevice(SLICE1, NODE1, POOL1, DRIVER_A))
            .node(node(NODE1, REGION1))
            .expect(result(local1, device("req-0/subReq-1", DRIVER_A, POOL1, DEVICE1)))
            .build());
    cs.add(
        c("the alternative after All when one of its devices is allocated")
            .features(LISTS)
            .claims(
                claimWithRequests(
                    CLAIM0,
                    List.of(),
                    prioritized(REQ0, allSubRequest(SUB0, CLASS_A), subRequest(SUB1, CLASS_A, 1))))
            .classes(deviceClass(CLASS_A, DRIVER_A))
            .slices(twoA)
            .allocated(id(DRIVER_A, POOL1, DEVICE2))
            .node(node(NODE1, REGION1))
            .expect(result(local1, device("req-0/subReq-1", DRIVER_A, POOL1, DEVICE1)))
            .build());
    List<String> all32 = new ArrayList<>();
    for (int i = 0; i < 32; i++) {
      all32.add(device(REQ0, DRIVER_A, POOL1, "device-" + i));
    }
    cs.add(
        c("as many devices as a claim may hold are allocated")
            .claims(claimWithRequests(CLAIM0, List.of(), request(REQ0, CLASS_A, 32)))
            .classes(deviceClass(CLASS_A, DRIVER_A))
            .slices(sliceWithDevices(SLICE1, NODE1, POOL1, DRIVER_A, 32))
            .node(node(NODE1, REGION1))
            .expect(result(local1, all32))
            .build());
    return cs.stream();
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void allocatesAsUpstream(Case c) {
    Allocator a = allocator(c.features(), c.allocated(), c.classes(), c.slices());
    String nodeName = c.node() == null ? null : c.node().name();
    Map<String, String> labels = c.node() == null ? Map.of() : c.node().labels();
    if (c.error() != null) {
      assertThatThrownBy(() -> a.allocate(nodeName, labels, c.claims(), () -> 0, Long.MAX_VALUE))
          .isInstanceOf(AllocationException.class)
          .hasMessageContaining(c.error());
      return;
    }
    List<AllocationResult> results =
        a.allocate(nodeName, labels, c.claims(), () -> 0, Long.MAX_VALUE);
    List<String> got = results == null ? List.of() : results.stream().map(Dra::text).toList();
    assertThat(got).containsExactlyElementsOf(c.expect());
  }

  @Test
  void aSearchPastItsDeadlineStops() {
    Allocator a =
        allocator(
            NONE,
            Set.of(),
            List.of(deviceClass(CLASS_A, DRIVER_A)),
            List.of(sliceWithDevices(SLICE1, NODE1, POOL1, DRIVER_A, 5)));
    AtomicLong now = new AtomicLong();
    List<ResourceClaim> six =
        List.of(claimWithRequests(CLAIM0, List.of(), request(REQ0, CLASS_A, 6)));
    assertThat(a.allocate(NODE1, Map.of(), six, now::get, Long.MAX_VALUE)).isNull();
    assertThatThrownBy(() -> a.allocate(NODE1, Map.of(), six, now::incrementAndGet, 3))
        .isInstanceOf(AllocationTimeout.class);
  }

  @Test
  void theClaimsAreLeftAsTheyWere() {
    ResourceClaim c = claim(CLAIM0, REQ0, CLASS_A, matchAttribute(INT_ATTR));
    ResourceClaim before = new ResourceClaimBuilder(c).build();
    ResourceSlice s =
        slice(SLICE1, NODE1, POOL1, DRIVER_A, device(DEVICE1, null, attrs("numa", 1)));
    ResourceSlice sliceBefore = new ResourceSliceBuilder(s).build();
    allocator(NONE, Set.of(), List.of(deviceClass(CLASS_A, DRIVER_A)), List.of(s))
        .allocate(NODE1, Map.of(), List.of(c), () -> 0, Long.MAX_VALUE);
    assertThat(c).isEqualTo(before);
    assertThat(s).isEqualTo(sliceBefore);
  }

  /** An allocator over these objects, the slices indexed in the order given. */
  static Allocator allocator(
      Allocator.Features features,
      Set<DeviceId> allocated,
      List<DeviceClass> classes,
      List<ResourceSlice> slices) {
    Map<String, DeviceClass> byName = new LinkedHashMap<>();
    classes.forEach(dc -> byName.put(dc.getMetadata().getName(), dc));
    return new Allocator(
        features,
        TakenDevices.of(allocated),
        byName::get,
        index(slices),
        new DeviceSelectors(),
        new SliceViews(),
        null);
  }

  static ResourceSlices index(List<ResourceSlice> slices) {
    Map<String, List<ResourceSlice>> byNode = new LinkedHashMap<>();
    List<ResourceSlice> shared = new ArrayList<>();
    for (ResourceSlice s : slices) {
      String n = s.getSpec().getNodeName();
      if (n != null && !n.isEmpty()) {
        byNode.computeIfAbsent(n, k -> new ArrayList<>()).add(s);
      } else {
        shared.add(s);
      }
    }
    return new ResourceSlices(byNode, shared, slices.size());
  }
}
