package io.schedext.extender;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.fabric8.kubernetes.api.model.Pod;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.schedext.cache.EventGate;
import io.schedext.cache.SchedulerCache;
import io.schedext.cluster.ObjectStore;
import io.schedext.framework.runtime.Framework;
import io.schedext.framework.runtime.Frameworks;
import io.schedext.profiles.InTreeRegistry;
import io.schedext.profiles.ProfileDefaults;
import io.schedext.testing.FixedSource;
import io.schedext.testing.MakeNode;
import io.schedext.testing.MakePod;
import io.schedext.testing.TestFrameworks;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.springframework.mock.web.MockHttpServletResponse;

/**
 * The node names a filter or prioritize reply writes are those of the nodes it decided on: names
 * are copied from the encodings of the call's name index by position, so a position mixed up
 * anywhere between decoding and the reply would write another node's name. Checked on the bytes
 * sent, for requests in any order, with repeats, unknown names and names that need escaping, and
 * with a PreFilter that narrows the nodes.
 */
class ReplyNamesTest {

  private static final ObjectMapper JSON = new ObjectMapper();

  /**
   * @param name what the request looks like
   * @param pod the pod to place
   * @param feasible the nodes the filter must answer, in request order
   */
  record Case(String name, Pod pod, List<String> feasible) {
    @Override
    public String toString() {
      return name;
    }
  }

  /** 40 nodes: the even ones have room for 2 CPUs, the odd ones do not; two names need escaping. */
  private static List<String> nodeNames() {
    List<String> names = new ArrayList<>();
    for (int i = 0; i < 38; i++) {
      names.add("node-" + i);
    }
    names.add("quote\"d-38");
    names.add("zoné-39");
    return names;
  }

  /**
   * The request's NodeNames: every node shuffled, a few twice, and two names the cache does not
   * know.
   */
  private static List<String> requested() {
    List<String> names = new ArrayList<>(nodeNames());
    Collections.shuffle(names, new Random(7));
    names.add(3, names.get(10));
    names.add("missing-a");
    names.add(0, "missing-b");
    names.add(names.get(20));
    return names;
  }

  private static List<String> firstOccurrences(List<String> names) {
    return names.stream().distinct().toList();
  }

  static Stream<Case> cases() {
    List<String> even =
        firstOccurrences(requested()).stream()
            .filter(n -> !n.startsWith("missing"))
            .filter(n -> number(n) % 2 == 0)
            .toList();
    List<String> narrowed = List.of("node-4", "quote\"d-38", "node-12");
    return Stream.of(
        new Case("a pod that fits the even nodes gets their names", pod(null), even),
        new Case(
            "a PreFilter that narrows to three nodes leaves exactly those that fit",
            pod(narrowed),
            even.stream().filter(narrowed::contains).toList()));
  }

  private static int number(String name) {
    return Integer.parseInt(name.substring(name.lastIndexOf('-') + 1));
  }

  private static Pod pod(List<String> onlyNodes) {
    var p = MakePod.pod().name("p").namespace("default").uid("p-uid").req(Map.of("cpu", "2"));
    if (onlyNodes != null) {
      // One term per node: a metadata.name field requirement takes exactly one value (as upstream).
      onlyNodes.forEach(n -> p.nodeFieldTerm("metadata.name", "In", n));
    }
    return p.obj();
  }

  private static ExtenderEndpoint endpoint() {
    SchedulerCache cache = new SchedulerCache(Clock.systemUTC(), Duration.ZERO);
    for (String n : nodeNames()) {
      cache.addNode(
          MakeNode.node()
              .name(n)
              .capacity(Map.of("cpu", number(n) % 2 == 0 ? "4" : "1", "pods", "10"))
              .obj());
    }
    ObjectStore store = new ObjectStore();
    var registry = InTreeRegistry.create();
    Framework fw =
        Framework.create(
            ProfileDefaults.profile(ProfileDefaults.NAME, registry.names()),
            registry,
            TestFrameworks.services(store));
    VerbHarness verbs =
        new VerbHarness(
            cache,
            FixedSource.ready(),
            new Frameworks(Map.of(fw.profileName(), fw), fw.profileName()),
            TestFrameworks.services(store).parallelizer(),
            new SeenPods(10, Duration.ofMinutes(1), System::nanoTime),
            new ExtenderMetrics(new SimpleMeterRegistry()));
    return verbs.endpoint(EventGate.off(), new BindWorkers(1));
  }

  private static JsonNode post(ExtenderEndpoint endpoint, String verb, Pod pod, List<String> names)
      throws Exception {
    MockHttpServletResponse r =
        VerbHarness.post(
            endpoint,
            "/scheduler/" + verb,
            JSON.writeValueAsBytes(Map.of("Pod", pod, "NodeNames", names)));
    assertThat(r.getStatus()).as(r.getContentAsString()).isEqualTo(200);
    return JSON.readTree(r.getContentAsByteArray());
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void repliesNameTheNodesDecidedOn(Case c) throws Exception {
    ExtenderEndpoint endpoint = endpoint();
    List<String> request = requested();

    JsonNode filter = post(endpoint, "filter", c.pod(), request);
    JsonNode prioritize = post(endpoint, "prioritize", c.pod(), request);

    assertThat(filter.get("Error").asText()).isEmpty();
    List<String> feasible = new ArrayList<>();
    filter.get("NodeNames").forEach(n -> feasible.add(n.asText()));
    assertThat(feasible).isEqualTo(c.feasible());
    List<String> hosts = new ArrayList<>();
    prioritize.forEach(h -> hosts.add(h.get("Host").asText()));
    List<String> known =
        firstOccurrences(request).stream().filter(n -> !n.startsWith("missing")).toList();
    assertThat(hosts)
        .as("every known node once, in request order, then the unknown ones")
        .isEqualTo(Stream.concat(known.stream(), Stream.of("missing-b", "missing-a")).toList());
  }

  @Test
  void aPrioritizeOfTheFilterRepliesNamesIsAnsweredAsWithoutTheFilter() throws Exception {
    List<String> request =
        requested().stream().filter(n -> n.startsWith("node-")).distinct().toList();
    Pod pod = pod(null);
    ExtenderEndpoint afterFilter = endpoint();
    JsonNode filter = post(afterFilter, "filter", pod, request);
    List<String> feasible = new ArrayList<>();
    filter.get("NodeNames").forEach(n -> feasible.add(n.asText()));

    JsonNode prioritize = post(afterFilter, "prioritize", pod, feasible);
    JsonNode alone = post(endpoint(), "prioritize", pod, feasible);

    assertThat(feasible).hasSize(19);
    assertThat(prioritize).isEqualTo(alone);
    List<String> hosts = new ArrayList<>();
    prioritize.forEach(h -> hosts.add(h.get("Host").asText()));
    assertThat(hosts).isEqualTo(feasible);
  }
}
