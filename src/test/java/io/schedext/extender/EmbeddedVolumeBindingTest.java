package io.schedext.extender;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.PersistentVolume;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaim;
import io.schedext.cluster.ObjectStore;
import io.schedext.testing.Http;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.test.context.SpringBootTest;

/**
 * The bind verb on the embedded cluster binds a pod's WaitForFirstConsumer claims: VolumeBinding
 * writes the volume (or the claim to provision) in PreBind, the embedded PV controller binds it,
 * and the pod lands on the node.
 */
@SpringBootTest(
    webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
    properties = {
      "extender.cluster.source=embedded",
      "extender.cluster.file=classpath:cluster/volume-binding-cluster.yaml"
    })
class EmbeddedVolumeBindingTest {

  @Value("${local.server.port}")
  int port;

  @Autowired ObjectStore store;

  private String bind(String pod, String node) {
    String body =
        "{\"PodName\":\""
            + pod
            + "\",\"PodNamespace\":\"default\",\"PodUID\":\"uid-"
            + pod
            + "\",\"Node\":\""
            + node
            + "\"}";
    Http.Reply r = new Http(port).post("/scheduler/bind", body);
    assertThat(r.status()).isEqualTo(200);
    return r.json().get("Error").asText();
  }

  @Test
  void aClaimMatchedToALocalVolumeIsBoundWithThePod() {
    assertThat(bind("app-a", "node-2"))
        .isEqualTo(
            "pod default/app-a does not fit node node-2 any more: "
                + "node(s) didn't find available persistent volumes to bind");

    assertThat(bind("app-a", "node-1")).isEmpty();

    PersistentVolume pv = store.persistentVolume("local-pv-1");
    PersistentVolumeClaim claim = store.persistentVolumeClaim("default", "data-a");
    assertThat(pv.getSpec().getClaimRef().getName()).isEqualTo("data-a");
    assertThat(pv.getSpec().getClaimRef().getUid()).isEqualTo(claim.getMetadata().getUid());
    assertThat(pv.getStatus().getPhase()).isEqualTo("Bound");
    assertThat(claim.getSpec().getVolumeName()).isEqualTo("local-pv-1");
    assertThat(claim.getMetadata().getAnnotations())
        .containsEntry("pv.kubernetes.io/bind-completed", "yes");
    assertThat(new Http(port).get("/debug/cache/nodes/node-1").body()).contains("default/app-a");
  }

  @Test
  void aClaimToProvisionGetsAVolumeOnTheChosenNode() {
    assertThat(bind("app-b", "node-2")).isEmpty();

    PersistentVolumeClaim claim = store.persistentVolumeClaim("default", "scratch-b");
    assertThat(claim.getMetadata().getAnnotations())
        .containsEntry("volume.kubernetes.io/selected-node", "node-2")
        .containsEntry("pv.kubernetes.io/bind-completed", "yes");
    PersistentVolume pv = store.persistentVolume(claim.getSpec().getVolumeName());
    assertThat(
            pv.getSpec()
                .getNodeAffinity()
                .getRequired()
                .getNodeSelectorTerms()
                .get(0)
                .getMatchExpressions()
                .get(0)
                .getValues())
        .containsExactly("node-2");
    assertThat(new Http(port).get("/debug/cache/nodes/node-2").body()).contains("default/app-b");
  }
}
