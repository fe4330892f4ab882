package io.schedext.plugins.selectorspread;

import static io.schedext.plugins.selectorspread.Fixtures.nodes;
import static io.schedext.plugins.selectorspread.Fixtures.ownedBy;
import static io.schedext.plugins.selectorspread.Fixtures.pod;
import static io.schedext.plugins.selectorspread.Fixtures.rc;
import static io.schedext.plugins.selectorspread.Fixtures.rs;
import static io.schedext.plugins.selectorspread.Fixtures.service;
import static io.schedext.plugins.selectorspread.Fixtures.ss;
import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.TopologySpreadConstraint;
import io.schedext.framework.CycleState;
import io.schedext.framework.NodeInfo;
import io.schedext.framework.NodeScores;
import io.schedext.framework.PodInfo;
import io.schedext.framework.Status;
import io.schedext.testing.MakePod;
import io.schedext.testing.TestFrameworks;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** v1.22's node spreading table (two nodes without zones), in our words. */
class SelectorSpreadTest {

  static final Map<String, String> LABELS1 = Map.of("foo", "bar", "baz", "blah");
  static final Map<String, String> LABELS2 = Map.of("bar", "foo", "baz", "blah");
  static final Map<String, String> FOO_BAR = Map.of("foo", "bar");
  static final Map<String, String> BAR_FOO = Map.of("bar", "foo");
  static final Map<String, String> BAZ_BLAH = Map.of("baz", "blah");
  static final Map<String, String> BOTH = Map.of("foo", "bar", "bar", "foo");
  static final String NS = "default";
  static final List<HasMetadata> SVC_LABELS1 = List.of(service(NS, "s1", LABELS1));

  record Case(
      String name,
      PodInfo pod,
      List<PodInfo> pods,
      List<HasMetadata> objects,
      Map<String, Long> want) {
    @Override
    public String toString() {
      return name;
    }
  }

  static Map<String, Long> want(long node1, long node2) {
    return Map.of("node1", node1, "node2", node2);
  }

  static Stream<Case> cases() {
    PodInfo pending = pod(NS, "", LABELS1).info();
    return Stream.of(
        new Case(
            "with nothing scheduled both nodes score 100",
            MakePod.pod().name("pending").info(),
            List.of(),
            List.of(),
            want(100, 100)),
        new Case(
            "without services or controllers nothing is spread",
            pending,
            List.of(pod(NS, "node1", Map.of()).info()),
            List.of(),
            want(100, 100)),
        new Case(
            "a service of other pods spreads nothing",
            pending,
            List.of(pod(NS, "node1", LABELS2).info()),
            List.of(service(NS, "s1", Map.of("key", "value"))),
            want(100, 100)),
        new Case(
            "one service pod on node2 favours node1",
            pending,
            List.of(pod(NS, "node1", LABELS2).info(), pod(NS, "node2", LABELS1).info()),
            SVC_LABELS1,
            want(100, 0)),
        new Case(
            "service pods in other namespaces do not count",
            pending,
            List.of(
                pod(NS, "node1", LABELS2).info(),
                pod("ns-other", "node1", LABELS1).info(),
                pod("ns1", "node1", LABELS1).info(),
                pod(NS, "node2", LABELS1).info(),
                pod(NS, "node2", LABELS2).info()),
            SVC_LABELS1,
            want(100, 0)),
        new Case(
            "only pods of the pod's own namespace count, whatever their labels",
            pending,
            List.of(
                pod("ns0", "node1", LABELS1).info(),
                pod("ns1", "node1", LABELS1).info(),
                pod(NS, "node2", LABELS1).info(),
                pod("ns0", "node2", LABELS2).info()),
            SVC_LABELS1,
            want(100, 0)),
        new Case(
            "a pod in a specific namespace is spread with that namespace's service",
            pod("ns1", "", LABELS1).info(),
            List.of(
                pod(NS, "node1", LABELS2).info(),
                pod("ns0", "node1", LABELS1).info(),
                pod("ns2", "node1", LABELS1).info(),
                pod("ns1", "node2", LABELS1).info(),
                pod(NS, "node2", LABELS2).info()),
            List.of(service("ns1", "s1", LABELS1)),
            want(100, 0)),
        new Case(
            "one service pod on each node scores both 0",
            pending,
            List.of(
                pod(NS, "node1", LABELS2).info(),
                pod(NS, "node1", LABELS1).info(),
                pod(NS, "node2", LABELS1).info()),
            SVC_LABELS1,
            want(0, 0)),
        new Case(
            "one service pod against two scores 50 and 0",
            pending,
            List.of(
                pod(NS, "node1", LABELS2).info(),
                pod(NS, "node1", LABELS1).info(),
                pod(NS, "node2", LABELS1).info(),
                pod(NS, "node2", LABELS1).info()),
            SVC_LABELS1,
            want(50, 0)),
        new Case(
            "a service selecting a shared label counts every pod carrying it",
            pending,
            List.of(
                pod(NS, "node1", LABELS2).info(),
                pod(NS, "node1", LABELS1).info(),
                pod(NS, "node2", LABELS1).info()),
            List.of(service(NS, "s1", BAZ_BLAH)),
            want(0, 50)),
        new Case(
            "a service and a replication controller select the pods both match",
            ownedBy(pod(NS, "", LABELS1), "ReplicationController", "rc1"),
            List.of(
                pod(NS, "node1", LABELS2).info(),
                pod(NS, "node1", LABELS1).info(),
                pod(NS, "node2", LABELS1).info()),
            List.of(rc(NS, "rc1", FOO_BAR), rc(NS, "rc2", BAR_FOO), service(NS, "s1", BAZ_BLAH)),
            want(0, 0)),
        new Case(
            "a service and a replica set select the pods both match",
            ownedBy(pod(NS, "", LABELS1), "ReplicaSet", "rs1"),
            List.of(
                pod(NS, "node1", LABELS2).info(),
                pod(NS, "node1", LABELS1).info(),
                pod(NS, "node2", LABELS1).info()),
            List.of(service(NS, "s1", BAZ_BLAH), rs(NS, "rs1", FOO_BAR), rs(NS, "rs2", BAR_FOO)),
            want(0, 0)),
        new Case(
            "a service and a stateful set select the pods both match",
            ownedBy(pod(NS, "", LABELS1), "StatefulSet", "ss1"),
            List.of(
                pod(NS, "node1", LABELS2).info(),
                pod(NS, "node1", LABELS1).info(),
                pod(NS, "node2", LABELS1).info()),
            List.of(service(NS, "s1", BAZ_BLAH), ss(NS, "ss1", FOO_BAR), ss(NS, "ss2", BAR_FOO)),
            want(0, 0)),
        new Case(
            "a disjoint service and replication controller match no pod",
            ownedBy(pod(NS, "", BOTH), "ReplicationController", "rc3"),
            List.of(
                ownedBy(pod(NS, "node1", LABELS2), "ReplicationController", "rc2"),
                ownedBy(pod(NS, "node1", LABELS1), "ReplicationController", "rc1"),
                ownedBy(pod(NS, "node2", LABELS1), "ReplicationController", "rc1")),
            List.of(rc(NS, "rc3", FOO_BAR), service(NS, "s1", BAR_FOO)),
            want(100, 100)),
        new Case(
            "a disjoint service and replica set match no pod",
            ownedBy(pod(NS, "", BOTH), "ReplicaSet", "rs3"),
            List.of(
                ownedBy(pod(NS, "node1", LABELS2), "ReplicaSet", "rs2"),
                ownedBy(pod(NS, "node1", LABELS1), "ReplicaSet", "rs1"),
                ownedBy(pod(NS, "node2", LABELS1), "ReplicaSet", "rs1")),
            List.of(service(NS, "s1", BAR_FOO), rs(NS, "rs3", FOO_BAR)),
            want(100, 100)),
        new Case(
            "a disjoint service and stateful set match no pod",
            ownedBy(pod(NS, "", BOTH), "StatefulSet", "ss3"),
            List.of(
                ownedBy(pod(NS, "node1", LABELS2), "StatefulSet", "ss2"),
                ownedBy(pod(NS, "node1", LABELS1), "StatefulSet", "ss1"),
                ownedBy(pod(NS, "node2", LABELS1), "StatefulSet", "ss1")),
            List.of(service(NS, "s1", BAR_FOO), ss(NS, "ss3", FOO_BAR)),
            want(100, 100)),
        new Case(
            "a replication controller alone selects the pods it matches",
            ownedBy(pod(NS, "", LABELS1), "ReplicationController", "rc1"),
            controlled("ReplicationController", "rc"),
            List.of(rc(NS, "rc1", FOO_BAR)),
            want(0, 0)),
        new Case(
            "a replica set alone selects the pods it matches",
            ownedBy(pod(NS, "", LABELS1), "ReplicaSet", "rs1"),
            controlled("ReplicaSet", "rs"),
            List.of(rs(NS, "rs1", FOO_BAR)),
            want(0, 0)),
        new Case(
            "a stateful set alone selects the pods it matches",
            ownedBy(pod(NS, "", LABELS1), "StatefulSet", "ss1"),
            controlled("StatefulSet", "ss"),
            List.of(ss(NS, "ss1", FOO_BAR)),
            want(0, 0)),
        new Case(
            "a replication controller selecting a shared label counts every pod carrying it",
            ownedBy(pod(NS, "", LABELS1), "ReplicationController", "rc3"),
            controlled("ReplicationController", "rc"),
            List.of(rc(NS, "rc3", BAZ_BLAH)),
            want(0, 50)),
        new Case(
            "a replica set selecting a shared label counts every pod carrying it",
            ownedBy(pod(NS, "", LABELS1), "ReplicaSet", "rs3"),
            controlled("ReplicaSet", "rs"),
            List.of(rs(NS, "rs3", BAZ_BLAH)),
            want(0, 50)),
        new Case(
            "a stateful set selecting a shared label counts every pod carrying it",
            ownedBy(pod(NS, "", LABELS1), "StatefulSet", "ss3"),
            controlled("StatefulSet", "ss"),
            List.of(ss(NS, "ss3", BAZ_BLAH)),
            want(0, 50)),
        new Case(
            "terminating pods do not count",
            pending,
            List.of(
                pod(NS, "node1", LABELS1).terminating().info(), pod(NS, "node2", LABELS1).info()),
            SVC_LABELS1,
            want(100, 0)),
        new Case(
            "counts are scaled against the busiest node with truncation",
            pending,
            List.of(
                pod(NS, "node1", LABELS1).info(),
                pod(NS, "node2", LABELS1).info(),
                pod(NS, "node2", LABELS1).info(),
                pod(NS, "node2", LABELS1).info()),
            SVC_LABELS1,
            want(66, 0)),
        new Case(
            "a pod with its own spread constraints scores 0 everywhere, PreScore still succeeding",
            ownedBy(pod(NS, "", LABELS1).spreadConstraint(constraint()), "StatefulSet", "ss1"),
            controlled("StatefulSet", "ss"),
            List.of(ss(NS, "ss1", BAZ_BLAH)),
            want(0, 0)));
  }

  /**
   * Three pods: one LABELS2 pod of {@code prefix}2 and one LABELS1 pod of {@code prefix}1 on node1,
   * one on node2.
   */
  static List<PodInfo> controlled(String kind, String prefix) {
    return List.of(
        ownedBy(pod(NS, "node1", LABELS2), kind, prefix + "2"),
        ownedBy(pod(NS, "node1", LABELS1), kind, prefix + "1"),
        ownedBy(pod(NS, "node2", LABELS1), kind, prefix + "1"));
  }

  /**
   * Runs PreScore, Score on every node and NormalizeScore as the framework does; returns name →
   * score.
   */
  static Map<String, Long> run(PodInfo pod, List<NodeInfo> nodes, List<HasMetadata> objects) {
    CycleState state = TestFrameworks.cycleState(nodes);
    SelectorSpread p = SelectorSpread.create(null, TestFrameworks.handle(Fixtures.store(objects)));
    NodeScores scores = new NodeScores(nodes.toArray(new NodeInfo[0]));
    assertThat(p.preScore(state, pod, nodes)).isEqualTo(Status.success());
    for (int i = 0; i < nodes.size(); i++) {
      scores.set(i, p.score(state, pod, nodes.get(i)));
    }
    assertThat(p.scoreExtensions().normalizeScore(state, pod, scores)).isEqualTo(Status.success());
    Map<String, Long> out = new LinkedHashMap<>();
    for (int i = 0; i < scores.size(); i++) {
      out.put(scores.name(i), scores.get(i));
    }
    return out;
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void score(Case c) {
    Map<String, Map<String, String>> twoNodes = new LinkedHashMap<>();
    twoNodes.put("node1", Map.of());
    twoNodes.put("node2", Map.of());
    assertThat(run(c.pod(), nodes(twoNodes, c.pods()), c.objects())).isEqualTo(c.want());
  }

  static TopologySpreadConstraint constraint() {
    TopologySpreadConstraint t = new TopologySpreadConstraint();
    t.setMaxSkew(1);
    t.setTopologyKey("foo");
    t.setWhenUnsatisfiable("DoNotSchedule");
    return t;
  }
}
