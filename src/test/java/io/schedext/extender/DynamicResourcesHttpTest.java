package io.schedext.extender;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import io.schedext.cluster.ObjectStore;
import io.schedext.testing.Http;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.test.annotation.DirtiesContext;

/**
 * DynamicResources behind the verbs, on a small embedded cluster of two GPU nodes and a CPU node:
 * filter keeps the pod off nodes without the devices, bind writes the allocation and the
 * reservation into the claim (two pods sharing a claim both end up in its reservations, on the node
 * of its devices), explain names the failing request and the device counts, and a broken selector
 * or a missing class gets upstream's answer over HTTP 200, never a 500.
 */
@SpringBootTest(
    webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
    properties = "extender.cluster.file=classpath:cluster/dra-cluster.yaml")
@DirtiesContext
class DynamicResourcesHttpTest {

  @Value("${local.server.port}")
  int port;

  @Autowired ObjectStore store;

  static String pod(String name, String claim) {
    return "{\"Pod\": {\"metadata\": {\"name\": \""
        + name
        + "\", \"namespace\": \"dra\", \"uid\": \"dra-"
        + name
        + "\"}, \"spec\": {\"containers\": [{\"name\": \"main\", \"resources\": {\"requests\":"
        + " {\"cpu\": \"100m\"}}}], \"resourceClaims\": [{\"name\": \"gpu\","
        + " \"resourceClaimName\": \""
        + claim
        + "\"}]}}, \"NodeNames\": [\"gpu-1\", \"gpu-2\", \"cpu-1\"]}";
  }

  static String bind(String name, String node) {
    return "{\"PodName\": \""
        + name
        + "\", \"PodNamespace\": \"dra\", \"PodUID\": \"dra-"
        + name
        + "\", \"Node\": \""
        + node
        + "\"}";
  }

  private List<String> reservedFor(String claim) {
    ResourceClaim c = store.resourceClaim("dra", claim);
    List<String> out = new ArrayList<>();
    if (c.getStatus() != null && c.getStatus().getReservedFor() != null) {
      c.getStatus().getReservedFor().forEach(r -> out.add(r.getName()));
    }
    return out;
  }

  @Test
  void filterKeepsThePodOffNodesWithoutItsDevicesAndBindAllocatesThem() {
    // The other tests of the class leave one of gpu-1's two devices free, and gpu-2's.
    JsonNode f = new Http(port).post("/scheduler/filter", pod("one", "one")).json();
    assertThat(f.get("NodeNames")).extracting(JsonNode::asText).containsExactly("gpu-1", "gpu-2");
    assertThat(f.get("FailedAndUnresolvableNodes").get("cpu-1").asText())
        .isEqualTo("cannot allocate all claims");

    assertThat(
            new Http(port)
                .post("/scheduler/bind", bind("one", "gpu-1"))
                .json()
                .get("Error")
                .asText())
        .isEmpty();
    ResourceClaim c = store.resourceClaim("dra", "one");
    assertThat(c.getMetadata().getFinalizers())
        .containsExactly("resource.kubernetes.io/delete-protection");
    assertThat(c.getStatus().getAllocation().getDevices().getResults())
        .extracting(r -> r.getDriver() + "/" + r.getPool())
        .containsExactly("gpu.example.com/gpu-1");
    assertThat(reservedFor("one")).containsExactly("one");
  }

  @Test
  void twoPodsSharingAClaimLandWhereItsDeviceIsAndBothReserveIt() {
    assertThat(
            new Http(port)
                .post("/scheduler/bind", bind("shared-a", "gpu-1"))
                .json()
                .get("Error")
                .asText())
        .isEmpty();
    JsonNode f = new Http(port).post("/scheduler/filter", pod("shared-b", "shared")).json();
    assertThat(f.get("NodeNames")).extracting(JsonNode::asText).containsExactly("gpu-1");
    assertThat(f.get("FailedAndUnresolvableNodes").get("gpu-2").asText())
        .isEqualTo("resourceclaim not available on the node");
    assertThat(
            new Http(port)
                .post("/scheduler/bind", bind("shared-b", "gpu-1"))
                .json()
                .get("Error")
                .asText())
        .isEmpty();
    assertThat(reservedFor("shared")).containsExactly("shared-a", "shared-b");
  }

  @Test
  void aSelectorThatDoesNotCompileIsUpstreamsErrorNotA500() {
    String error =
        "running \"DynamicResources\" filter plugin: claim dra/compile: selector #0: CEL compile"
            + " error: compilation failed: ERROR: <input>:1:7: undefined field 'nosuch'\n"
            + " | device.nosuch == 1\n"
            + " | ......^";
    Http.Reply f = new Http(port).post("/scheduler/filter", pod("compile", "compile"));
    assertThat(f.status()).isEqualTo(200);
    assertThat(f.json().get("Error").asText()).isEqualTo(error);
    Http.Reply e = new Http(port).get("/scheduler/explain/dra/compile");
    assertThat(e.status()).isEqualTo(200);
    assertThat(e.json().get("summary").asText()).isEqualTo("error: " + error);
    assertThat(e.json().get("error").asText()).isEqualTo(error);
  }

  @Test
  void aSelectorThatFailsOnADeviceIsUpstreamsErrorAndExplainNamesTheDevice() {
    String error =
        "running \"DynamicResources\" filter plugin: claim dra/runtime: selector #0: CEL runtime"
            + " error: no such key: model";
    Http.Reply f = new Http(port).post("/scheduler/filter", pod("runtime", "runtime"));
    assertThat(f.status()).isEqualTo(200);
    assertThat(f.json().get("Error").asText()).isEqualTo(error);
    String text = new Http(port).get("/scheduler/explain/dra/runtime?format=text").body();
    assertThat(text)
        .startsWith("pod dra/runtime (profile default-scheduler)\nerror: " + error + "\n");
    assertThat(text)
        .contains(
            "first failing on gpu-2: device.attributes[\"gpu.example.com\"].model == \"demo\" failed"
                + " on gpu.example.com/gpu-2/gpu-0: no such key: model");
  }

  @Test
  void aClaimOfAClassThatDoesNotExistKeepsThePodOutAsUpstreamSays() {
    Http.Reply e = new Http(port).get("/scheduler/explain/dra/unknown");
    assertThat(e.status()).isEqualTo(200);
    assertThat(e.json().get("summary").asText())
        .isEqualTo(
            "0/3 nodes are available: request gpu: device class nope does not exist. no new"
                + " claims to deallocate, preemption: 0/3 nodes are available: 3 Preemption is not"
                + " helpful for scheduling.");
  }
}
