package io.schedext.cache;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Node;
import io.schedext.testing.MakeNode;
import io.schedext.testing.NodeWrapper;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** Zone grouping and round-robin order of {@link NodeTree}, as upstream's node_tree_test.go. */
class NodeTreeTest {

  private static final String BETA_REGION = NodeTree.BETA_REGION;
  private static final String BETA_ZONE = NodeTree.BETA_ZONE;

  /** node-0 .. node-10 of upstream's table, plus a few of our own for the label precedence. */
  static final List<Node> NODES =
      List.of(
          node("node-0").obj(),
          node("node-1").label(NodeTree.REGION, "region-1").obj(),
          node("node-2").label(NodeTree.ZONE, "zone-2").obj(),
          zoned("node-3", "region-1", "zone-2"),
          zoned("node-4", "region-1", "zone-2"),
          zoned("node-5", "region-1", "zone-3"),
          zoned("node-6", "region-2", "zone-2"),
          zoned("node-7", "region-2", "zone-2"),
          zoned("node-8", "region-2", "zone-2"),
          node("node-9")
              .label(NodeTree.REGION, "region-2")
              .label(NodeTree.ZONE, "zone-2")
              .label(BETA_REGION, "region-2")
              .label(BETA_ZONE, "zone-2")
              .obj(),
          node("node-10").label(BETA_REGION, "region-2").label(BETA_ZONE, "zone-3").obj());

  private static NodeWrapper node(String name) {
    return MakeNode.node().name(name);
  }

  private static Node zoned(String name, String region, String zone) {
    return node(name).label(NodeTree.REGION, region).label(NodeTree.ZONE, zone).obj();
  }

  private static List<Node> nodes(int from, int to) {
    return NODES.subList(from, to);
  }

  private static String key(String region, String zone) {
    return region + ":\u0000:" + zone;
  }

  /**
   * The tree as zone key to node names, rebuilt from the round-robin list (zone order and per-zone
   * order kept); {@code known} are the node objects the tree was fed, the last one of a name
   * winning.
   */
  private static Map<String, List<String>> tree(NodeTree nt, List<Node> known) {
    Map<String, Node> byName = new LinkedHashMap<>();
    known.forEach(n -> byName.put(n.getMetadata().getName(), n));
    Map<String, List<String>> out = new LinkedHashMap<>();
    for (String name : nt.list()) {
      out.computeIfAbsent(NodeTree.zoneKey(byName.get(name)), k -> new ArrayList<>()).add(name);
    }
    return out;
  }

  private static final List<Node> EXTRA =
      List.of(
          zoned("node-new", "region-1", "zone-2"),
          node("node-0").label(NodeTree.REGION, "region-1").label(NodeTree.ZONE, "zone-2").obj());

  // ---------------------------------------------------------------------------------------------------- zone keys

  record ZoneCase(String name, Node node, String want) {
    @Override
    public String toString() {
      return name;
    }
  }

  static Stream<ZoneCase> zoneCases() {
    return Stream.of(
        new ZoneCase("a node without labels has the empty zone key", node("n").obj(), ""),
        new ZoneCase(
            "a node with unrelated labels has the empty zone key",
            node("n").label("a", "b").obj(),
            ""),
        new ZoneCase("region only", node("n").label(NodeTree.REGION, "r").obj(), key("r", "")),
        new ZoneCase("zone only", node("n").label(NodeTree.ZONE, "z").obj(), key("", "z")),
        new ZoneCase("the GA labels make region:\\0:zone", zoned("n", "r", "z"), key("r", "z")),
        new ZoneCase(
            "the beta labels alone are used",
            node("n").label(BETA_REGION, "r").label(BETA_ZONE, "z").obj(),
            key("r", "z")),
        new ZoneCase(
            "the beta labels win over differing GA labels, as component-helpers' GetZoneKey",
            node("n")
                .label(NodeTree.REGION, "ga-r")
                .label(NodeTree.ZONE, "ga-z")
                .label(BETA_REGION, "beta-r")
                .label(BETA_ZONE, "beta-z")
                .obj(),
            key("beta-r", "beta-z")),
        new ZoneCase(
            "a present but empty beta zone still wins over the GA zone",
            node("n")
                .label(NodeTree.REGION, "r")
                .label(NodeTree.ZONE, "ga-z")
                .label(BETA_ZONE, "")
                .obj(),
            key("r", "")),
        new ZoneCase(
            "beta and GA are chosen per label: beta zone with GA region",
            node("n").label(NodeTree.REGION, "ga-r").label(BETA_ZONE, "beta-z").obj(),
            key("ga-r", "beta-z")),
        new ZoneCase(
            "empty region and zone values make the empty key",
            node("n").label(NodeTree.REGION, "").label(NodeTree.ZONE, "").obj(),
            ""));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("zoneCases")
  void zoneKey(ZoneCase c) {
    assertThat(NodeTree.zoneKey(c.node())).isEqualTo(c.want());
  }

  // -------------------------------------------------------------------------------------------------------- add

  record AddCase(String name, List<Node> add, Map<String, List<String>> want) {
    @Override
    public String toString() {
      return name;
    }
  }

  static Stream<AddCase> addCases() {
    return Stream.of(
        new AddCase(
            "a single node without labels goes to the empty zone",
            nodes(0, 1),
            Map.of("", List.of("node-0"))),
        new AddCase(
            "the same node added twice is kept once",
            List.of(NODES.get(0), NODES.get(0)),
            Map.of("", List.of("node-0"))),
        new AddCase(
            "nodes with and without proper labels get one zone each",
            nodes(0, 4),
            linked(
                "",
                List.of("node-0"),
                key("region-1", ""),
                List.of("node-1"),
                key("", "zone-2"),
                List.of("node-2"),
                key("region-1", "zone-2"),
                List.of("node-3"))),
        new AddCase(
            "nodes of one zone are kept in insertion order",
            nodes(0, 7),
            linked(
                "",
                List.of("node-0"),
                key("region-1", ""),
                List.of("node-1"),
                key("", "zone-2"),
                List.of("node-2"),
                key("region-1", "zone-2"),
                List.of("node-3", "node-4"),
                key("region-1", "zone-3"),
                List.of("node-5"),
                key("region-2", "zone-2"),
                List.of("node-6"))),
        new AddCase(
            "nodes with the deprecated labels are grouped like the GA ones",
            nodes(9, 11),
            linked(
                key("region-2", "zone-2"),
                List.of("node-9"),
                key("region-2", "zone-3"),
                List.of("node-10"))));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("addCases")
  void addNode(AddCase c) {
    NodeTree nt = new NodeTree();
    c.add().forEach(nt::addNode);
    assertThat(tree(nt, c.add())).containsExactlyEntriesOf(c.want());
    assertThat(nt.numNodes()).isEqualTo(c.want().values().stream().mapToInt(List::size).sum());
  }

  // ----------------------------------------------------------------------------------------------------- remove

  record RemoveCase(
      String name,
      List<Node> existing,
      List<Node> remove,
      boolean found,
      Map<String, List<String>> want) {
    @Override
    public String toString() {
      return name;
    }
  }

  static Stream<RemoveCase> removeCases() {
    return Stream.of(
        new RemoveCase(
            "removing the only node of a zone drops the zone",
            nodes(0, 7),
            nodes(0, 1),
            true,
            linked(
                key("region-1", ""),
                List.of("node-1"),
                key("", "zone-2"),
                List.of("node-2"),
                key("region-1", "zone-2"),
                List.of("node-3", "node-4"),
                key("region-1", "zone-3"),
                List.of("node-5"),
                key("region-2", "zone-2"),
                List.of("node-6"))),
        new RemoveCase(
            "removing one node of a zone with several keeps the rest",
            nodes(0, 7),
            nodes(1, 4),
            true,
            linked(
                "",
                List.of("node-0"),
                key("region-1", "zone-2"),
                List.of("node-4"),
                key("region-1", "zone-3"),
                List.of("node-5"),
                key("region-2", "zone-2"),
                List.of("node-6"))),
        new RemoveCase(
            "removing every node empties the tree", nodes(0, 7), nodes(0, 7), true, Map.of()),
        new RemoveCase(
            "removing nodes that are not there reports it",
            List.of(),
            nodes(0, 5),
            false,
            Map.of()));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("removeCases")
  void removeNode(RemoveCase c) {
    NodeTree nt = new NodeTree();
    c.existing().forEach(nt::addNode);
    for (Node n : c.remove()) {
      assertThat(nt.removeNode(n)).isEqualTo(c.found());
    }
    assertThat(tree(nt, c.existing())).containsExactlyEntriesOf(c.want());
    assertThat(nt.numNodes()).isEqualTo(c.want().values().stream().mapToInt(List::size).sum());
  }

  // ----------------------------------------------------------------------------------------------------- update

  record UpdateCase(
      String name,
      List<Node> existing,
      Node oldNode,
      Node newNode,
      boolean moved,
      Map<String, List<String>> want) {
    @Override
    public String toString() {
      return name;
    }
  }

  static Stream<UpdateCase> updateCases() {
    Node node0InZone = EXTRA.get(1);
    return Stream.of(
        new UpdateCase(
            "a node that gains zone labels moves to the end of its new zone",
            nodes(0, 7),
            NODES.get(0),
            node0InZone,
            true,
            linked(
                key("region-1", ""),
                List.of("node-1"),
                key("", "zone-2"),
                List.of("node-2"),
                key("region-1", "zone-2"),
                List.of("node-3", "node-4", "node-0"),
                key("region-1", "zone-3"),
                List.of("node-5"),
                key("region-2", "zone-2"),
                List.of("node-6"))),
        new UpdateCase(
            "the only node changing zone replaces its zone",
            nodes(0, 1),
            NODES.get(0),
            node0InZone,
            true,
            Map.of(key("region-1", "zone-2"), List.of("node-0"))),
        new UpdateCase(
            "updating an unknown node adds it",
            nodes(0, 1),
            node("nonexisting-node").obj(),
            EXTRA.get(0),
            true,
            linked("", List.of("node-0"), key("region-1", "zone-2"), List.of("node-new"))),
        new UpdateCase(
            "an update without a zone change keeps the order",
            nodes(3, 6),
            NODES.get(3),
            node("node-3")
                .label(NodeTree.REGION, "region-1")
                .label(NodeTree.ZONE, "zone-2")
                .label("x", "y")
                .obj(),
            false,
            linked(
                key("region-1", "zone-2"),
                List.of("node-3", "node-4"),
                key("region-1", "zone-3"),
                List.of("node-5"))),
        new UpdateCase(
            "an update with no old node adds the new one",
            List.of(),
            null,
            NODES.get(5),
            true,
            Map.of(key("region-1", "zone-3"), List.of("node-5"))));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("updateCases")
  void updateNode(UpdateCase c) {
    NodeTree nt = new NodeTree();
    c.existing().forEach(nt::addNode);
    assertThat(nt.updateNode(c.oldNode(), c.newNode())).isEqualTo(c.moved());
    List<Node> known = new ArrayList<>(c.existing());
    known.add(c.newNode());
    assertThat(tree(nt, known)).containsExactlyEntriesOf(c.want());
  }

  // ------------------------------------------------------------------------------------------------------- list

  record ListCase(String name, List<Node> add, List<String> removeNames, List<String> want) {
    @Override
    public String toString() {
      return name;
    }
  }

  static Stream<ListCase> listCases() {
    return Stream.of(
        new ListCase("an empty tree lists nothing", List.of(), List.of(), List.of()),
        new ListCase("one node", nodes(0, 1), List.of(), List.of("node-0")),
        new ListCase(
            "one node per zone lists them in zone order",
            nodes(0, 4),
            List.of(),
            List.of("node-0", "node-1", "node-2", "node-3")),
        new ListCase(
            "zones are visited round-robin, skipping exhausted ones",
            nodes(0, 9),
            List.of(),
            List.of(
                "node-0", "node-1", "node-2", "node-3", "node-5", "node-6", "node-4", "node-7",
                "node-8")),
        new ListCase(
            "adding and removing every node lists nothing",
            nodes(2, 5),
            List.of("node-2", "node-3", "node-4"),
            List.of()),
        new ListCase(
            "removing one node keeps the others in order",
            nodes(2, 5),
            List.of("node-2"),
            List.of("node-3", "node-4")),
        new ListCase(
            "removing three nodes leaves the one added after them",
            List.of(NODES.get(2), NODES.get(3), NODES.get(4), NODES.get(5)),
            List.of("node-2", "node-3", "node-4"),
            List.of("node-5")),
        new ListCase(
            "nodes added to an exhausted zone are listed in their round",
            List.of(
                NODES.get(4), NODES.get(5), NODES.get(6), NODES.get(7), NODES.get(8), NODES.get(3)),
            List.of(),
            List.of("node-4", "node-5", "node-6", "node-3", "node-7", "node-8")),
        new ListCase(
            "a removed zone makes room for a new one",
            List.of(NODES.get(3), NODES.get(4), NODES.get(6), NODES.get(7)),
            List.of("node-3", "node-4"),
            List.of("node-6", "node-7")));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("listCases")
  void list(ListCase c) {
    NodeTree nt = new NodeTree();
    c.add().forEach(nt::addNode);
    for (String name : c.removeNames()) {
      nt.removeNode(
          NODES.stream()
              .filter(n -> n.getMetadata().getName().equals(name))
              .findFirst()
              .orElseThrow());
    }
    assertThat(nt.list()).isEqualTo(c.want());
    assertThat(nt.numNodes()).isEqualTo(c.want().size());
  }

  private static Map<String, List<String>> linked(Object... kv) {
    Map<String, List<String>> m = new LinkedHashMap<>();
    for (int i = 0; i < kv.length; i += 2) {
      @SuppressWarnings("unchecked")
      List<String> v = (List<String>) kv[i + 1];
      m.put((String) kv[i], v);
    }
    return m;
  }
}
