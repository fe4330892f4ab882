package io.schedext.plugins.serviceaffinity;

import static io.schedext.plugins.serviceaffinity.Fixtures.nodes;
import static io.schedext.plugins.serviceaffinity.Fixtures.ordered;
import static io.schedext.plugins.serviceaffinity.Fixtures.service;
import static java.util.Map.entry;
import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Service;
import io.schedext.framework.CycleState;
import io.schedext.framework.NodeInfo;
import io.schedext.framework.NodeScores;
import io.schedext.framework.PluginArgs;
import io.schedext.framework.PodInfo;
import io.schedext.framework.Status;
import io.schedext.plugins.Names;
import io.schedext.testing.MakePod;
import io.schedext.testing.TestFrameworks;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

class ServiceAffinityScoreTest {

  static final Map<String, String> LABELS1 = Map.of("foo", "bar", "baz", "blah");
  static final Map<String, String> LABELS2 = Map.of("bar", "foo", "baz", "blah");

  static final Map<String, String> NOZONE = Map.of("name", "value");
  static final Map<String, Map<String, String>> LABELED_NODES =
      ordered(
          entry("machine01", NOZONE), entry("machine02", NOZONE),
          entry("machine11", Map.of("zone", "zone1")), entry("machine12", Map.of("zone", "zone1")),
          entry("machine21", Map.of("zone", "zone2")), entry("machine22", Map.of("zone", "zone2")));
  static final Map<String, Map<String, String>> ZONE_AND_RACK_NODES =
      ordered(
          entry("machine01", NOZONE),
          entry("machine02", NOZONE),
          entry("machine11", Map.of("zone", "zone1", "rack", "rack1")),
          entry("machine12", Map.of("zone", "zone1", "rack", "rack2")),
          entry("machine21", Map.of("zone", "zone2", "rack", "rack1")),
          entry("machine22", Map.of("zone", "zone2", "rack", "rack1")));

  record Case(
      String name,
      PodInfo pod,
      List<PodInfo> pods,
      Map<String, Map<String, String>> nodes,
      List<Service> services,
      List<String> labels,
      Map<String, Long> want) {
    @Override
    public String toString() {
      return name;
    }
  }

  private static final AtomicInteger SEQ = new AtomicInteger();

  /** A pod with a unique name on {@code node} in namespace {@code ns} with {@code labels}. */
  static PodInfo on(String node, String ns, Map<String, String> labels) {
    return MakePod.pod()
        .name("p" + SEQ.incrementAndGet())
        .namespace(ns)
        .labels(labels)
        .node(node)
        .info();
  }

  static PodInfo on(String node, Map<String, String> labels) {
    return on(node, "default", labels);
  }

  /** Expected scores for machine11, machine12, machine21, machine22, machine01, machine02. */
  static Map<String, Long> want(long m11, long m12, long m21, long m22, long m01, long m02) {
    return Map.of(
        "machine11",
        m11,
        "machine12",
        m12,
        "machine21",
        m21,
        "machine22",
        m22,
        "machine01",
        m01,
        "machine02",
        m02);
  }

  static Stream<Case> cases() {
    PodInfo pending = MakePod.pod().name("pending").labels(LABELS1).info();
    List<String> zone = List.of("zone");
    List<Service> svc1 = List.of(service("default", "s1", LABELS1));
    return Stream.of(
        new Case(
            "with nothing scheduled every zoned node scores 100 and unzoned ones 0",
            MakePod.pod().name("pending").info(),
            List.of(),
            LABELED_NODES,
            List.of(),
            zone,
            want(100, 100, 100, 100, 0, 0)),
        new Case(
            "without a service every zoned node scores 100",
            pending,
            List.of(on("machine11", Map.of())),
            LABELED_NODES,
            List.of(),
            zone,
            want(100, 100, 100, 100, 0, 0)),
        new Case(
            "a service selecting other pods counts nothing",
            pending,
            List.of(on("machine11", LABELS2)),
            LABELED_NODES,
            List.of(service("default", "s1", Map.of("key", "value"))),
            zone,
            want(100, 100, 100, 100, 0, 0)),
        new Case(
            "one service pod in zone2 pushes the pod to zone1",
            pending,
            List.of(on("machine01", LABELS2), on("machine11", LABELS2), on("machine21", LABELS1)),
            LABELED_NODES,
            svc1,
            zone,
            want(100, 100, 0, 0, 0, 0)),
        new Case(
            "one service pod per zone scores both zones 50",
            pending,
            List.of(on("machine11", LABELS2), on("machine11", LABELS1), on("machine21", LABELS1)),
            LABELED_NODES,
            svc1,
            zone,
            want(50, 50, 50, 50, 0, 0)),
        new Case(
            "service pods in other namespaces do not count",
            pending,
            List.of(
                on("machine11", "ns0", LABELS1),
                on("machine11", LABELS1),
                on("machine21", "ns0", LABELS1),
                on("machine21", "ns1", LABELS1)),
            LABELED_NODES,
            svc1,
            zone,
            want(0, 0, 100, 100, 0, 0)),
        new Case(
            "one of three service pods in zone1 scores it 66, zone2 33 (truncated)",
            pending,
            List.of(
                on("machine11", LABELS2),
                on("machine11", LABELS1),
                on("machine21", LABELS1),
                on("machine21", LABELS1)),
            LABELED_NODES,
            svc1,
            zone,
            want(66, 66, 33, 33, 0, 0)),
        new Case(
            "a service selecting a shared label counts every pod carrying it",
            pending,
            List.of(on("machine11", LABELS2), on("machine11", LABELS1), on("machine21", LABELS1)),
            LABELED_NODES,
            List.of(service("default", "s1", Map.of("baz", "blah"))),
            zone,
            want(33, 33, 66, 66, 0, 0)),
        new Case(
            "service pods on unzoned nodes count in the total but in no zone",
            pending,
            List.of(
                on("machine01", LABELS1),
                on("machine11", LABELS1),
                on("machine21", LABELS1),
                on("machine21", LABELS1)),
            LABELED_NODES,
            svc1,
            zone,
            want(75, 75, 50, 50, 0, 0)),
        new Case(
            "two labels each give half of the score",
            pending,
            List.of(on("machine01", LABELS2), on("machine11", LABELS1), on("machine21", LABELS1)),
            ZONE_AND_RACK_NODES,
            svc1,
            List.of("zone", "rack"),
            want(25, 75, 25, 25, 0, 0)),
        new Case(
            "terminating service pods do not count",
            pending,
            List.of(
                on("machine11", LABELS1),
                MakePod.pod().name("dying").labels(LABELS1).node("machine21").terminating().info()),
            LABELED_NODES,
            svc1,
            zone,
            want(0, 0, 100, 100, 0, 0)),
        new Case(
            "a service with an empty selector counts nothing",
            pending,
            List.of(on("machine11", LABELS1)),
            LABELED_NODES,
            List.of(service("default", "all", Map.of())),
            zone,
            want(100, 100, 100, 100, 0, 0)),
        new Case(
            "without anti-affinity labels every score is 0",
            pending,
            List.of(on("machine11", LABELS1)),
            LABELED_NODES,
            svc1,
            List.of(),
            want(0, 0, 0, 0, 0, 0)),
        new Case(
            "shares of three labels add up before truncating",
            pending,
            List.of(on("machine11", LABELS1), on("machine21", LABELS1), on("machine21", LABELS1)),
            ordered(
                entry("machine01", NOZONE),
                entry("machine02", NOZONE),
                entry("machine11", Map.of("a", "1", "b", "1", "c", "1")),
                entry("machine12", Map.of("a", "2", "b", "2", "c", "2")),
                entry("machine21", Map.of("a", "3", "b", "3", "c", "3")),
                entry("machine22", Map.of("a", "4", "b", "4", "c", "4"))),
            svc1,
            List.of("a", "b", "c"),
            want(66, 100, 33, 100, 0, 0)));
  }

  static ServiceAffinity plugin(List<Service> services, List<String> labels) {
    String json =
        "{\"antiAffinityLabelsPreference\":["
            + String.join(",", labels.stream().map(l -> "\"" + l + "\"").toList())
            + "]}";
    return ServiceAffinity.create(
        PluginArgs.of(Names.SERVICE_AFFINITY, TestFrameworks.json(json)),
        TestFrameworks.handle(Fixtures.store(services)));
  }

  /**
   * Runs PreScore (unless {@code skipPreScore}), Score on every node and NormalizeScore; returns
   * name → score.
   */
  static Map<String, Long> run(Case c, boolean skipPreScore, boolean normalize) {
    List<NodeInfo> nodes = nodes(c.nodes(), c.pods());
    CycleState state = TestFrameworks.cycleState(nodes);
    ServiceAffinity p = plugin(c.services(), c.labels());
    if (!skipPreScore) {
      assertThat(p.preScore(state, c.pod(), nodes)).isEqualTo(Status.success());
    }
    NodeScores scores = new NodeScores(nodes.toArray(new NodeInfo[0]));
    for (int i = 0; i < nodes.size(); i++) {
      scores.set(i, p.score(state, c.pod(), nodes.get(i)));
    }
    if (normalize) {
      assertThat(p.scoreExtensions().normalizeScore(state, c.pod(), scores))
          .isEqualTo(Status.success());
    }
    Map<String, Long> out = new LinkedHashMap<>();
    for (int i = 0; i < scores.size(); i++) {
      out.put(scores.name(i), scores.get(i));
    }
    return out;
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void score(Case c) {
    assertThat(run(c, false, true)).isEqualTo(c.want());
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void scoreWithoutPreScoreGivesTheSameRawCounts(Case c) {
    assertThat(run(c, true, false)).isEqualTo(run(c, false, false));
  }

  @Test
  void rawScoreCountsTheFirstServicesPodsOnTheNode() {
    PodInfo pending = MakePod.pod().name("pending").labels(LABELS1).info();
    Case c =
        new Case(
            "raw",
            pending,
            List.of(
                on("machine11", LABELS1),
                on("machine11", LABELS1),
                on("machine11", LABELS2),
                on("machine21", LABELS1)),
            LABELED_NODES,
            List.of(service("default", "s1", LABELS1)),
            List.of("zone"),
            Map.of());
    assertThat(run(c, false, false)).isEqualTo(want(2, 0, 1, 0, 0, 0));
  }
}
