package io.schedext.plugins.dynamicresources;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.NodeSelector;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.resource.v1.AllocationResult;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceClass;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceClassBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceRequestAllocationResult;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceRequestAllocationResultBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaimBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaimConsumerReference;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaimConsumerReferenceBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceSlice;
import io.schedext.cluster.ObjectStore;
import io.schedext.framework.ClusterObjects;
import io.schedext.framework.CycleState;
import io.schedext.framework.Handle;
import io.schedext.framework.NodeInfo;
import io.schedext.framework.PluginArgs;
import io.schedext.framework.PluginsRunner;
import io.schedext.framework.PodBinder;
import io.schedext.framework.PodInfo;
import io.schedext.framework.PodNominator;
import io.schedext.framework.ResourceClaimTracker;
import io.schedext.framework.ResourceClaimWriter;
import io.schedext.framework.Status;
import io.schedext.framework.VolumeWriter;
import io.schedext.framework.WaitingPods;
import io.schedext.framework.parallelize.Parallelizer;
import io.schedext.testing.MakeNode;
import io.schedext.testing.MakePod;
import io.schedext.testing.TestFrameworks;
import java.time.Clock;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * DynamicResources through a whole cycle (PreFilter, Filter on every node, then PostFilter when no
 * node fits, else Reserve on the first node that fits, PreBind, and Unreserve where a case makes
 * binding fail), with the cases of upstream's plugin table test ({@code TestPlugin}) that 1.34's
 * gates leave (the extended resource, binding condition and device taint cases are alpha-gated), in
 * our own words. After each step the case checks the status, the claims as the API server has them,
 * and the claims in flight or assumed.
 */
class DynamicResourcesTest {

  static final String NODE = "worker";
  static final String NODE2 = "worker-2";
  static final String NODE3 = "worker-3";
  static final String DRIVER = "some-driver";
  static final String POD = "my-pod";
  static final String POD_UID = "1234";
  static final String RESOURCE = "my-resource";
  static final String CLAIM = POD + "-" + RESOURCE;
  static final String CLASS = "my-resource-class";
  static final String NS = "default";
  static final String FINALIZER = "resource.kubernetes.io/delete-protection";

  static Pod podWithClaimName() {
    return MakePod.pod().name(POD).namespace(NS).uid(POD_UID).resourceClaim(RESOURCE, CLAIM).obj();
  }

  static Pod podWithClaimTemplate() {
    return MakePod.pod()
        .name(POD)
        .namespace(NS)
        .uid(POD_UID)
        .resourceClaimTemplate(RESOURCE, CLAIM)
        .obj();
  }

  static Pod podWithClaimTemplateInStatus() {
    return MakePod.pod()
        .name(POD)
        .namespace(NS)
        .uid(POD_UID)
        .resourceClaimTemplate(RESOURCE, CLAIM)
        .resourceClaimStatus(RESOURCE, CLAIM)
        .obj();
  }

  static DeviceClass deviceClass() {
    return new DeviceClassBuilder().withNewMetadata().withName(CLASS).endMetadata().build();
  }

  static ResourceSlice nodeSlice(String node, Map<String, ?> attributes) {
    var s = Dra.slice(node + "-" + DRIVER, node, node, DRIVER, Dra.device("instance-1"));
    s.getSpec().getPool().setGeneration(0L);
    if (!attributes.isEmpty()) {
      @SuppressWarnings("unchecked")
      var a = (Map<String, io.fabric8.kubernetes.api.model.resource.v1.DeviceAttribute>) attributes;
      s.getSpec().getDevices().get(0).setAttributes(a);
    }
    return s;
  }

  static ResourceSlice workerSlice() {
    return nodeSlice(NODE, Map.of());
  }

  static ResourceSlice healthySlice(String node) {
    return nodeSlice(node, Dra.attrs("healthy", true));
  }

  static ResourceClaim claim() {
    return new ResourceClaimBuilder()
        .withNewMetadata()
        .withName(CLAIM)
        .withNamespace(NS)
        .withUid("uid-" + CLAIM)
        .endMetadata()
        .withNewSpec()
        .withNewDevices()
        .withRequests(Dra.request("req-1", CLASS, 1))
        .endDevices()
        .endSpec()
        .build();
  }

  static ResourceClaim pending() {
    return new ResourceClaimBuilder(claim())
        .editMetadata()
        .addNewOwnerReference()
        .withApiVersion("v1")
        .withKind("Pod")
        .withName(POD)
        .withUid(POD_UID)
        .withController(true)
        .endOwnerReference()
        .endMetadata()
        .build();
  }

  static ResourceClaim withPrioritizedList(ResourceClaim c) {
    c.getSpec()
        .getDevices()
        .setRequests(
            new ArrayList<>(
                List.of(Dra.prioritized("req-1", Dra.subRequest("subreq-1", CLASS, 1)))));
    return c;
  }

  static AllocationResult allocation(String request) {
    AllocationResult a = new AllocationResult();
    var d = new io.fabric8.kubernetes.api.model.resource.v1.DeviceAllocationResult();
    d.setResults(
        new ArrayList<>(
            List.of(
                new DeviceRequestAllocationResultBuilder()
                    .withRequest(request)
                    .withDriver(DRIVER)
                    .withPool(NODE)
                    .withDevice("instance-1")
                    .build())));
    a.setDevices(d);
    a.setNodeSelector(Dra.localNodeSelector(NODE));
    return a;
  }

  static ResourceClaim allocated(ResourceClaim c, AllocationResult a) {
    ResourceClaim out =
        new ResourceClaimBuilder(c)
            .editMetadata()
            .withFinalizers(FINALIZER)
            .endMetadata()
            .withNewStatus()
            .endStatus()
            .build();
    out.getStatus().setAllocation(a);
    return out;
  }

  static ResourceClaim allocated() {
    return allocated(pending(), allocation("req-1"));
  }

  static ResourceClaim reservedFor(ResourceClaim c, String pod, String uid) {
    ResourceClaim out = new ResourceClaimBuilder(c).build();
    List<ResourceClaimConsumerReference> r =
        out.getStatus().getReservedFor() == null
            ? new ArrayList<>()
            : new ArrayList<>(out.getStatus().getReservedFor());
    r.add(
        new ResourceClaimConsumerReferenceBuilder()
            .withResource("pods")
            .withName(pod)
            .withUid(uid)
            .build());
    out.getStatus().setReservedFor(r);
    return out;
  }

  static ResourceClaim inUse() {
    return reservedFor(allocated(), POD, POD_UID);
  }

  static ResourceClaim otherAllocated(boolean admin) {
    ResourceClaim c =
        new ResourceClaimBuilder(claim())
            .editMetadata()
            .withName("not-my-claim")
            .withUid("uid-other")
            .endMetadata()
            .build();
    AllocationResult a = allocation("req-1");
    if (admin) {
      a.getDevices().getResults().get(0).setAdminAccess(true);
    }
    return allocated(c, a);
  }

  static ResourceClaim adminAccess(ResourceClaim c) {
    ResourceClaim out = new ResourceClaimBuilder(c).build();
    out.getSpec().getDevices().getRequests().get(0).getExactly().setAdminAccess(true);
    if (out.getStatus() != null && out.getStatus().getAllocation() != null) {
      for (DeviceRequestAllocationResult r :
          out.getStatus().getAllocation().getDevices().getResults()) {
        r.setAdminAccess(true);
      }
    }
    return out;
  }

  static ResourceClaim breakCel(ResourceClaim c) {
    ResourceClaim out = new ResourceClaimBuilder(c).build();
    out.getSpec()
        .getDevices()
        .getRequests()
        .get(0)
        .getExactly()
        .setSelectors(
            new ArrayList<>(List.of(Dra.cel("device.attributes[\"" + DRIVER + "\"].healthy"))));
    return out;
  }

  static DeviceClass breakCel(DeviceClass c) {
    return new DeviceClassBuilder(c)
        .withNewSpec()
        .withSelectors(Dra.cel("device.attributes[\"" + DRIVER + "\"].healthy"))
        .endSpec()
        .build();
  }

  static ResourceClaim className(ResourceClaim c, String cls) {
    ResourceClaim out = new ResourceClaimBuilder(c).build();
    var r = out.getSpec().getDevices().getRequests().get(0);
    if (r.getExactly() != null) {
      r.getExactly().setDeviceClassName(cls);
    } else {
      r.getFirstAvailable().forEach(s -> s.setDeviceClassName(cls));
    }
    return out;
  }

  static ResourceClaim topology(NodeSelector selector) {
    ResourceClaim c = allocated();
    AllocationResult a = new AllocationResult();
    a.setNodeSelector(selector);
    c.getStatus().setAllocation(a);
    return c;
  }

  /**
   * What a case expects. Statuses are {@code Code} or {@code Code: message} ({@code Success} by
   * default; null where the step does not run); claims as {@link #text} writes them.
   */
  static final class Want {
    String preFilter = "Success";
    Map<String, String> filter = new LinkedHashMap<>();
    String postFilter;
    String reserve;
    List<String> inFlight = List.of();
    String preBind;
    List<String> claimsAfterPreBind;
    List<String> assumedAfterPreBind = List.of();
    List<String> claimsAfterUnreserve;
  }

  record Case(
      String name,
      Allocator.Features features,
      String filterTimeout,
      List<NodeInfo> nodes,
      Pod pod,
      List<ResourceClaim> claims,
      List<DeviceClass> classes,
      List<ResourceSlice> slices,
      Consumer<FakeClaimApi> beforePreBind,
      boolean unreserveBeforePreBind,
      boolean failBind,
      boolean informerLags,
      Want want) {

    @Override
    public String toString() {
      return name;
    }
  }

  static final class C {
    final String name;
    Allocator.Features features = Allocator.Features.V1_34;
    String filterTimeout;
    List<NodeInfo> nodes = List.of(node(NODE));
    Pod pod = podWithClaimName();
    List<ResourceClaim> claims = List.of();
    List<DeviceClass> classes = List.of();
    List<ResourceSlice> slices = List.of();
    Consumer<FakeClaimApi> beforePreBind = api -> {};
    boolean unreserveBeforePreBind;
    boolean failBind;
    boolean informerLags;
    final Want want = new Want();

    C(String name) {
      this.name = name;
    }

    C pod(Pod p) {
      pod = p;
      return this;
    }

    C claims(ResourceClaim... c) {
      claims = List.of(c);
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

    C nodes(String... names) {
      nodes = Stream.of(names).map(DynamicResourcesTest::node).toList();
      return this;
    }

    C features(Allocator.Features f) {
      features = f;
      return this;
    }

    C filterTimeout(String t) {
      filterTimeout = t;
      return this;
    }

    C preFilter(String s) {
      want.preFilter = s;
      return this;
    }

    C filter(String node, String s) {
      want.filter.put(node, s);
      return this;
    }

    C postFilter(String s) {
      want.postFilter = s;
      return this;
    }

    C reserved(ResourceClaim... inFlight) {
      want.reserve = "Success";
      want.inFlight = Stream.of(inFlight).map(DynamicResourcesTest::text).toList();
      return this;
    }

    C preBound(List<ResourceClaim> after, ResourceClaim... assumed) {
      want.preBind = "Success";
      want.claimsAfterPreBind = after.stream().map(DynamicResourcesTest::text).toList();
      want.assumedAfterPreBind = Stream.of(assumed).map(DynamicResourcesTest::text).toList();
      return this;
    }

    C preBindFails(String status) {
      want.preBind = status;
      return this;
    }

    C beforePreBind(Consumer<FakeClaimApi> change) {
      beforePreBind = change;
      return this;
    }

    C unreserveBeforePreBind() {
      unreserveBeforePreBind = true;
      return this;
    }

    C failBind(ResourceClaim... after) {
      failBind = true;
      want.claimsAfterUnreserve = Stream.of(after).map(DynamicResourcesTest::text).toList();
      return this;
    }

    C informerLags() {
      informerLags = true;
      return this;
    }

    Case build() {
      return new Case(
          name,
          features,
          filterTimeout,
          nodes,
          pod,
          claims,
          classes,
          slices,
          beforePreBind,
          unreserveBeforePreBind,
          failBind,
          informerLags,
          want);
    }
  }

  static C c(String sentence) {
    return new C(sentence);
  }

  static NodeInfo node(String name) {
    return NodeInfo.of(MakeNode.node().name(name).label("kubernetes.io/hostname", name).obj());
  }

  /** A claim as the checks compare it. */
  static String text(ResourceClaim c) {
    StringBuilder b = new StringBuilder(c.getMetadata().getName());
    var f = c.getMetadata().getFinalizers();
    if (f != null && !f.isEmpty()) {
      b.append(" finalizers=").append(f);
    }
    if (c.getStatus() != null && c.getStatus().getAllocation() != null) {
      AllocationResult a = c.getStatus().getAllocation();
      List<String> ds = new ArrayList<>();
      if (a.getDevices() != null && a.getDevices().getResults() != null) {
        for (DeviceRequestAllocationResult r : a.getDevices().getResults()) {
          ds.add(
              Dra.device(
                  r.getRequest(),
                  r.getDriver(),
                  r.getPool(),
                  r.getDevice(),
                  Boolean.TRUE.equals(r.getAdminAccess())));
        }
      }
      b.append(" allocation=").append(ds).append(" on ").append(Dra.selector(a.getNodeSelector()));
    }
    if (c.getStatus() != null
        && c.getStatus().getReservedFor() != null
        && !c.getStatus().getReservedFor().isEmpty()) {
      b.append(" reservedFor=")
          .append(
              c.getStatus().getReservedFor().stream()
                  .map(r -> r.getResource() + "/" + r.getName() + "/" + r.getUid())
                  .toList());
    }
    return b.toString();
  }

  static String text(Status s) {
    return s.reasons().isEmpty()
        ? s.code().upstreamName()
        : s.code().upstreamName() + ": " + s.message();
  }

  static Stream<Case> cases() {
    List<Case> cs = new ArrayList<>();
    cs.add(
        c("a pod without claims is skipped")
            .pod(MakePod.pod().name("foo").namespace(NS).obj())
            .preFilter("Skip")
            .reserved()
            .preBound(List.of())
            .build());
    cs.add(
        c("a pod naming an allocated claim reserves it in PreBind")
            .claims(allocated(), otherAllocated(false))
            .reserved()
            .preBound(List.of(inUse(), otherAllocated(false)))
            .build());
    cs.add(
        c("a pod with a generated claim reserves it in PreBind")
            .pod(podWithClaimTemplateInStatus())
            .claims(allocated(), otherAllocated(false))
            .reserved()
            .preBound(List.of(inUse(), otherAllocated(false)))
            .build());
    cs.add(
        c("a generated claim not created yet keeps the pod out")
            .pod(podWithClaimTemplate())
            .claims(allocated(), otherAllocated(false))
            .preFilter(
                "UnschedulableAndUnresolvable: pod \"default/my-pod\": ResourceClaim not created yet")
            .postFilter("Unschedulable: no new claims to deallocate")
            .build());
    ResourceClaim deleted = allocated();
    deleted.getMetadata().setDeletionTimestamp("2026-11-28T00:00:00Z");
    cs.add(
        c("a claim being deleted keeps the pod out")
            .pod(podWithClaimTemplateInStatus())
            .claims(deleted)
            .preFilter(
                "UnschedulableAndUnresolvable: resourceclaim \"my-pod-my-resource\" is being deleted")
            .postFilter("Unschedulable: no new claims to deallocate")
            .build());
    ResourceClaim notOwned = allocated();
    notOwned.getMetadata().getOwnerReferences().get(0).setUid(POD_UID + "123");
    cs.add(
        c("a generated claim of another pod keeps the pod out")
            .pod(podWithClaimTemplateInStatus())
            .claims(notOwned)
            .preFilter(
                "UnschedulableAndUnresolvable: ResourceClaim default/my-pod-my-resource was not"
                    + " created for pod default/my-pod (pod is not owner)")
            .postFilter("Unschedulable: no new claims to deallocate")
            .build());
    cs.add(
        c("a claim without devices to allocate fits nowhere")
            .claims(pending())
            .classes(deviceClass())
            .filter(NODE, "UnschedulableAndUnresolvable: cannot allocate all claims")
            .postFilter("Unschedulable: still not schedulable")
            .build());
    cs.add(
        c("a claim is allocated in Reserve and written with the reservation in PreBind")
            .claims(pending())
            .classes(deviceClass())
            .slices(workerSlice())
            .reserved(allocated())
            .preBound(List.of(inUse()))
            .build());
    ResourceClaim withFinalizer = pending();
    withFinalizer.getMetadata().setFinalizers(new ArrayList<>(List.of(FINALIZER)));
    cs.add(
        c("a claim that has the finalizer already keeps it")
            .claims(withFinalizer)
            .classes(deviceClass())
            .slices(workerSlice())
            .reserved(allocated())
            .preBound(List.of(inUse()))
            .build());
    cs.add(
        c("a finalizer removed before PreBind is added again")
            .claims(withFinalizer)
            .classes(deviceClass())
            .slices(workerSlice())
            .beforePreBind(
                api ->
                    api.change(
                        NS,
                        CLAIM,
                        x -> {
                          x.getMetadata().setFinalizers(new ArrayList<>());
                          return x;
                        }))
            .reserved(allocated())
            .preBound(List.of(inUse()))
            .build());
    cs.add(
        c("a finalizer added before PreBind is kept")
            .claims(pending())
            .classes(deviceClass())
            .slices(workerSlice())
            .beforePreBind(
                api ->
                    api.change(
                        NS,
                        CLAIM,
                        x -> {
                          x.getMetadata().setFinalizers(new ArrayList<>(List.of(FINALIZER)));
                          return x;
                        }))
            .reserved(allocated())
            .preBound(List.of(inUse()))
            .build());
    cs.add(
        c("Unreserve before PreBind gives the devices back")
            .claims(pending())
            .classes(deviceClass())
            .slices(workerSlice())
            .reserved(allocated())
            .unreserveBeforePreBind()
            .build());
    cs.add(
        c("a device another claim holds is not allocated again")
            .claims(pending(), otherAllocated(false))
            .classes(deviceClass())
            .slices(workerSlice())
            .filter(NODE, "UnschedulableAndUnresolvable: cannot allocate all claims")
            .postFilter("Unschedulable: still not schedulable")
            .build());
    var tainted = workerSlice();
    tainted
        .getSpec()
        .getDevices()
        .get(0)
        .setTaints(
            new ArrayList<>(
                List.of(
                    new io.fabric8.kubernetes.api.model.resource.v1.DeviceTaintBuilder()
                        .withKey("taint-key")
                        .withValue("taint-value")
                        .withEffect("NoSchedule")
                        .build())));
    cs.add(
        c("device taints are ignored (the gate is off in 1.34)")
            .claims(pending())
            .classes(deviceClass())
            .slices(tainted)
            .reserved(allocated())
            .preBound(List.of(inUse()))
            .build());
    cs.add(
        c("admin access gets a device another claim holds")
            .claims(adminAccess(pending()), otherAllocated(false))
            .classes(deviceClass())
            .slices(workerSlice())
            .reserved(adminAccess(allocated()))
            .preBound(List.of(adminAccess(inUse()), otherAllocated(false)))
            .build());
    cs.add(
        c("admin access with the gate off is an error")
            .features(new Allocator.Features(false, true))
            .claims(adminAccess(pending()), otherAllocated(false))
            .classes(deviceClass())
            .slices(workerSlice())
            .filter(
                NODE,
                "Error: claim default/my-pod-my-resource, request req-1: admin access is"
                    + " requested, but the feature is disabled")
            .build());
    cs.add(
        c("a device held with admin access can still be allocated")
            .claims(pending(), otherAllocated(true))
            .classes(deviceClass())
            .slices(workerSlice())
            .reserved(allocated())
            .preBound(List.of(inUse(), otherAllocated(true)))
            .build());
    cs.add(
        c("a claim selector failing at runtime is an error")
            .claims(breakCel(pending()))
            .classes(deviceClass())
            .slices(workerSlice())
            .filter(
                NODE,
                "Error: claim default/my-pod-my-resource: selector #0: CEL runtime error: no such"
                    + " key: healthy")
            .build());
    cs.add(
        c("a class selector failing at runtime is an error")
            .claims(pending())
            .classes(breakCel(deviceClass()))
            .slices(workerSlice())
            .filter(
                NODE,
                "Error: class my-resource-class: selector #0: CEL runtime error: no such key:"
                    + " healthy")
            .build());
    cs.add(
        c("a selector failing on one of two nodes is an error there")
            .nodes(NODE, NODE2)
            .claims(breakCel(pending()))
            .classes(deviceClass())
            .slices(workerSlice(), healthySlice(NODE2))
            .filter(
                NODE,
                "Error: claim default/my-pod-my-resource: selector #0: CEL runtime error: no such"
                    + " key: healthy")
            .build());
    cs.add(
        c("a missing class keeps the pod out")
            .claims(pending())
            .preFilter(
                "UnschedulableAndUnresolvable: request req-1: device class my-resource-class does"
                    + " not exist")
            .postFilter("Unschedulable: no new claims to deallocate")
            .build());
    cs.add(
        c("an allocated claim out of the node's reach is reported for deallocation")
            .claims(topology(Dra.nodeLabelSelector("no-such-label", "no-such-value")))
            .filter(NODE, "UnschedulableAndUnresolvable: resourceclaim not available on the node")
            .postFilter("Unschedulable: deallocation of ResourceClaim completed")
            .build());
    ResourceClaim good = topology(Dra.nodeLabelSelector("kubernetes.io/hostname", NODE));
    cs.add(
        c("an allocated claim in the node's reach is reserved")
            .claims(good)
            .reserved()
            .preBound(List.of(reservedFor(good, POD, POD_UID)))
            .build());
    cs.add(
        c("a failed bind takes the reservation back")
            .claims(good)
            .reserved()
            .preBound(List.of(reservedFor(good, POD, POD_UID)))
            .failBind(good)
            .build());
    cs.add(
        c("a claim reserved for the pod already needs nothing")
            .claims(inUse())
            .reserved()
            .preBound(List.of(inUse()))
            .build());
    cs.add(
        c("a request of a class that does not exist keeps the pod out")
            .claims(className(claim(), "does-not-exist"))
            .preFilter(
                "UnschedulableAndUnresolvable: request req-1: device class does-not-exist does"
                    + " not exist")
            .postFilter("Unschedulable: no new claims to deallocate")
            .build());
    cs.add(
        c("alternatives with the gate off keep the pod out")
            .features(new Allocator.Features(true, false))
            .claims(withPrioritizedList(claim()))
            .classes(deviceClass())
            .preFilter(
                "UnschedulableAndUnresolvable: resource claim default/my-pod-my-resource, request"
                    + " req-1: has subrequests, but the DRAPrioritizedList feature is disabled")
            .postFilter("Unschedulable: no new claims to deallocate")
            .build());
    cs.add(
        c("an alternative of a class that does not exist keeps the pod out")
            .claims(className(withPrioritizedList(claim()), "does-not-exist"))
            .preFilter(
                "UnschedulableAndUnresolvable: request req-1/subreq-1: device class"
                    + " does-not-exist does not exist")
            .postFilter("Unschedulable: no new claims to deallocate")
            .build());
    ResourceClaim listed = withPrioritizedList(pending());
    cs.add(
        c("an alternative is allocated")
            .claims(listed)
            .classes(deviceClass())
            .slices(workerSlice())
            .reserved(allocated(listed, allocation("req-1/subreq-1")))
            .preBound(
                List.of(reservedFor(allocated(listed, allocation("req-1/subreq-1")), POD, POD_UID)))
            .build());
    ResourceClaim large = pending();
    large
        .getSpec()
        .getDevices()
        .setRequests(
            new ArrayList<>(
                List.of(
                    Dra.request("req-1", CLASS, 1),
                    Dra.request("req-2", CLASS, 1),
                    Dra.request("req-3", CLASS, 1),
                    Dra.request("req-4", CLASS, 1),
                    Dra.request("req-5", CLASS, 1))));
    var largeSlice =
        Dra.slice(
            NODE + "-" + DRIVER,
            NODE,
            NODE,
            DRIVER,
            Dra.device("instance-1"),
            Dra.device("instance-2"),
            Dra.device("instance-3"),
            Dra.device("instance-4"));
    cs.add(
        c("a search past the filter timeout makes the node unschedulable")
            .filterTimeout("1ns")
            .claims(large)
            .classes(deviceClass())
            .slices(largeSlice)
            .filter(NODE, "UnschedulableAndUnresolvable: timed out trying to allocate devices")
            .postFilter("Unschedulable: still not schedulable")
            .build());
    cs.add(
        c("a filter timeout of zero is no limit")
            .filterTimeout("0s")
            .claims(pending())
            .classes(deviceClass())
            .slices(workerSlice())
            .reserved(allocated())
            .preBound(List.of(inUse()))
            .build());
    cs.add(
        c("the written claim is assumed until the informer delivers it")
            .informerLags()
            .claims(pending())
            .classes(deviceClass())
            .slices(workerSlice())
            .reserved(allocated())
            .preBound(List.of(pending()), inUse())
            .build());
    cs.add(
        c("a claim kube-scheduler allocated and reserved for the pod before the bind is taken as it is")
            .informerLags()
            .claims(pending())
            .classes(deviceClass())
            .slices(workerSlice())
            .beforePreBind(
                api ->
                    api.change(
                        NS,
                        CLAIM,
                        x -> reservedFor(allocated(x, allocation("req-1")), POD, POD_UID)))
            .reserved(allocated())
            .preBound(List.of(pending()), inUse())
            .build());
    cs.add(
        c("a claim allocated elsewhere in the meantime fails PreBind")
            .claims(pending())
            .classes(deviceClass())
            .slices(workerSlice())
            .beforePreBind(api -> api.change(NS, CLAIM, x -> allocated(x, allocation("req-1"))))
            .reserved(allocated())
            .preBindFails(
                "Error: claim default/my-pod-my-resource got allocated elsewhere in the meantime")
            .build());
    cs.add(
        c("a failed status update fails PreBind with the API server's message")
            .claims(pending())
            .classes(deviceClass())
            .slices(workerSlice())
            .beforePreBind(api -> api.failNextStatusUpdate("etcdserver: request timed out"))
            .reserved(allocated())
            .preBindFails(
                "Error: add allocation and reservation to claim default/my-pod-my-resource:"
                    + " etcdserver: request timed out")
            .build());
    return cs.stream();
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void runsTheCycleAsUpstream(Case c) {
    ObjectStore store = new ObjectStore();
    FakeClaimApi api = new FakeClaimApi(store);
    c.claims().forEach(api::create);
    c.classes().forEach(store::put);
    c.slices().forEach(store::put);
    if (c.informerLags()) {
      api.informerLags();
    }
    ResourceClaimTracker tracker = new ResourceClaimTracker(store);
    String args =
        c.filterTimeout() == null ? "{}" : "{\"filterTimeout\": \"" + c.filterTimeout() + "\"}";
    DynamicResources p =
        DynamicResources.create(
            PluginArgs.of("DynamicResources", json(args)),
            handle(store, api, tracker),
            c.features(),
            System::nanoTime);
    PodInfo pod = PodInfo.of(c.pod());
    CycleState state = TestFrameworks.cycleState(c.nodes());
    Want w = c.want();

    Status pre = p.preFilter(state, pod).status();
    assertThat(text(pre)).as("PreFilter").isEqualTo(w.preFilter);
    List<NodeInfo> fit = new ArrayList<>();
    if (!pre.isRejected()) {
      for (NodeInfo n : c.nodes()) {
        Status f = pre.isSkip() ? Status.success() : p.filter(state, pod, n);
        assertThat(text(f))
            .as("Filter on " + n.name())
            .isEqualTo(w.filter.getOrDefault(n.name(), "Success"));
        if (f.isError()) {
          return;
        }
        if (f.isSuccess()) {
          fit.add(n);
        }
      }
    }
    if (fit.isEmpty()) {
      assertThat(text(p.postFilter(state, pod, Map.of()).status()))
          .as("PostFilter")
          .isEqualTo(w.postFilter);
      return;
    }
    String node = fit.get(0).name();
    assertThat(text(p.reserve(state, pod, node))).as("Reserve").isEqualTo(w.reserve);
    assertThat(tracker.inFlight().values().stream().map(DynamicResourcesTest::text).toList())
        .as("in flight after Reserve")
        .containsExactlyInAnyOrderElementsOf(w.inFlight);
    if (c.unreserveBeforePreBind()) {
      p.unreserve(state, pod, node);
      assertThat(tracker.inFlight()).as("in flight after Unreserve").isEmpty();
      assertThat(tracker.allocatedDevices().toSet()).isEmpty();
      return;
    }
    c.beforePreBind().accept(api);
    Status bound = p.preBind(state, pod, node);
    assertThat(text(bound)).as("PreBind").isEqualTo(w.preBind);
    if (!bound.isSuccess()) {
      assertThat(tracker.inFlight()).as("in flight after a failed PreBind").isEmpty();
      return;
    }
    assertThat(claims(store)).as("claims after PreBind").isEqualTo(w.claimsAfterPreBind);
    assertThat(tracker.inFlight()).as("in flight after PreBind").isEmpty();
    assertThat(tracker.assumed().stream().map(DynamicResourcesTest::text).toList())
        .as("assumed after PreBind")
        .containsExactlyInAnyOrderElementsOf(w.assumedAfterPreBind);
    if (c.failBind()) {
      p.unreserve(state, pod, node);
      assertThat(claims(store)).as("claims after Unreserve").isEqualTo(w.claimsAfterUnreserve);
    }
  }

  static com.fasterxml.jackson.databind.JsonNode json(String s) {
    try {
      return new com.fasterxml.jackson.databind.ObjectMapper().readTree(s);
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  @org.junit.jupiter.api.Test
  void postFilterHasNoClaimToDeallocateForAPodWithoutClaims() {
    ObjectStore store = new ObjectStore();
    DynamicResources p =
        DynamicResources.create(
            PluginArgs.none(),
            handle(store, new FakeClaimApi(store), new ResourceClaimTracker(store)),
            Allocator.Features.V1_34,
            System::nanoTime);
    PodInfo pod = MakePod.pod().name("foo").namespace(NS).info();
    CycleState state = TestFrameworks.cycleState(List.of(node(NODE)));
    assertThat(text(p.preFilter(state, pod).status())).isEqualTo("Skip");
    assertThat(text(p.postFilter(state, pod, Map.of()).status()))
        .isEqualTo("Unschedulable: no new claims to deallocate");
  }

  @org.junit.jupiter.api.Test
  void aDeviceReservedForOnePodIsNotGivenToAnother() {
    ObjectStore store = new ObjectStore();
    FakeClaimApi api = new FakeClaimApi(store);
    store.put(deviceClass());
    store.put(workerSlice());
    api.create(pending());
    ResourceClaim second = pending();
    second.getMetadata().setName("other-claim");
    second.getMetadata().setUid("uid-other-claim");
    second.getMetadata().getOwnerReferences().get(0).setName("other");
    second.getMetadata().getOwnerReferences().get(0).setUid("other-uid");
    api.create(second);
    ResourceClaimTracker tracker = new ResourceClaimTracker(store);
    DynamicResources p =
        DynamicResources.create(
            PluginArgs.none(),
            handle(store, api, tracker),
            Allocator.Features.V1_34,
            System::nanoTime);
    List<NodeInfo> nodes = List.of(node(NODE));
    PodInfo a = PodInfo.of(podWithClaimName());
    PodInfo b =
        MakePod.pod()
            .name("other")
            .namespace(NS)
            .uid("other-uid")
            .resourceClaim(RESOURCE, "other-claim")
            .info();

    // Both cycles look before either reserves: both find the node's one device free.
    CycleState sa = TestFrameworks.cycleState(nodes);
    CycleState sb = TestFrameworks.cycleState(nodes);
    p.preFilter(sa, a);
    p.preFilter(sb, b);
    assertThat(p.filter(sa, a, nodes.get(0)).isSuccess()).isTrue();
    assertThat(p.filter(sb, b, nodes.get(0)).isSuccess()).isTrue();
    assertThat(p.reserve(sa, a, NODE).isSuccess()).isTrue();
    assertThat(text(p.reserve(sb, b, NODE)))
        .isEqualTo(
            "Error: device some-driver/worker/instance-1 for claim default/other-claim was"
                + " allocated to another claim in the meantime");
    p.unreserve(sb, b, NODE);

    // A cycle starting now sees the device in flight.
    CycleState sb2 = TestFrameworks.cycleState(nodes);
    p.preFilter(sb2, b);
    assertThat(text(p.filter(sb2, b, nodes.get(0))))
        .isEqualTo("UnschedulableAndUnresolvable: cannot allocate all claims");

    // Written by PreBind, it stays taken; once A is unreserved after a failed bind it does not.
    assertThat(p.preBind(sa, a, NODE).isSuccess()).isTrue();
    CycleState sb3 = TestFrameworks.cycleState(nodes);
    p.preFilter(sb3, b);
    assertThat(p.filter(sb3, b, nodes.get(0)).isRejected()).isTrue();
  }

  static List<String> claims(ObjectStore store) {
    return store.list(ResourceClaim.class).stream()
        .sorted(java.util.Comparator.comparing(x -> x.getMetadata().getName()))
        .map(DynamicResourcesTest::text)
        .toList();
  }

  /** A handle with what DynamicResources takes from one. */
  static Handle handle(ObjectStore store, ResourceClaimWriter writer, ResourceClaimTracker t) {
    return new Handle() {
      @Override
      public ClusterObjects clusterObjects() {
        return store;
      }

      @Override
      public PodBinder binder() {
        throw new UnsupportedOperationException();
      }

      @Override
      public VolumeWriter volumeWriter() {
        return VolumeWriter.NONE;
      }

      @Override
      public ResourceClaimWriter claimWriter() {
        return writer;
      }

      @Override
      public ResourceClaimTracker resourceClaims() {
        return t;
      }

      @Override
      public Parallelizer parallelizer() {
        throw new UnsupportedOperationException();
      }

      @Override
      public WaitingPods waitingPods() {
        throw new UnsupportedOperationException();
      }

      @Override
      public PodNominator nominator() {
        return PodNominator.NONE;
      }

      @Override
      public PluginsRunner framework() {
        throw new UnsupportedOperationException();
      }

      @Override
      public Clock clock() {
        return Clock.systemUTC();
      }
    };
  }
}
