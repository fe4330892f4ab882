package io.schedext.extender;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.schedext.cache.Snapshot;
import io.schedext.extender.wire.ExtenderArgs;
import io.schedext.extender.wire.NodeNameList;
import io.schedext.framework.NodeInfo;
import io.schedext.scheduler.SchedulingCycle;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * The nodes of one request, resolved against the call's snapshot.
 *
 * @param snapshot the snapshot the cycle sees (the call's, with the node objects of a {@code Nodes}
 *     request in place)
 * @param nodes the known candidate nodes, in request order, each once
 * @param positions per node, its position in the call's {@link Call#names() name index} (-1 when it
 *     was not found through it), or null when none was; lets a reply copy each name's encoding from
 *     the index
 * @param unknown names the snapshot does not know → reason
 * @param namesMode true when the request used {@code NodeNames}
 * @param given the node objects of a {@code Nodes} request by name
 */
record Candidates(
    Snapshot snapshot,
    List<NodeInfo> nodes,
    int[] positions,
    Map<String, String> unknown,
    boolean namesMode,
    Map<String, Node> given) {

  /** The answer to a request carrying both node fields. */
  static final String BOTH_NODE_FIELDS =
      "\"Nodes\" and \"NodeNames\" are both set: kube-scheduler sends exactly one "
          + "(NodeNames with nodeCacheCapable: true, Nodes with false)";

  /** Every node of {@code snapshot}, as a request naming all of them would have them. */
  static Candidates all(Snapshot snapshot) {
    return new Candidates(snapshot, snapshot.list(), null, Map.of(), true, Map.of());
  }

  /** The position in the call's name index of candidate {@code i}, or -1 when it has none. */
  int position(int i) {
    return positions == null ? -1 : positions[i];
  }

  /**
   * Refuses a request carrying both {@code Nodes} and {@code NodeNames}: kube-scheduler sends
   * exactly one (NodeNames with {@code nodeCacheCapable: true}, Nodes otherwise), so both is a
   * client's mistake, not a choice to make for it.
   */
  static void checkNodeFields(ExtenderArgs args) {
    if (args.nodes() != null && args.nodeNames() != null) {
      throw new BadRequestException(BOTH_NODE_FIELDS);
    }
  }

  /**
   * The candidates of {@code args} on {@code call}'s snapshot: its {@code NodeNames} looked up
   * there, or its {@code Nodes} joined with the cached pods of those nodes and put in place in an
   * overlay of the snapshot. With neither field, every node when {@code allWhenNone}, else a {@link
   * BadRequestException}.
   */
  static Candidates of(Call call, ExtenderArgs args, boolean allWhenNone) {
    checkNodeFields(args);
    Snapshot base = call.snapshot();
    if (args.nodeNames() != null) {
      return named(call, base, args.nodeNames());
    }
    if (args.nodes() != null) {
      return given(base, args.nodes().getItems() == null ? List.of() : args.nodes().getItems());
    }
    if (allWhenNone) {
      return all(base);
    }
    throw new BadRequestException("one of \"Nodes\" or \"NodeNames\" is required");
  }

  private static Candidates named(Call call, Snapshot base, List<String> names) {
    List<NodeInfo> nodes = new ArrayList<>(names.size());
    int[] positions = new int[names.size()];
    Map<String, String> unknown = new LinkedHashMap<>();
    // Names decoded against the call's own index carry their position in the snapshot's node order.
    // A name given twice is answered once, at its first place: by position when indexed, else by
    // name.
    NodeNameList indexed = names instanceof NodeNameList l && l.index() == call.names() ? l : null;
    List<NodeInfo> order = base.list();
    BitSet seenAt = null;
    Set<String> seenNames = null;
    for (int i = 0; i < names.size(); i++) {
      String name = names.get(i);
      if (name == null) {
        throw new BadRequestException("field \"NodeNames\": contains null");
      }
      int position = indexed == null ? -1 : indexed.position(i);
      NodeInfo n;
      if (position >= 0) {
        n = order.get(position);
        seenAt = seenAt == null ? new BitSet() : seenAt;
        if (seenAt.get(position)) {
          continue;
        }
        seenAt.set(position);
      } else {
        n = base.get(name);
        if (n == null) {
          unknown.put(name, String.format(SchedulingCycle.UNKNOWN_NODE, name));
          continue;
        }
        seenNames = seenNames == null ? new HashSet<>() : seenNames;
        if (!seenNames.add(name)) {
          continue;
        }
      }
      positions[nodes.size()] = position;
      nodes.add(n);
    }
    return new Candidates(base, nodes, indexed == null ? null : positions, unknown, true, Map.of());
  }

  private static Candidates given(Snapshot base, List<Node> items) {
    List<NodeInfo> nodes = new ArrayList<>(items.size());
    List<NodeInfo> overrides = new ArrayList<>();
    Map<String, Node> given = new LinkedHashMap<>();
    for (int i = 0; i < items.size(); i++) {
      Node node = items.get(i);
      ObjectMeta meta = node == null ? null : node.getMetadata();
      if (meta == null || meta.getName() == null || meta.getName().isBlank()) {
        throw new BadRequestException(
            "field \"Nodes.items[" + i + "].metadata.name\": is required");
      }
      if (given.putIfAbsent(meta.getName(), node) != null) {
        continue;
      }
      NodeInfo cached = base.get(meta.getName());
      if (cached != null && sameVersion(cached.node(), node)) {
        nodes.add(cached);
        continue;
      }
      NodeInfo joined = cached != null ? cached.snapshotCopy() : new NodeInfo();
      try {
        joined.setNode(node);
      } catch (IllegalArgumentException e) {
        throw new BadRequestException(
            "field \"Nodes.items[" + i + "]\" (node " + meta.getName() + "): " + e.getMessage());
      }
      nodes.add(joined);
      overrides.add(joined);
    }
    return new Candidates(base.withOverrides(overrides), nodes, null, Map.of(), false, given);
  }

  private static boolean sameVersion(Node cached, Node given) {
    String a = cached.getMetadata().getResourceVersion();
    String b = given.getMetadata().getResourceVersion();
    if (a != null && !a.isEmpty() && b != null && !b.isEmpty()) {
      return a.equals(b);
    }
    return Objects.equals(cached, given);
  }
}
