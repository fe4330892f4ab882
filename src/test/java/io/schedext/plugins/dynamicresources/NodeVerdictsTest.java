package io.schedext.plugins.dynamicresources;

import static io.schedext.plugins.dynamicresources.DynamicResourcesTest.handle;
import static io.schedext.plugins.dynamicresources.DynamicResourcesTest.node;
import static io.schedext.plugins.dynamicresources.DynamicResourcesTest.text;
import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.resource.v1.DeviceRequest;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceRequestAllocationResultBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaimBuilder;
import io.schedext.cluster.ObjectStore;
import io.schedext.framework.CycleState;
import io.schedext.framework.NodeInfo;
import io.schedext.framework.PluginArgs;
import io.schedext.framework.PodInfo;
import io.schedext.framework.ResourceClaimTracker;
import io.schedext.testing.MakeNode;
import io.schedext.testing.MakePod;
import io.schedext.testing.TestFrameworks;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * A node's search is reused by the next cycle only while nothing it depends on changed: the claims'
 * requests, their class, the node's slices and which of its devices are taken. Each case checks
 * that reuse happened where it may, and that every answer is the one a new search gives.
 */
class NodeVerdictsTest {

  private static final String NS = "default";
  private static final String DRIVER = "gpu.example.com";
  private static final String CLASS = "gpu";
  private static final String A = "node-a";
  private static final String B = "node-b";
  private static final String FITS = "Success";
  private static final String NO_ROOM = "UnschedulableAndUnresolvable: cannot allocate all claims";

  private final ObjectStore store = new ObjectStore();
  private final FakeClaimApi api = new FakeClaimApi(store);
  private final ResourceClaimTracker tracker = new ResourceClaimTracker(store);
  private final DynamicResources plugin =
      DynamicResources.create(
          PluginArgs.none(),
          handle(store, api, tracker),
          Allocator.Features.V1_34,
          System::nanoTime);
  private final List<NodeInfo> nodes = List.of(node(A), node(B));
  private int pods;

  NodeVerdictsTest() {
    store.put(Dra.deviceClass(CLASS, DRIVER));
    store.put(Dra.slice(A + "-gpu", A, A, DRIVER, Dra.device("gpu-0")));
    store.put(Dra.slice(B + "-gpu", B, B, DRIVER, Dra.device("gpu-0")));
  }

  /** A new pod with a claim of {@code request}: its Filter status on each node. */
  private Cycle cycle(DeviceRequest request) {
    return cycle(request, nodes);
  }

  private Cycle cycle(DeviceRequest request, List<NodeInfo> nodes) {
    String name = "pod-" + ++pods;
    ResourceClaim claim = Dra.claimWithRequests(name + "-gpu", List.of(), request);
    claim.getMetadata().setNamespace(NS);
    api.create(claim);
    PodInfo pod =
        MakePod.pod()
            .name(name)
            .namespace(NS)
            .uid("uid-" + name)
            .resourceClaim("gpu", name + "-gpu")
            .info();
    CycleState state = TestFrameworks.cycleState(nodes);
    assertThat(plugin.preFilter(state, pod).status().isSuccess()).isTrue();
    Map<String, String> out = new LinkedHashMap<>();
    for (NodeInfo n : nodes) {
      out.put(n.name(), text(plugin.filter(state, pod, n)));
    }
    return new Cycle(pod, state, out);
  }

  private record Cycle(PodInfo pod, CycleState state, Map<String, String> filter) {}

  private Cycle cycle() {
    return cycle(Dra.request("req-1", CLASS, 1));
  }

  private long reused() {
    return plugin.verdicts().reused();
  }

  /** What Reserve puts in flight for the cycle's claim on {@code node}. */
  private String reservedOn(Cycle c, String node) {
    assertThat(plugin.reserve(c.state(), c.pod(), node).isSuccess()).isTrue();
    ResourceClaim inFlight = tracker.inFlight().values().iterator().next();
    plugin.unreserve(c.state(), c.pod(), node);
    return Dra.text(inFlight.getStatus().getAllocation());
  }

  private static ResourceClaim holding(String node, String device) {
    ResourceClaim c = Dra.claim("holder-" + node, "req-1", CLASS);
    c.getMetadata().setNamespace("other");
    return new ResourceClaimBuilder(c)
        .withNewStatus()
        .withNewAllocation()
        .withNewDevices()
        .withResults(
            new DeviceRequestAllocationResultBuilder()
                .withRequest("req-1")
                .withDriver(DRIVER)
                .withPool(node)
                .withDevice(device)
                .build())
        .endDevices()
        .endAllocation()
        .endStatus()
        .build();
  }

  @Test
  void aNodeIsAnsweredFromTheLastCycleOnlyWhileItsDevicesAreUnchanged() {
    assertThat(cycle().filter()).containsExactly(Map.entry(A, FITS), Map.entry(B, FITS));
    assertThat(reused()).isZero();

    assertThat(cycle().filter()).containsExactly(Map.entry(A, FITS), Map.entry(B, FITS));
    assertThat(reused()).as("another pod asking for the same").isEqualTo(2);

    store.put(holding(A, "gpu-0"));
    assertThat(cycle().filter()).containsExactly(Map.entry(A, NO_ROOM), Map.entry(B, FITS));
    assertThat(reused()).as("only the node whose device was not taken").isEqualTo(3);

    store.remove(holding(A, "gpu-0"));
    assertThat(cycle().filter()).containsExactly(Map.entry(A, FITS), Map.entry(B, FITS));
    assertThat(reused()).isEqualTo(4);
  }

  @Test
  void aDeviceInFlightIsSeenAtOnce() {
    cycle();
    Cycle first = cycle();
    assertThat(plugin.reserve(first.state(), first.pod(), A).isSuccess()).isTrue();
    assertThat(cycle().filter()).containsExactly(Map.entry(A, NO_ROOM), Map.entry(B, FITS));
    plugin.unreserve(first.state(), first.pod(), A);
    assertThat(cycle().filter()).containsExactly(Map.entry(A, FITS), Map.entry(B, FITS));
  }

  @Test
  void theDevicesFoundBeforeAreAllocatedToTheNewClaim() {
    cycle();
    Cycle again = cycle();
    assertThat(reused()).isEqualTo(2);
    assertThat(reservedOn(again, B))
        .isEqualTo(Dra.result(Dra.localNodeSelector(B), Dra.device("req-1", DRIVER, B, "gpu-0")));
  }

  @Test
  void aChangedSliceIsSearchedAgain() {
    cycle();
    store.put(Dra.slice(A + "-gpu", A, A, DRIVER, Dra.device("gpu-9")));
    Cycle c = cycle();
    assertThat(reused()).as("a slice changed: every node is searched again").isZero();
    assertThat(reservedOn(c, A))
        .isEqualTo(Dra.result(Dra.localNodeSelector(A), Dra.device("req-1", DRIVER, A, "gpu-9")));
  }

  @Test
  void aNodeWhoseInfoChangedIsSearchedAgain() {
    cycle();
    NodeInfo relabelled =
        NodeInfo.of(
            MakeNode.node().name(A).label("kubernetes.io/hostname", A).label("x", "y").obj());
    List<NodeInfo> now = List.of(relabelled, nodes.get(1));
    Cycle c = cycle(Dra.request("req-1", CLASS, 1), now);
    assertThat(c.filter()).containsExactly(Map.entry(A, FITS), Map.entry(B, FITS));
    assertThat(reused()).as("only the node info seen before").isEqualTo(1);
  }

  @Test
  void aChangedClassOrRequestIsSearchedAgain() {
    cycle();
    var narrowed = Dra.deviceClass(CLASS, DRIVER);
    narrowed.getSpec().setSelectors(List.of(Dra.cel("device.driver == \"nic.example.com\"")));
    store.put(narrowed);
    assertThat(cycle().filter()).containsExactly(Map.entry(A, NO_ROOM), Map.entry(B, NO_ROOM));
    store.put(Dra.deviceClass(CLASS, DRIVER));
    assertThat(cycle().filter()).containsExactly(Map.entry(A, FITS), Map.entry(B, FITS));
    assertThat(cycle(Dra.request("req-1", CLASS, 2)).filter())
        .containsExactly(Map.entry(A, NO_ROOM), Map.entry(B, NO_ROOM));
    assertThat(cycle().filter()).containsExactly(Map.entry(A, FITS), Map.entry(B, FITS));
    assertThat(reused()).as("nothing: every cycle asked for something else").isZero();
  }
}
