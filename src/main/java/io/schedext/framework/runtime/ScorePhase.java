package io.schedext.framework.runtime;

import io.schedext.framework.Code;
import io.schedext.framework.CycleState;
import io.schedext.framework.ExtensionPoint;
import io.schedext.framework.FrameworkException;
import io.schedext.framework.NodeInfo;
import io.schedext.framework.NodeScores;
import io.schedext.framework.PodInfo;
import io.schedext.framework.PreScorePlugin;
import io.schedext.framework.ScoreExtensions;
import io.schedext.framework.ScorePlugin;
import io.schedext.framework.ScoreResult;
import io.schedext.framework.Status;
import io.schedext.framework.parallelize.Parallelizer;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.BiConsumer;

/**
 * The PreScore and Score extension points of one profile's framework, as upstream's {@code
 * RunPreScorePlugins} and {@code RunScorePlugins}: every plugin's score of every node in parallel,
 * then NormalizeScore per plugin, then the weights. {@link Framework} exposes it. Thread-safe.
 */
final class ScorePhase {

  private final String profileName;
  private final PreScorePlugin[] preScorePlugins;
  private final ScorePlugin[] scorePlugins;
  private final int[] scoreWeights;
  private final FrameworkServices services;

  /**
   * The per-plugin score arrays of the last Score phase that kept no raw scores (prioritize's),
   * taken by the next one over as many nodes: its result holds none of them. At 5,000 nodes they
   * were some 280 KB of a prioritize call's 350 KB of garbage, and a young collection (3–7 ms on
   * two CPUs) came every 300 calls or so, each one making a call several times as long.
   */
  private final AtomicReference<long[][]> spareScores = new AtomicReference<>();

  /** The PreScore and Score of {@code profileName}'s plugins, with the Score plugins' weights. */
  ScorePhase(
      String profileName,
      PreScorePlugin[] preScorePlugins,
      ScorePlugin[] scorePlugins,
      int[] scoreWeights,
      FrameworkServices services) {
    this.profileName = profileName;
    this.preScorePlugins = preScorePlugins;
    this.scorePlugins = scorePlugins;
    this.scoreWeights = scoreWeights;
    this.services = services;
  }

  /**
   * Runs every PreScore plugin; Skip marks the plugin's Score skipped; any other failure is an
   * Error.
   */
  Status runPreScorePlugins(CycleState state, PodInfo pod, List<NodeInfo> nodes) {
    return runPreScorePlugins(state, pod, nodes, null);
  }

  /**
   * As {@link #runPreScorePlugins(CycleState, PodInfo, List)}, reporting each plugin's status to
   * {@code observer}.
   */
  Status runPreScorePlugins(
      CycleState state, PodInfo pod, List<NodeInfo> nodes, BiConsumer<String, Status> observer) {
    long start = System.nanoTime();
    Status out = Status.success();
    for (PreScorePlugin pl : preScorePlugins) {
      Status s =
          PluginTimings.timed(
              services.metrics(),
              state,
              pl.name(),
              "PreScore",
              () -> {
                try {
                  Status r = pl.preScore(state, pod, nodes);
                  return r == null ? Status.success() : r;
                } catch (FrameworkException | IllegalArgumentException e) {
                  return Status.error(e);
                }
              },
              Status::code);
      if (observer != null) {
        observer.accept(pl.name(), s);
      }
      if (s.isSkip()) {
        state.skipScorePlugins().add(pl.name());
        continue;
      }
      if (!s.isSuccess()) {
        out = Status.error("running PreScore plugin \"" + pl.name() + "\": " + s.message());
        break;
      }
    }
    services
        .metrics()
        .extensionPoint(
            profileName, ExtensionPoint.PRE_SCORE, out.code(), System.nanoTime() - start);
    return out;
  }

  /**
   * Scores every node with every Score plugin not skipped (in parallel over nodes), normalises per
   * plugin, checks the 0–100 range and applies weights. Returns the per-plugin scores and the
   * weighted totals, or an Error status.
   */
  ScoreResult runScorePlugins(CycleState state, PodInfo pod, List<NodeInfo> nodeList) {
    return runScorePlugins(state, pod, nodeList, true);
  }

  /**
   * As {@link #runScorePlugins(CycleState, PodInfo, List)}; with {@code keepRaw} false the raw
   * (pre-normalisation) scores are not copied and {@link ScoreResult#raw()} and {@link
   * ScoreResult#normalized()} are null — the prioritize path needs only the totals — and the
   * per-plugin arrays are reused from the call before, over as many nodes.
   */
  ScoreResult runScorePlugins(
      CycleState state, PodInfo pod, List<NodeInfo> nodeList, boolean keepRaw) {
    long start = System.nanoTime();
    ScoreResult r = doRunScore(state, pod, nodeList, keepRaw);
    services
        .metrics()
        .extensionPoint(
            profileName, ExtensionPoint.SCORE, r.status().code(), System.nanoTime() - start);
    return r;
  }

  private ScoreResult doRunScore(
      CycleState state, PodInfo pod, List<NodeInfo> nodeList, boolean keepRaw) {
    NodeInfo[] nodes = nodeList.toArray(new NodeInfo[0]);
    List<ScorePlugin> active = new ArrayList<>(scorePlugins.length);
    List<Integer> weights = new ArrayList<>(scorePlugins.length);
    for (int i = 0; i < scorePlugins.length; i++) {
      if (!state.skipScorePlugins().contains(scorePlugins[i].name())) {
        active.add(scorePlugins[i]);
        weights.add(scoreWeights[i]);
      }
    }
    int np = active.size();
    long[][] reused = keepRaw ? null : takeSpareScores(np, nodes.length);
    try {
      return score(state, pod, nodes, active, weights, reused);
    } finally {
      if (reused != null) {
        spareScores.set(reused);
      }
    }
  }

  /**
   * The spare per-plugin score arrays for {@code plugins} plugins over {@code nodes} nodes, or new
   * ones; no other call uses them until they are handed back.
   */
  private long[][] takeSpareScores(int plugins, int nodes) {
    long[][] spare = spareScores.getAndSet(null);
    if (spare != null && spare.length == plugins && (plugins == 0 || spare[0].length == nodes)) {
      return spare;
    }
    return new long[plugins][nodes];
  }

  /**
   * The Score phase of {@link #doRunScore}, as upstream's {@code RunScorePlugins}: every plugin's
   * score of every node ({@link #scoreNodes}), each plugin's scores normalised ({@link
   * #normalizeScores}), then weighted and summed ({@link #applyWeights}). The plugins' scores go in
   * {@code reused} (one array per plugin, its values overwritten) or, when null, in new arrays kept
   * with the raw scores; a result over {@code reused} holds none of them (no raw or normalised
   * scores, the totals only).
   */
  private ScoreResult score(
      CycleState state,
      PodInfo pod,
      NodeInfo[] nodes,
      List<ScorePlugin> active,
      List<Integer> weights,
      long[][] reused) {
    int np = active.size();
    NodeScores[] perPlugin = new NodeScores[np];
    for (int p = 0; p < np; p++) {
      perPlugin[p] = reused == null ? new NodeScores(nodes) : NodeScores.over(nodes, reused[p]);
    }
    Status scored = scoreNodes(state, pod, nodes, active, perPlugin);
    if (!scored.isSuccess()) {
      return ScoreResult.failed(scored);
    }
    long[][] raw = null;
    if (reused == null) {
      raw = new long[np][];
      for (int p = 0; p < np; p++) {
        raw[p] = perPlugin[p].toArray();
      }
    }
    Status normalized = normalizeScores(state, pod, active, perPlugin);
    if (!normalized.isSuccess()) {
      return ScoreResult.failed(normalized);
    }
    return applyWeights(nodes, active, weights, perPlugin, raw);
  }

  /**
   * Every plugin's score of every node into {@code perPlugin}, in parallel over the nodes; in a
   * cycle sampled for plugin metrics, the calls on at most {@link Framework#PLUGIN_METRICS_NODES}
   * nodes are timed. An Error when a plugin throws.
   */
  private Status scoreNodes(
      CycleState state,
      PodInfo pod,
      NodeInfo[] nodes,
      List<ScorePlugin> active,
      NodeScores[] perPlugin) {
    int np = active.size();
    int stride = PluginTimings.timingStride(state, nodes.length);
    // Scores go to the running worker's part of the scratch array first, node by node and plugin by
    // plugin, and into the per-plugin arrays when the block is stored (see
    // Parallelizer.untilLight).
    Parallelizer.Scratch layout = new Parallelizer.Scratch(np);
    long[] scratch = new long[layout.length(services.parallelizer().parallelism())];
    // A sampled cycle's durations go beside the scores in a scratch array of the same layout, are
    // kept per sampled node when the block is stored, and are recorded on this thread after the
    // loop: recorded from the workers, the plugin timers' counters met a second thread at once, and
    // that first contention threw the compiled score loop away (docs/performance.md).
    long[] durationScratch = stride == 0 ? null : new long[scratch.length];
    long[] durations =
        stride == 0 ? null : new long[PluginTimings.sampledNodes(nodes.length, stride) * np];
    try {
      services
          .parallelizer()
          .untilLight(
              nodes.length,
              new Parallelizer.Blocks(nodes.length) {
                @Override
                protected void compute(int from, int to, int worker) {
                  int at = layout.start(worker);
                  for (int i = from; i < to; i++) {
                    boolean sample = PluginTimings.timed(stride, i);
                    for (int p = 0; p < np; p++) {
                      ScorePlugin pl = active.get(p);
                      long t0 = sample ? System.nanoTime() : 0;
                      try {
                        scratch[at] = pl.score(state, pod, nodes[i]);
                      } catch (FrameworkException | IllegalArgumentException e) {
                        throw new ScoreFailure(
                            "plugin \"" + pl.name() + "\" failed with: " + e.getMessage(), e);
                      }
                      if (sample) {
                        durationScratch[at] = System.nanoTime() - t0;
                      }
                      at++;
                    }
                  }
                }

                @Override
                protected void store(int from, int to, int worker) {
                  int at = layout.start(worker);
                  for (int i = from; i < to; i++) {
                    boolean sample = PluginTimings.timed(stride, i);
                    for (int p = 0; p < np; p++) {
                      if (sample) {
                        durations[(i / stride) * np + p] = durationScratch[at];
                      }
                      perPlugin[p].set(i, scratch[at++]);
                    }
                  }
                }
              });
    } catch (ScoreFailure e) {
      return Status.error("running Score plugins: " + e.getMessage());
    }
    if (durations != null) {
      for (int k = 0; k < durations.length; k++) {
        services.metrics().plugin(active.get(k % np).name(), "Score", Code.SUCCESS, durations[k]);
      }
    }
    return Status.success();
  }

  /** Each plugin's NormalizeScore on its scores; an Error naming the first plugin that fails. */
  private static Status normalizeScores(
      CycleState state, PodInfo pod, List<ScorePlugin> active, NodeScores[] perPlugin) {
    for (int p = 0; p < active.size(); p++) {
      ScorePlugin pl = active.get(p);
      ScoreExtensions ext = pl.scoreExtensions();
      if (ext == null) {
        continue;
      }
      Status s;
      try {
        s = ext.normalizeScore(state, pod, perPlugin[p]);
      } catch (FrameworkException | IllegalArgumentException e) {
        s = Status.error(e);
      }
      if (s != null && !s.isSuccess()) {
        return Status.error(
            "running Normalize on Score plugins: plugin \""
                + pl.name()
                + "\" failed with: "
                + s.message());
      }
    }
    return Status.success();
  }

  /**
   * The weighted sum of the normalised scores per node, after checking each is within 0–100; an
   * Error result naming the plugin of the first score out of range. {@code raw}, when not null,
   * goes into the result with the normalised scores.
   */
  private static ScoreResult applyWeights(
      NodeInfo[] nodes,
      List<ScorePlugin> active,
      List<Integer> weights,
      NodeScores[] perPlugin,
      long[][] raw) {
    int np = active.size();
    long[] totals = new long[nodes.length];
    long[][] normalized = new long[np][];
    int[] w = new int[np];
    String[] names = new String[np];
    for (int p = 0; p < np; p++) {
      names[p] = active.get(p).name();
      w[p] = weights.get(p);
      normalized[p] = perPlugin[p].values();
      for (int i = 0; i < nodes.length; i++) {
        long s = normalized[p][i];
        if (s > ScorePlugin.MAX_NODE_SCORE || s < ScorePlugin.MIN_NODE_SCORE) {
          return ScoreResult.failed(
              Status.error(
                  "applying score defaultWeights on Score plugins: plugin \""
                      + names[p]
                      + "\" returns an invalid score "
                      + s
                      + ", it should in the range of ["
                      + ScorePlugin.MIN_NODE_SCORE
                      + ", "
                      + ScorePlugin.MAX_NODE_SCORE
                      + "] after normalizing"));
        }
        totals[i] += s * w[p];
      }
    }
    return new ScoreResult(
        Status.success(), nodes, names, w, raw, raw != null ? normalized : null, totals);
  }

  private static final class ScoreFailure extends RuntimeException {
    ScoreFailure(String message, Throwable cause) {
      super(message, cause, false, false);
    }
  }
}
