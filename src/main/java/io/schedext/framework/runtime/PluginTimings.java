package io.schedext.framework.runtime;

import io.schedext.framework.Code;
import io.schedext.framework.CycleState;
import io.schedext.framework.FrameworkMetrics;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * Which plugin calls of a cycle sampled for plugin metrics are timed, and the timing of one call:
 * shared by the extension points that time their plugins.
 */
final class PluginTimings {

  private PluginTimings() {}

  /**
   * The node-index step between nodes whose plugin calls are timed in a run over {@code nodes}
   * nodes: at most {@link Framework#PLUGIN_METRICS_NODES} of them, spread evenly; 0 when the cycle
   * records no plugin metrics.
   */
  static int timingStride(CycleState state, int nodes) {
    return state.recordPluginMetrics()
        ? Math.max(1, (nodes + Framework.PLUGIN_METRICS_NODES - 1) / Framework.PLUGIN_METRICS_NODES)
        : 0;
  }

  /** Whether node {@code index} of a run timing every {@code stride}-th node (0: none) is timed. */
  static boolean timed(int stride, int index) {
    return stride != 0 && index % stride == 0;
  }

  /** How many of {@code nodes} nodes a cycle timing every {@code stride}-th one times. */
  static int sampledNodes(int nodes, int stride) {
    return (nodes + stride - 1) / stride;
  }

  /**
   * Runs {@code call} for {@code plugin} at {@code point}, timing it into {@code metrics} when the
   * cycle records plugin metrics; {@code code} reads the outcome's status code.
   */
  static <T> T timed(
      FrameworkMetrics metrics,
      CycleState state,
      String plugin,
      String point,
      Supplier<T> call,
      Function<T, Code> code) {
    if (!state.recordPluginMetrics()) {
      return call.get();
    }
    long t0 = System.nanoTime();
    T r = call.get();
    metrics.plugin(plugin, point, code.apply(r), System.nanoTime() - t0);
    return r;
  }
}
