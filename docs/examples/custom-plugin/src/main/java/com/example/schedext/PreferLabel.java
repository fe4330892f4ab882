package com.example.schedext;

import io.schedext.framework.CycleState;
import io.schedext.framework.FilterPlugin;
import io.schedext.framework.FrameworkException;
import io.schedext.framework.Handle;
import io.schedext.framework.NodeInfo;
import io.schedext.framework.PluginArgs;
import io.schedext.framework.PodInfo;
import io.schedext.framework.ScoreExtensions;
import io.schedext.framework.ScorePlugin;
import io.schedext.framework.Status;
import java.util.List;
import java.util.Set;

/**
 * An example plugin: nodes whose label {@code key} has one of the {@code preferred} values score 100, the others 0;
 * with {@code required: true}, the others are filtered out instead.
 */
public final class PreferLabel implements FilterPlugin, ScorePlugin {

  /** The name profiles enable it under. */
  public static final String NAME = "PreferLabel";

  /**
   * The plugin's typed args, as written under {@code pluginConfig[].args} of a profile.
   *
   * @param key the node label to look at
   * @param preferred the values that are preferred (or required)
   * @param required filter out nodes without a preferred value instead of only scoring them lower
   */
  public record Args(String key, List<String> preferred, boolean required) {

    /** Applies defaults. */
    public Args {
      preferred = preferred == null ? List.of() : List.copyOf(preferred);
    }
  }

  private final String key;
  private final Set<String> preferred;
  private final boolean required;
  private final Status rejected;

  private PreferLabel(Args args) {
    this.key = args.key();
    this.preferred = Set.copyOf(args.preferred());
    this.required = args.required();
    this.rejected = Status.unresolvable("node(s) didn't have label " + key + " in " + args.preferred()).withPlugin(NAME);
  }

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public Status filter(CycleState state, PodInfo pod, NodeInfo node) {
    if (!required || matches(node)) {
      return Status.success();
    }
    return rejected;
  }

  @Override
  public long score(CycleState state, PodInfo pod, NodeInfo node) {
    return matches(node) ? MAX_NODE_SCORE : MIN_NODE_SCORE;
  }

  @Override
  public ScoreExtensions scoreExtensions() {
    return null;
  }

  private boolean matches(NodeInfo node) {
    String v = node.labels().get(key);
    return v != null && preferred.contains(v);
  }

  /** Builds the plugin from its args; a missing key stops start-up with a message naming the field. */
  public static PreferLabel create(PluginArgs args, Handle handle) {
    Args a = args.as(Args.class);
    if (a.key() == null || a.key().isBlank()) {
      throw new FrameworkException("PreferLabel args: key: Required value");
    }
    if (a.preferred().isEmpty()) {
      throw new FrameworkException("PreferLabel args: preferred: Required value: at least one value");
    }
    return new PreferLabel(a);
  }
}
