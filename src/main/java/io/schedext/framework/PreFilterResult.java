package io.schedext.framework;

import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * What a PreFilter plugin returns: its status and, optionally, the only nodes worth filtering.
 *
 * @param status the plugin's status; never null
 * @param nodeNames the nodes worth filtering, or null for all nodes
 */
public record PreFilterResult(Status status, Set<String> nodeNames) {

  private static final PreFilterResult SUCCESS = new PreFilterResult(Status.success(), null);

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
