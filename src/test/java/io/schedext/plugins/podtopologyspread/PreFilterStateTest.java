package io.schedext.plugins.podtopologyspread;

import static io.schedext.plugins.podtopologyspread.Fixtures.BAR;
import static io.schedext.plugins.podtopologyspread.Fixtures.DNS;
import static io.schedext.plugins.podtopologyspread.Fixtures.EMPTY;
import static io.schedext.plugins.podtopologyspread.Fixtures.FOO;
import static io.schedext.plugins.podtopologyspread.Fixtures.HONOR;
import static io.schedext.plugins.podtopologyspread.Fixtures.IGNORE;
import static io.schedext.plugins.podtopologyspread.Fixtures.SA;
import static io.schedext.plugins.podtopologyspread.Fixtures.labels;
import static io.schedext.plugins.podtopologyspread.Fixtures.node;
import static io.schedext.plugins.podtopologyspread.Fixtures.on;
import static io.schedext.plugins.podtopologyspread.Fixtures.pod;
import static io.schedext.plugins.podtopologyspread.Fixtures.spread;
import static io.schedext.plugins.podtopologyspread.Fixtures.tainted;
import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.LabelSelector;
import io.fabric8.kubernetes.api.model.LabelSelectorBuilder;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.ServiceBuilder;
import io.fabric8.kubernetes.api.model.TopologySpreadConstraint;
import io.schedext.cluster.ObjectStore;
import io.schedext.framework.Code;
import io.schedext.framework.CycleState;
import io.schedext.framework.PodInfo;
import io.schedext.framework.PreFilterResult;
import io.schedext.kube.LabelSelectors;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Port of upstream's TestPreFilterState: the counts and critical paths PreFilter leaves for Filter.
 */
class PreFilterStateTest {

  /** One expected constraint with its counts per domain and its critical paths. */
  record Want(String constraint, Map<String, Integer> counts, String paths) {}

  record Case(
      String name,
      Pod pod,
      List<Node> nodes,
      List<Pod> pods,
      List<TopologySpreadConstraint> defaults,
      Map<String, String> serviceSelector,
      List<Want> want) {
    @Override
    public String toString() {
      return name;
    }

    Case defaults(Map<String, String> service, TopologySpreadConstraint... constraints) {
      return new Case(name, pod, nodes, pods, List.of(constraints), service, want);
    }

    Case want(String constraint, Map<String, Integer> counts, String paths) {
      List<Want> w = new ArrayList<>(want == null ? List.of() : want);
      w.add(new Want(constraint, counts, paths));
      return new Case(name, pod, nodes, pods, defaults, serviceSelector, w);
    }
  }

  static Case when(String name, Pod pod, List<Node> nodes, Pod... pods) {
    return new Case(name, pod, nodes, List.of(pods), List.of(), null, null);
  }

  /** The expected rendering of a constraint (see {@link #render}). */
  static String c(int maxSkew, String key, LabelSelector selector, String affinity, String taints) {
    return maxSkew
        + " "
        + key
        + " "
        + Fixtures.describe(LabelSelectors.compile(selector))
        + " minDomains=1 affinity="
        + affinity
        + " taints="
        + taints;
  }

  static String c(int maxSkew, String key, LabelSelector selector) {
    return c(maxSkew, key, selector, HONOR, IGNORE);
  }

  static String render(SpreadConstraint s) {
    return s.maxSkew()
        + " "
        + s.topologyKey()
        + " "
        + Fixtures.describe(s.selector())
        + " minDomains="
        + s.minDomains()
        + " affinity="
        + (s.honorNodeAffinity() ? HONOR : IGNORE)
        + " taints="
        + (s.honorNodeTaints() ? HONOR : IGNORE);
  }

  /** Critical paths as upstream's test compares them: ties listed alphabetically. */
  static String render(CriticalPaths p) {
    String v0 = p.value(0);
    String v1 = p.value(1);
    if (p.num(0) == p.num(1) && v0.compareTo(v1) > 0) {
      String t = v0;
      v0 = v1;
      v1 = t;
    }
    return "[" + v0 + " " + num(p.num(0)) + ", " + v1 + " " + num(p.num(1)) + "]";
  }

  private static String num(int n) {
    return n == CriticalPaths.EMPTY ? "MAX" : String.valueOf(n);
  }

  static List<Node> abxy() {
    return List.of(
        node("node-a", "zone", "zone1", "node", "node-a").obj(),
        node("node-b", "zone", "zone1", "node", "node-b").obj(),
        node("node-x", "zone", "zone2", "node", "node-x").obj(),
        node("node-y", "zone", "zone2", "node", "node-y").obj());
  }

  static List<Node> aby() {
    return List.of(
        node("node-a", "zone", "zone1", "node", "node-a").obj(),
        node("node-b", "zone", "zone1", "node", "node-b").obj(),
        node("node-y", "zone", "zone2", "node", "node-y").obj());
  }

  /** Nodes a and b carry foo, c carries bar (no zone). */
  static List<Node> abcFoo() {
    return List.of(
        node("node-a", "node", "node-a", "foo", "").obj(),
        node("node-b", "node", "node-b", "foo", "").obj(),
        node("node-c", "node", "node-c", "bar", "").obj());
  }

  static List<Node> abcTaintedC() {
    return List.of(
        node("node-a", "node", "node-a").obj(),
        node("node-b", "node", "node-b").obj(),
        tainted(node("node-c", "node", "node-c", "bar", "")).obj());
  }

  static Pod[] fiveFoo() {
    return new Pod[] {
      on("node-a", "p-a1", "foo", ""),
      on("node-a", "p-a2", "foo", ""),
      on("node-b", "p-b1", "foo", ""),
      on("node-y", "p-y1", "foo", ""),
      on("node-y", "p-y2", "foo", "")
    };
  }

  static Pod[] sevenFoo() {
    return new Pod[] {
      on("node-a", "p-a1", "foo", ""),
      on("node-a", "p-a2", "foo", ""),
      on("node-b", "p-b1", "foo", ""),
      on("node-y", "p-y1", "foo", ""),
      on("node-y", "p-y2", "foo", ""),
      on("node-y", "p-y3", "foo", ""),
      on("node-y", "p-y4", "foo", "")
    };
  }

  static Pod[] barOnAbbAndPlainOnC() {
    return new Pod[] {
      on("node-a", "p-a", "bar", ""),
      on("node-b", "p-b", "bar", ""),
      on("node-b", "p-c", "bar", ""),
      on("node-c", "p-d")
    };
  }

  static Pod[] fiveFooA() {
    return new Pod[] {
      on("node-a", "p-a1", "foo", "a"),
      on("node-a", "p-a2", "foo", "a"),
      on("node-b", "p-b1", "foo", "a"),
      on("node-y", "p-y1", "foo", "a"),
      on("node-y", "p-y2", "foo", "a")
    };
  }

  static Stream<Case> cases() {
    LabelSelector fooAndBarA =
        new LabelSelectorBuilder()
            .withMatchLabels(Map.of("bar", "a"))
            .withMatchExpressions(FOO.getMatchExpressions())
            .build();
    LabelSelector fooAndBarEmpty =
        new LabelSelectorBuilder()
            .withMatchLabels(Map.of("bar", ""))
            .withMatchExpressions(FOO.getMatchExpressions())
            .build();
    return Stream.of(
        when(
                "a clean cluster counts 0 in every zone",
                pod("p", "foo", "")
                    .spreadConstraint(spread(5, "zone", DNS, labels("foo", "bar")))
                    .obj(),
                abxy())
            .want(
                c(5, "zone", labels("foo", "bar")),
                Map.of("zone1", 0, "zone2", 0),
                "[zone1 0, zone2 0]"),
        when(
                "matching pods are summed per zone",
                pod("p", "foo", "").spreadConstraint(spread(1, "zone", DNS, FOO)).obj(),
                abxy(),
                fiveFoo())
            .want(c(1, "zone", FOO), Map.of("zone1", 3, "zone2", 2), "[zone2 2, zone1 3]"),
        when(
                "a null label selector counts no pod",
                pod("p", "foo", "").spreadConstraint(spread(1, "zone", DNS, null)).obj(),
                abxy(),
                fiveFoo())
            .want(c(1, "zone", null), Map.of("zone1", 0, "zone2", 0), "[zone1 0, zone2 0]"),
        when(
                "an empty label selector counts no pod, as 1.34.9 (later upstream counts them all)",
                pod("p", "foo", "").spreadConstraint(spread(1, "zone", DNS, EMPTY)).obj(),
                abxy(),
                on("node-a", "p-a1"),
                on("node-a", "p-a2", "bar", ""),
                pod("p-a3", "foo", "").namespace("other").node("node-a").obj(),
                pod("p-b1").node("node-b").terminating().obj(),
                on("node-x", "p-x1", "foo", ""))
            .want(c(1, "zone", EMPTY), Map.of("zone1", 0, "zone2", 0), "[zone1 0, zone2 0]"),
        when(
                "a zone without nodes holding pods is the minimum on a 3-zone cluster",
                pod("p", "foo", "").spreadConstraint(spread(1, "zone", DNS, FOO)).obj(),
                Stream.concat(
                        abxy().stream(),
                        Stream.of(
                            node("node-o", "zone", "zone3", "node", "node-o").obj(),
                            node("node-p", "zone", "zone3", "node", "node-p").obj()))
                    .toList(),
                fiveFoo())
            .want(
                c(1, "zone", FOO),
                Map.of("zone1", 3, "zone2", 2, "zone3", 0),
                "[zone3 0, zone2 2]"),
        when(
                "pods of other namespaces are not counted",
                pod("p", "foo", "").spreadConstraint(spread(1, "zone", DNS, FOO)).obj(),
                abxy(),
                on("node-a", "p-a1", "foo", ""),
                pod("p-a2", "foo", "").namespace("ns1").node("node-a").obj(),
                on("node-b", "p-b1", "foo", ""),
                pod("p-y1", "foo", "").namespace("ns2").node("node-y").obj(),
                on("node-y", "p-y2", "foo", ""))
            .want(c(1, "zone", FOO), Map.of("zone1", 2, "zone2", 1), "[zone2 1, zone1 2]"),
        when(
                "terminating pods are not counted",
                pod("p", "foo", "").spreadConstraint(spread(1, "zone", DNS, FOO)).obj(),
                abxy(),
                on("node-a", "p-a1", "foo", ""),
                pod("p-a2", "foo", "").node("node-a").terminating().obj())
            .want(c(1, "zone", FOO), Map.of("zone1", 1, "zone2", 0), "[zone2 0, zone1 1]"),
        when(
                "two constraints on zone and node are counted separately",
                pod("p", "foo", "")
                    .spreadConstraint(spread(1, "zone", DNS, FOO))
                    .spreadConstraint(spread(1, "node", DNS, FOO))
                    .obj(),
                abxy(),
                sevenFoo())
            .want(c(1, "zone", FOO), Map.of("zone1", 3, "zone2", 4), "[zone1 3, zone2 4]")
            .want(
                c(1, "node", FOO),
                Map.of("node-a", 2, "node-b", 1, "node-x", 0, "node-y", 4),
                "[node-x 0, node-b 1]"),
        when(
                "soft constraints are left to scoring",
                pod("p", "foo", "")
                    .spreadConstraint(spread(1, "zone", SA, FOO))
                    .spreadConstraint(spread(1, "zone", DNS, FOO))
                    .spreadConstraint(spread(1, "node", SA, FOO))
                    .spreadConstraint(spread(1, "node", DNS, FOO))
                    .obj(),
                aby(),
                sevenFoo())
            .want(c(1, "zone", FOO), Map.of("zone1", 3, "zone2", 4), "[zone1 3, zone2 4]")
            .want(
                c(1, "node", FOO),
                Map.of("node-a", 2, "node-b", 1, "node-y", 4),
                "[node-b 1, node-a 2]"),
        when(
                "constraints with different selectors count different pods",
                pod("p", "foo", "", "bar", "")
                    .spreadConstraint(spread(1, "zone", DNS, FOO))
                    .spreadConstraint(spread(1, "node", DNS, BAR))
                    .obj(),
                aby(),
                on("node-a", "p-a", "foo", ""),
                on("node-b", "p-b", "bar", ""))
            .want(c(1, "zone", FOO), Map.of("zone1", 1, "zone2", 0), "[zone2 0, zone1 1]")
            .want(
                c(1, "node", BAR),
                Map.of("node-a", 0, "node-b", 1, "node-y", 0),
                "[node-a 0, node-y 0]"),
        when(
                "constraints with different selectors over pods with several labels",
                pod("p", "foo", "", "bar", "")
                    .spreadConstraint(spread(1, "zone", DNS, FOO))
                    .spreadConstraint(spread(1, "node", DNS, BAR))
                    .obj(),
                aby(),
                on("node-a", "p-a1", "foo", ""),
                on("node-a", "p-a2", "foo", "", "bar", ""),
                on("node-b", "p-b1", "foo", ""),
                on("node-y", "p-y1", "foo", ""),
                on("node-y", "p-y2", "foo", "", "bar", ""),
                on("node-y", "p-y3", "foo", ""),
                on("node-y", "p-y4", "foo", "", "bar", ""))
            .want(c(1, "zone", FOO), Map.of("zone1", 3, "zone2", 4), "[zone1 3, zone2 4]")
            .want(
                c(1, "node", BAR),
                Map.of("node-a", 1, "node-b", 0, "node-y", 2),
                "[node-b 0, node-a 1]"),
        when(
                "a node outside the pod's required node affinity is no domain",
                pod("p", "foo", "")
                    .nodeAffinityTerm("node", "NotIn", "node-x")
                    .spreadConstraint(spread(1, "zone", DNS, FOO))
                    .spreadConstraint(spread(1, "node", DNS, FOO))
                    .obj(),
                abxy(),
                sevenFoo())
            .want(c(1, "zone", FOO), Map.of("zone1", 3, "zone2", 4), "[zone1 3, zone2 4]")
            .want(
                c(1, "node", FOO),
                Map.of("node-a", 2, "node-b", 1, "node-y", 4),
                "[node-b 1, node-a 2]"),
        when(
                "hard default constraints take the selector of the pod's service",
                pod("p", "foo", "bar", "baz", "kar").obj(),
                List.of())
            .defaults(
                Map.of("foo", "bar"),
                spread(3, "node", DNS, null),
                spread(2, "node", SA, null),
                spread(5, "rack", DNS, null))
            .want(c(3, "node", labels("foo", "bar")), Map.of(), "[ MAX,  MAX]")
            .want(c(5, "rack", labels("foo", "bar")), Map.of(), "[ MAX,  MAX]"),
        when(
                "default constraints are skipped when no service selects the pod",
                pod("p", "foo", "bar").obj(),
                List.of())
            .defaults(Map.of("baz", "kep"), spread(3, "node", DNS, null)),
        when(
                "the pod's own constraints replace the default ones",
                pod("p", "foo", "bar", "baz", "tar")
                    .spreadConstraint(spread(1, "zone", DNS, labels("baz", "tar")))
                    .spreadConstraint(spread(2, "planet", SA, labels("fot", "rok")))
                    .obj(),
                List.of())
            .defaults(Map.of("foo", "bar"), spread(2, "node", DNS, null))
            .want(c(1, "zone", labels("baz", "tar")), Map.of(), "[ MAX,  MAX]"),
        when(
                "only soft default constraints skip the filter",
                pod("p", "foo", "bar").obj(),
                List.of())
            .defaults(Map.of("foo", "bar"), spread(2, "node", SA, null)),
        when(
                "affinity policy Honor leaves out nodes outside the pod's node selector",
                pod("p", "foo", "")
                    .nodeSelector(Map.of("foo", ""))
                    .spreadConstraint(spread(1, "node", DNS, BAR))
                    .obj(),
                abcFoo(),
                barOnAbbAndPlainOnC())
            .want(c(1, "node", BAR), Map.of("node-a", 1, "node-b", 2), "[node-a 1, node-b 2]"),
        when(
                "affinity policy Ignore keeps nodes outside the pod's node selector",
                pod("p", "foo", "")
                    .nodeSelector(Map.of("foo", ""))
                    .spreadConstraint(spread(1, "node", DNS, BAR, null, IGNORE, null, null))
                    .obj(),
                abcFoo(),
                barOnAbbAndPlainOnC())
            .want(
                c(1, "node", BAR, IGNORE, IGNORE),
                Map.of("node-a", 1, "node-b", 2, "node-c", 0),
                "[node-c 0, node-a 1]"),
        when(
                "affinity policy Honor leaves out nodes outside the pod's required node affinity",
                pod("p", "foo", "")
                    .nodeAffinityTerm("foo", "In", "")
                    .spreadConstraint(spread(1, "node", DNS, BAR))
                    .obj(),
                abcFoo(),
                on("node-a", "p-a", "bar", ""),
                on("node-b", "p-c", "bar", ""),
                on("node-b", "p-d", "bar", ""),
                on("node-c", "p-e"))
            .want(c(1, "node", BAR), Map.of("node-a", 1, "node-b", 2), "[node-a 1, node-b 2]"),
        when(
                "affinity policy Ignore keeps nodes outside the pod's required node affinity",
                pod("p", "foo", "")
                    .nodeAffinityTerm("foo", "In", "")
                    .spreadConstraint(spread(1, "node", DNS, BAR, null, IGNORE, null, null))
                    .obj(),
                abcFoo(),
                barOnAbbAndPlainOnC())
            .want(
                c(1, "node", BAR, IGNORE, IGNORE),
                Map.of("node-a", 1, "node-b", 2, "node-c", 0),
                "[node-c 0, node-a 1]"),
        when(
                "taints policy Ignore (the default) keeps tainted nodes",
                pod("p", "foo", "").spreadConstraint(spread(1, "node", DNS, BAR)).obj(),
                abcTaintedC(),
                barOnAbbAndPlainOnC())
            .want(
                c(1, "node", BAR),
                Map.of("node-a", 1, "node-b", 2, "node-c", 0),
                "[node-c 0, node-a 1]"),
        when(
                "taints policy Honor leaves out nodes with untolerated NoSchedule taints",
                pod("p", "foo", "")
                    .spreadConstraint(spread(1, "node", DNS, BAR, null, null, HONOR, null))
                    .obj(),
                abcTaintedC(),
                barOnAbbAndPlainOnC())
            .want(
                c(1, "node", BAR, HONOR, HONOR),
                Map.of("node-a", 1, "node-b", 2),
                "[node-a 1, node-b 2]"),
        when(
                "taints policy Honor keeps nodes whose taints the pod tolerates",
                pod("p", "foo", "")
                    .toleration("node.kubernetes.io/unschedulable", "Exists", null, null)
                    .spreadConstraint(spread(1, "node", DNS, BAR, null, null, HONOR, null))
                    .obj(),
                abcTaintedC(),
                barOnAbbAndPlainOnC())
            .want(
                c(1, "node", BAR, HONOR, HONOR),
                Map.of("node-a", 1, "node-b", 2, "node-c", 0),
                "[node-c 0, node-a 1]"),
        when(
                "inclusion policies apply per constraint: zone honours affinity, node ignores it",
                pod("p", "foo", "")
                    .nodeSelector(Map.of("foo", ""))
                    .spreadConstraint(spread(1, "zone", DNS, FOO))
                    .spreadConstraint(spread(1, "node", DNS, FOO, null, IGNORE, null, null))
                    .obj(),
                List.of(
                    node("node-a", "zone", "zone1", "node", "node-a", "foo", "").obj(),
                    node("node-b", "zone", "zone1", "node", "node-b").obj(),
                    node("node-x", "zone", "zone2", "node", "node-x", "foo", "").obj()),
                on("node-b", "p-b1", "foo", ""),
                on("node-b", "p-b2", "foo", ""),
                on("node-x", "p-x1", "foo", ""))
            .want(c(1, "zone", FOO), Map.of("zone1", 0, "zone2", 1), "[zone1 0, zone2 1]")
            .want(
                c(1, "node", FOO, IGNORE, IGNORE),
                Map.of("node-a", 0, "node-b", 2, "node-x", 1),
                "[node-a 0, node-x 1]"),
        when(
                "inclusion policies apply per constraint: zone honours taints, node ignores them",
                pod("p", "foo", "")
                    .spreadConstraint(spread(1, "zone", DNS, FOO, null, null, HONOR, null))
                    .spreadConstraint(spread(1, "node", DNS, FOO))
                    .obj(),
                List.of(
                    node("node-a", "zone", "zone1", "node", "node-a", "foo", "").obj(),
                    tainted(node("node-b", "zone", "zone1", "node", "node-b")).obj(),
                    node("node-x", "zone", "zone2", "node", "node-x", "foo", "").obj()),
                on("node-b", "p-b1", "foo", ""),
                on("node-b", "p-b2", "foo", ""),
                on("node-x", "p-x1", "foo", ""))
            .want(
                c(1, "zone", FOO, HONOR, HONOR),
                Map.of("zone1", 0, "zone2", 1),
                "[zone1 0, zone2 1]")
            .want(
                c(1, "node", FOO),
                Map.of("node-a", 0, "node-b", 2, "node-x", 1),
                "[node-a 0, node-x 1]"),
        when(
                "the node selector applies to both constraints, taints to neither",
                pod("p", "foo", "")
                    .nodeSelector(Map.of("foo", ""))
                    .spreadConstraint(spread(1, "zone", DNS, FOO))
                    .spreadConstraint(spread(1, "node", DNS, FOO))
                    .obj(),
                List.of(
                    node("node-a", "zone", "zone1", "node", "node-a").obj(),
                    tainted(node("node-b", "zone", "zone1", "node", "node-b", "foo", "")).obj(),
                    node("node-x", "zone", "zone2", "node", "node-x", "foo", "").obj(),
                    node("node-y", "zone", "zone2", "node", "node-y").obj()),
                on("node-a", "p-a1", "foo", ""),
                on("node-a", "p-a2", "foo", ""),
                on("node-x", "p-x1", "foo", ""),
                on("node-y", "p-y1", "foo", ""))
            .want(c(1, "zone", FOO), Map.of("zone1", 0, "zone2", 1), "[zone1 0, zone2 1]")
            .want(c(1, "node", FOO), Map.of("node-b", 0, "node-x", 1), "[node-b 0, node-x 1]"),
        when(
                "zone ignores node affinity while node honours affinity and taints",
                pod("p", "foo", "")
                    .nodeSelector(Map.of("foo", ""))
                    .spreadConstraint(spread(1, "zone", DNS, FOO, null, IGNORE, null, null))
                    .spreadConstraint(spread(1, "node", DNS, FOO, null, null, HONOR, null))
                    .obj(),
                List.of(
                    node("node-a", "zone", "zone1", "node", "node-a").obj(),
                    tainted(node("node-b", "zone", "zone1", "node", "node-b", "foo", "")).obj(),
                    node("node-x", "zone", "zone2", "node", "node-x", "foo", "").obj(),
                    node("node-y", "zone", "zone2", "node", "node-y", "foo", "").obj()),
                on("node-a", "p-a1", "foo", ""),
                on("node-a", "p-a2", "foo", ""),
                on("node-x", "p-x1", "foo", ""),
                on("node-x", "p-x2", "foo", ""),
                on("node-y", "p-y1", "foo", ""))
            .want(
                c(1, "zone", FOO, IGNORE, IGNORE),
                Map.of("zone1", 2, "zone2", 3),
                "[zone1 2, zone2 3]")
            .want(
                c(1, "node", FOO, HONOR, HONOR),
                Map.of("node-x", 2, "node-y", 1),
                "[node-y 1, node-x 2]"),
        when(
                "matchLabelKeys narrows the selector to pods with the pod's own value",
                pod("p", "foo", "", "bar", "")
                    .spreadConstraint(spread(1, "zone", DNS, FOO, null, null, null, List.of("bar")))
                    .obj(),
                abxy(),
                fiveFoo())
            .want(
                c(1, "zone", fooAndBarEmpty), Map.of("zone1", 0, "zone2", 0), "[zone1 0, zone2 0]"),
        when(
                "matchLabelKeys is ANDed with a non-empty selector",
                pod("p", "foo", "", "bar", "a")
                    .spreadConstraint(spread(1, "zone", DNS, FOO, null, null, null, List.of("bar")))
                    .obj(),
                abxy(),
                on("node-a", "p-a1", "foo", ""),
                on("node-a", "p-a2", "foo", "", "bar", "a"),
                on("node-b", "p-b1", "foo", ""),
                on("node-y", "p-y1", "foo", "", "bar", "a"),
                on("node-y", "p-y2", "bar", ""))
            .want(c(1, "zone", fooAndBarA), Map.of("zone1", 1, "zone2", 1), "[zone1 1, zone2 1]"),
        when(
                "matchLabelKeys is ANDed with an empty selector",
                pod("p", "foo", "a")
                    .spreadConstraint(
                        spread(1, "zone", DNS, EMPTY, null, null, null, List.of("foo")))
                    .obj(),
                abxy(),
                fiveFooA())
            .want(
                c(1, "zone", labels("foo", "a")),
                Map.of("zone1", 3, "zone2", 2),
                "[zone2 2, zone1 3]"),
        when(
                "matchLabelKeys leaves a null selector matching nothing (current upstream merge)",
                pod("p", "foo", "a")
                    .spreadConstraint(
                        spread(1, "zone", DNS, null, null, null, null, List.of("foo")))
                    .obj(),
                abxy(),
                fiveFooA())
            .want(c(1, "zone", null), Map.of("zone1", 0, "zone2", 0), "[zone1 0, zone2 0]"),
        when(
                "a matchLabelKeys key the pod does not carry is ignored",
                pod("p", "foo", "")
                    .spreadConstraint(spread(1, "zone", DNS, FOO, null, null, null, List.of("bar")))
                    .obj(),
                abxy(),
                fiveFooA())
            .want(c(1, "zone", FOO), Map.of("zone1", 3, "zone2", 2), "[zone2 2, zone1 3]"),
        when(
                "two constraints on the same topology key keep separate counts",
                pod("p", "foo", "", "bar", "")
                    .spreadConstraint(spread(1, "zone", DNS, FOO))
                    .spreadConstraint(spread(1, "zone", DNS, BAR))
                    .obj(),
                abxy(),
                on("node-a", "p-a1", "foo", "", "bar", ""),
                on("node-b", "p-b1", "foo", ""),
                on("node-x", "p-x1", "bar", ""),
                on("node-y", "p-y1", "foo", "", "bar", ""),
                on("node-y", "p-y2", "bar", ""))
            .want(c(1, "zone", FOO), Map.of("zone1", 2, "zone2", 1), "[zone2 1, zone1 2]")
            .want(c(1, "zone", BAR), Map.of("zone1", 1, "zone2", 3), "[zone1 1, zone2 3]"),
        when(
            "a pod without constraints and without defaults skips the filter",
            pod("p", "foo", "").obj(),
            List.of(node("node-a", "zone", "zone1", "node", "node-a").obj())));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void preFilter(Case c) {
    ObjectStore store = new ObjectStore();
    if (c.serviceSelector() != null) {
      store.put(
          new ServiceBuilder()
              .withNewMetadata()
              .withName("svc")
              .withNamespace("default")
              .endMetadata()
              .withNewSpec()
              .withSelector(c.serviceSelector())
              .endSpec()
              .build());
    }
    PodTopologySpread plugin = Fixtures.listPlugin(store, c.defaults());
    CycleState state = Fixtures.state(Fixtures.snapshot(c.nodes(), c.pods()));

    PreFilterResult result = plugin.preFilter(state, PodInfo.of(c.pod()));

    if (c.want() == null) {
      assertThat(result.status().code()).isEqualTo(Code.SKIP);
      return;
    }
    assertThat(result).isEqualTo(PreFilterResult.success());
    PreFilterState s = state.read(PodTopologySpread.PRE_FILTER_STATE_KEY, PreFilterState.class);
    List<Want> got = new ArrayList<>();
    for (int i = 0; i < s.constraints().size(); i++) {
      got.add(
          new Want(render(s.constraints().get(i)), s.domainCounts(i), render(s.criticalPaths(i))));
    }
    assertThat(got).isEqualTo(c.want());
  }

  @Test
  void aMalformedSelectorIsAnError() {
    LabelSelector bad =
        new LabelSelectorBuilder()
            .addNewMatchExpression()
            .withKey("foo")
            .withOperator("Near")
            .endMatchExpression()
            .build();
    PodTopologySpread plugin = Fixtures.listPlugin(new ObjectStore(), List.of());
    PreFilterResult r =
        plugin.preFilter(
            Fixtures.state(Fixtures.snapshot(abxy(), List.of())),
            PodInfo.of(pod("p").spreadConstraint(spread(1, "zone", DNS, bad)).obj()));
    assertThat(r.status().code()).isEqualTo(Code.ERROR);
    assertThat(r.status().message())
        .isEqualTo(
            "get constraints from pod: obtaining pod's hard topology spread "
                + "constraints: \"Near\" is not a valid label selector operator");
  }
}
