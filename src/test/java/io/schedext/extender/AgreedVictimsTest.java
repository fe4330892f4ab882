package io.schedext.extender;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.schedext.testing.Http;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.test.annotation.DirtiesContext;

/**
 * Over HTTP: the victims the preempt verb agreed to are left out when kube-scheduler retries the
 * preemptor on the node it nominated, before any watch event shows them gone (the embedded cluster
 * never deletes them), by filter and by bind, and nowhere else.
 */
@SpringBootTest(
    webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
    properties = "extender.cluster.file=classpath:cluster/full-nodes.yaml")
@DirtiesContext
class AgreedVictimsTest {

  @Value("${local.server.port}")
  int port;

  private static String pod(String nominated) {
    return pod("vip", nominated);
  }

  private static String pod(String uid, String nominated) {
    String status = nominated == null ? "{}" : "{\"nominatedNodeName\":\"" + nominated + "\"}";
    return """
        {"metadata":{"name":"%s","namespace":"default","uid":"%s"},
         "spec":{"priority":1000,"containers":[{"name":"c","image":"pause",
           "resources":{"requests":{"cpu":"2"}}}]},
         "status":%s}"""
        .formatted(uid, uid, status);
  }

  private JsonNode filter(String nominated) {
    Http.Reply r =
        new Http(port)
            .post(
                "/scheduler/filter",
                "{\"Pod\":" + pod(nominated) + ",\"Nodes\":null,\"NodeNames\":[\"n0\",\"n1\"]}");
    assertThat(r.status()).isEqualTo(200);
    return r.json();
  }

  @Test
  void theNominatedNodeFitsOnceThePreemptVerbAgreedToItsVictims() {
    Http http = new Http(port);
    assertThat(filter("n0").get("FailedNodes").get("n0").asText())
        .as("before any preemption")
        .isEqualTo("Insufficient cpu");

    Http.Reply preempt =
        http.post(
            "/scheduler/preempt",
            """
            {"Pod":%s,"NodeNameToVictims":null,"NodeNameToMetaVictims":{
              "n0":{"Pods":[{"UID":"n0-0"},{"UID":"n0-1"}],"NumPDBViolations":0},
              "n1":{"Pods":[{"UID":"n1-0"},{"UID":"n1-1"}],"NumPDBViolations":0}}}"""
                .formatted(pod(null)));
    assertThat(preempt.status()).isEqualTo(200);
    assertThat(preempt.json().get("NodeNameToMetaVictims").size()).isEqualTo(2);

    JsonNode nominated = filter("n0");
    assertThat(nominated.get("NodeNames")).extracting(JsonNode::asText).containsExactly("n0");
    assertThat(nominated.get("FailedNodes").get("n1").asText())
        .as("the other node answered: kube-scheduler deletes nothing there")
        .isEqualTo("Insufficient cpu");
    assertThat(filter(null).get("NodeNames")).as("not nominated yet").isEmpty();

    Http.Reply bind =
        http.post(
            "/scheduler/bind",
            "{\"PodName\":\"vip\",\"PodNamespace\":\"default\",\"PodUID\":\"vip\",\"Node\":\"n0\"}");
    assertThat(bind.json().get("Error").asText()).isEmpty();
    assertThat(http.get("/debug/cache/nodes/n0").body()).contains("vip");
  }

  private JsonNode preempt(String pod, String victims) {
    Http.Reply r =
        new Http(port)
            .post(
                "/scheduler/preempt",
                "{\"Pod\":"
                    + pod
                    + ",\"NodeNameToVictims\":null,\"NodeNameToMetaVictims\":{"
                    + victims
                    + "}}");
    assertThat(r.status()).isEqualTo(200);
    return r.json().get("NodeNameToMetaVictims");
  }

  private static String victims(String node, String... uids) {
    StringBuilder b = new StringBuilder("\"" + node + "\":{\"Pods\":[");
    for (int i = 0; i < uids.length; i++) {
      b.append(i == 0 ? "" : ",").append("{\"UID\":\"").append(uids[i]).append("\"}");
    }
    return b.append("],\"NumPDBViolations\":0}").toString();
  }

  private static java.util.List<String> uids(JsonNode answer, String node) {
    java.util.List<String> out = new java.util.ArrayList<>();
    answer.get(node).get("Pods").forEach(p -> out.add(p.get("UID").asText()));
    return out;
  }

  @Test
  void aSecondPreemptionForThePodKeepsTheNodeWhoseFirstVictimsKubeSchedulerNoLongerSees() {
    // kube-scheduler preempted on n0, deleted n0-0 and retried the pod before deleting n0-1 (and
    // before showing it nominated): its cache still has n0-1 only, this one both.
    String second = pod("second", null);
    preempt(second, victims("n0", "n0-0", "n0-1") + "," + victims("n1", "n1-0", "n1-1"));

    JsonNode again = preempt(second, victims("n0", "n0-1") + "," + victims("n1", "n1-0", "n1-1"));

    assertThat(uids(again, "n0")).containsExactly("n0-1");
    assertThat(uids(again, "n1")).containsExactlyInAnyOrder("n1-0", "n1-1");
  }

  @Test
  void victimsAgreedEarlierThatAreProposedAgainAreReviewedAsAnyOther() {
    // On n1, where no test binds anything.
    String third = pod("third", "n1");
    preempt(third, victims("n1", "n1-0", "n1-1"));

    JsonNode again = preempt(third, victims("n1", "n1-0", "n1-1", "n1-2", "n1-3"));

    assertThat(uids(again, "n1")).as("two of four are enough").hasSize(2);
  }

  @Test
  void
      aPreemptionAgainWhileTheFirstVictimsAreStillInKubeSchedulersCacheAnswersTheNodeBeingEmptied() {
    // kube-scheduler retried the pod before its own cache saw the first deletions: it proposes
    // every node with two victims again, and would pick among them at random.
    String fourth = pod("fourth", null);
    preempt(fourth, victims("n0", "n0-2", "n0-3") + "," + victims("n1", "n1-2", "n1-3"));
    String nominated = pod("fourth", "n0");

    JsonNode again =
        preempt(nominated, victims("n0", "n0-2", "n0-3") + "," + victims("n1", "n1-2", "n1-3"));

    assertThat(again.fieldNames()).toIterable().containsExactly("n0");
    assertThat(uids(again, "n0")).containsExactlyInAnyOrder("n0-2", "n0-3");
  }
}
