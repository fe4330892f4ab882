package io.schedext.framework;

import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * What a PreFilter plugin returns: its status and, optionally, the only nodes worth filtering; and
 * what the framework's PreFilter run returns, which also names the plugins whose results narrowed
 * the nodes.
 *
 * @param status the plugin's status; never null
 * @param nodeNames the nodes worth filtering, or null for all nodes
 * @param narrowedBy the plugins whose results named nodes, in name order: the framework's PreFilter
 *     run fills it (upstream's {@code unscheduledPlugins}); empty in a plugin's own result
 */
public record PreFilterResult(Status status, Set<String> nodeNames, List<String> narrowedBy) {

  private static final PreFilterResult SUCCESS = new PreFilterResult(Status.success(), null);

  /** A plugin's result: {@code status}, narrowed to {@code nodeNames} (null for all nodes). */
  public PreFilterResult(Status status, Set<String> nodeNames) {
    this(status, nodeNames, List.of());
  }

  /** Success without narrowing. */
  public static PreFilterResult success() {
    return SUCCESS;
  }

  /** A result with this status and no narrowing. */
  public static PreFilterResult of(Status status) {
    return status.isSuccess() && status.plugin() == null
        ? SUCCESS
        : new PreFilterResult(status, null);
  }

  /** Success narrowed to {@code names}. */
  public static PreFilterResult nodes(Set<String> names) {
    return new PreFilterResult(Status.success(), Set.copyOf(names));
  }

  /** True when every node is worth filtering. */
  public boolean allNodes() {
    return nodeNames == null;
  }

  /**
   * The reason a node outside {@link #nodeNames()} is UnschedulableAndUnresolvable for, as
   * upstream's scheduling cycle words it: {@code node(s) didn't satisfy plugin(s) [A B]}, naming
   * {@link #narrowedBy()} as Go prints a string slice.
   */
  public String excludedReason() {
    return "node(s) didn't satisfy plugin(s) [" + String.join(" ", narrowedBy) + "]";
  }

  /** The intersection of two narrowings (null = all nodes). */
  public static Set<String> merge(Set<String> a, Set<String> b) {
    if (a == null) {
      return b;
    }
    if (b == null) {
      return a;
    }
    Set<String> out = new HashSet<>(a);
    out.retainAll(b);
    return out;
  }

  /** Keeps only the names in {@code allowed}, in list order. */
  public static List<String> restrict(List<String> names, Set<String> allowed) {
    return allowed == null ? names : names.stream().filter(allowed::contains).toList();
  }
}
