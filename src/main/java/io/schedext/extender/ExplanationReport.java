package io.schedext.extender;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * An {@link Explanation} as a short text for people ({@code Accept: text/plain} or {@code
 * ?format=text}): the summary line, the feasible nodes best first with the plugin scores that set
 * them apart, the rejected nodes grouped by what rejected them, what plugins found out about their
 * rejections (DynamicResources: which request of which claim, and why), and the preemption what-if.
 * Its length is bounded whatever the node count: at most {@link #FEASIBLE_LINES} feasible nodes,
 * {@link #NAMES_PER_GROUP} names per group and {@link #DETAIL_GROUPS} groups of findings per plugin
 * are listed, the rest counted. Stateless.
 */
final class ExplanationReport {

  /** Feasible nodes listed one per line; the others are counted. */
  static final int FEASIBLE_LINES = 20;

  /** Node names listed per rejection group; the others are counted. */
  static final int NAMES_PER_GROUP = 5;

  /** Plugin scores shown per feasible node. */
  static final int SCORES_PER_NODE = 4;

  /** Groups of nodes with the same detail shown per plugin; the others are counted. */
  static final int DETAIL_GROUPS = 3;

  /** A detail line naming one node's own device; shown for the first node of its group. */
  private static final String FIRST_FAILING = "first failing: ";

  private ExplanationReport() {}

  /** Renders {@code e}; every line ends with a newline. */
  static String render(Explanation e) {
    StringBuilder out = new StringBuilder();
    out.append("pod ").append(e.pod()).append(" (profile ").append(e.profile()).append(")\n");
    if (e.boundNode() != null) {
      out.append("bound to ")
          .append(e.boundNode())
          .append("; explained as if it were not (")
          .append(
              e.feasibleNodes().contains(e.boundNode())
                  ? "it would still fit there"
                  : "it would not fit there now")
          .append(")\n");
    }
    out.append(e.summary()).append('\n');
    feasible(e, out);
    rejected(e, out);
    details(e, out);
    preemption(e, out);
    return out.toString();
  }

  private static void feasible(Explanation e, StringBuilder out) {
    List<Explanation.NodeVerdict> nodes =
        e.nodes().stream()
            .filter(n -> n.feasible() && n.totalScore() != null)
            .sorted(
                Comparator.comparing(Explanation.NodeVerdict::totalScore)
                    .reversed()
                    .thenComparing(Explanation.NodeVerdict::node))
            .toList();
    if (nodes.isEmpty()) {
      return;
    }
    out.append("\nfeasible: ")
        .append(nodes.size())
        .append(nodes.size() == 1 ? " node" : " nodes")
        .append(", highest total score first (extender score 0-10 in brackets)\n");
    List<Explanation.NodeVerdict> shown = nodes.subList(0, Math.min(nodes.size(), FEASIBLE_LINES));
    List<String> deciding = decidingPlugins(shown);
    int nameWidth = shown.stream().mapToInt(n -> n.node().length()).max().orElse(0);
    int scoreWidth =
        shown.stream().mapToInt(n -> Long.toString(n.totalScore()).length()).max().orElse(0);
    for (Explanation.NodeVerdict n : shown) {
      out.append("  ")
          .append(pad(n.node(), nameWidth))
          .append("  ")
          .append(padLeft(Long.toString(n.totalScore()), scoreWidth))
          .append(" [")
          .append(padLeft(String.valueOf(n.extenderScore()), 2))
          .append("]");
      List<String> parts = new ArrayList<>();
      for (Explanation.PluginScore s : n.scores()) {
        if (deciding.contains(s.plugin())) {
          parts.add(s.plugin() + " " + s.weighted());
        }
      }
      if (!parts.isEmpty()) {
        out.append("  ").append(String.join(", ", parts));
      }
      out.append('\n');
    }
    if (nodes.size() > shown.size()) {
      out.append("  ... and ").append(nodes.size() - shown.size()).append(" more feasible nodes\n");
    }
  }

  /**
   * The plugins whose weighted score differs between the listed nodes (those decide their order),
   * most spread first, at most {@link #SCORES_PER_NODE}; with a single node listed, its highest
   * weighted scores.
   */
  private static List<String> decidingPlugins(List<Explanation.NodeVerdict> nodes) {
    Map<String, long[]> range = new LinkedHashMap<>();
    for (Explanation.NodeVerdict n : nodes) {
      for (Explanation.PluginScore s : n.scores()) {
        range.merge(
            s.plugin(),
            new long[] {s.weighted(), s.weighted()},
            (a, b) -> new long[] {Math.min(a[0], b[0]), Math.max(a[1], b[1])});
      }
    }
    boolean single = nodes.size() == 1;
    return range.entrySet().stream()
        .filter(r -> single ? r.getValue()[1] > 0 : r.getValue()[1] > r.getValue()[0])
        .sorted(
            Comparator.comparingLong(
                    (Map.Entry<String, long[]> r) ->
                        single ? r.getValue()[1] : r.getValue()[1] - r.getValue()[0])
                .reversed())
        .limit(SCORES_PER_NODE)
        .map(Map.Entry::getKey)
        .toList();
  }

  private static void rejected(Explanation e, StringBuilder out) {
    Map<String, List<String>> groups = new LinkedHashMap<>();
    int rejected = 0;
    for (Explanation.NodeVerdict n : e.nodes()) {
      if (n.feasible()) {
        continue;
      }
      rejected++;
      groups.computeIfAbsent(rejection(n), k -> new ArrayList<>()).add(n.node());
    }
    if (rejected == 0) {
      return;
    }
    out.append("\nrejected: ")
        .append(rejected)
        .append(rejected == 1 ? " node" : " nodes")
        .append(", grouped by the filters that rejected them\n");
    List<Map.Entry<String, List<String>>> sorted =
        groups.entrySet().stream()
            .sorted(
                Comparator.comparingInt((Map.Entry<String, List<String>> g) -> g.getValue().size())
                    .reversed()
                    .thenComparing(Map.Entry::getKey))
            .toList();
    int countWidth = Integer.toString(sorted.get(0).getValue().size()).length();
    String indent = " ".repeat(countWidth + 4);
    for (Map.Entry<String, List<String>> g : sorted) {
      List<String> names = g.getValue().stream().sorted().toList();
      out.append("  ")
          .append(padLeft(Integer.toString(names.size()), countWidth))
          .append("  ")
          .append(g.getKey())
          .append('\n');
      out.append(indent)
          .append(String.join(", ", names.subList(0, Math.min(names.size(), NAMES_PER_GROUP))));
      if (names.size() > NAMES_PER_GROUP) {
        out.append(" ... and ").append(names.size() - NAMES_PER_GROUP).append(" more");
      }
      out.append('\n');
    }
  }

  /**
   * Every rejecting plugin of a node with its reasons, in filter order: {@code Plugin: reason;
   * Plugin: reason}.
   */
  private static String rejection(Explanation.NodeVerdict n) {
    List<String> parts = new ArrayList<>();
    for (Explanation.PluginStatus s : n.filters()) {
      if (s.code().equals("Success")) {
        continue;
      }
      String reasons = s.reasons().isEmpty() ? s.code() : String.join(", ", s.reasons());
      parts.add(s.plugin().isEmpty() ? reasons : s.plugin() + ": " + reasons);
    }
    return parts.isEmpty() ? "not evaluated" : String.join("; ", parts);
  }

  /**
   * What filter plugins add about their rejections ({@link Explanation.Detail}), per plugin, the
   * rejected nodes grouped by the same account (largest group first, at most {@link
   * #DETAIL_GROUPS}). A line naming a device of the node itself (the first failing expression and
   * the device it rejected) is shown for the group's first node.
   */
  private static void details(Explanation e, StringBuilder out) {
    Map<String, Map<List<String>, List<String>>> byPlugin = new LinkedHashMap<>();
    Map<String, String> firstFailing = new LinkedHashMap<>();
    for (Explanation.NodeVerdict n : e.nodes()) {
      if (n.feasible() || n.filters() == null) {
        continue;
      }
      for (Explanation.PluginStatus s : n.filters()) {
        if (s.detail() == null || s.detail().lines().isEmpty()) {
          continue;
        }
        List<String> key = new ArrayList<>();
        String failing = null;
        for (String line : s.detail().lines()) {
          if (line.startsWith(FIRST_FAILING)) {
            failing = line.substring(FIRST_FAILING.length());
          } else {
            key.add(line);
          }
        }
        List<String> nodes =
            byPlugin
                .computeIfAbsent(s.plugin(), k -> new LinkedHashMap<>())
                .computeIfAbsent(key, k -> new ArrayList<>());
        nodes.add(n.node());
        if (failing != null) {
          firstFailing.putIfAbsent(s.plugin() + "\u0000" + key, n.node() + ": " + failing);
        }
      }
    }
    for (Map.Entry<String, Map<List<String>, List<String>>> p : byPlugin.entrySet()) {
      out.append('\n').append(p.getKey()).append(", rejected nodes grouped by what it found\n");
      List<Map.Entry<List<String>, List<String>>> groups =
          p.getValue().entrySet().stream()
              .sorted(
                  Comparator.comparingInt(
                          (Map.Entry<List<String>, List<String>> g) -> g.getValue().size())
                      .reversed())
              .toList();
      int width = Integer.toString(groups.get(0).getValue().size()).length();
      String indent = " ".repeat(width + 4);
      for (Map.Entry<List<String>, List<String>> g :
          groups.subList(0, Math.min(groups.size(), DETAIL_GROUPS))) {
        List<String> lines = g.getKey();
        out.append("  ")
            .append(padLeft(Integer.toString(g.getValue().size()), width))
            .append("  ")
            .append(lines.isEmpty() ? "" : lines.get(0))
            .append('\n');
        for (String line : lines.subList(Math.min(1, lines.size()), lines.size())) {
          out.append(indent).append(line).append('\n');
        }
        String failing = firstFailing.get(p.getKey() + "\u0000" + lines);
        if (failing != null) {
          out.append(indent).append("first failing on ").append(failing).append('\n');
        }
        List<String> names = g.getValue().stream().sorted().toList();
        out.append(indent)
            .append(String.join(", ", names.subList(0, Math.min(names.size(), NAMES_PER_GROUP))));
        if (names.size() > NAMES_PER_GROUP) {
          out.append(" ... and ").append(names.size() - NAMES_PER_GROUP).append(" more");
        }
        out.append('\n');
      }
      if (groups.size() > DETAIL_GROUPS) {
        int rest =
            groups.subList(DETAIL_GROUPS, groups.size()).stream()
                .mapToInt(g -> g.getValue().size())
                .sum();
        out.append("  ... and ")
            .append(rest)
            .append(rest == 1 ? " more node" : " more nodes")
            .append(" with other findings\n");
      }
    }
  }

  private static void preemption(Explanation e, StringBuilder out) {
    if (e.error() != null || !e.feasibleNodes().isEmpty()) {
      return;
    }
    out.append("\npreemption (what-if; nothing is evicted)\n");
    Explanation.Preemption p = e.preemption();
    if (p == null) {
      out.append("  not tried: the profile has no PostFilter plugin\n");
    } else if (p.nominatedNode() != null) {
      out.append("  would nominate ")
          .append(p.nominatedNode())
          .append(" and evict ")
          .append(p.victims().size())
          .append(p.victims().size() == 1 ? " pod" : " pods")
          .append('\n');
      for (Explanation.Victim v : p.victims()) {
        out.append("    ").append(v.pod()).append(" (priority ").append(v.priority()).append(")\n");
      }
    } else {
      out.append("  cannot help: ")
          .append(p.reasons().isEmpty() ? p.code() : String.join(", ", p.reasons()))
          .append('\n');
    }
  }

  private static String pad(String s, int width) {
    return s.length() >= width ? s : s + " ".repeat(width - s.length());
  }

  private static String padLeft(String s, int width) {
    return s.length() >= width ? s : " ".repeat(width - s.length()) + s;
  }
}
