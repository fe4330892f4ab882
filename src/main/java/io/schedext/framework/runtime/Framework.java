package io.schedext.framework.runtime;

import com.fasterxml.jackson.databind.JsonNode;
import io.schedext.framework.BindPlugin;
import io.schedext.framework.ClusterObjects;
import io.schedext.framework.Code;
import io.schedext.framework.CycleState;
import io.schedext.framework.ExtensionPoint;
import io.schedext.framework.FilterPlugin;
import io.schedext.framework.FrameworkException;
import io.schedext.framework.Handle;
import io.schedext.framework.NodeInfo;
import io.schedext.framework.NodeInfoLister;
import io.schedext.framework.NodeScores;
import io.schedext.framework.PermitPlugin;
import io.schedext.framework.Plugin;
import io.schedext.framework.PluginArgs;
import io.schedext.framework.PluginFactory;
import io.schedext.framework.PluginsRunner;
import io.schedext.framework.PodBinder;
import io.schedext.framework.PodInfo;
import io.schedext.framework.PodNominator;
import io.schedext.framework.PostBindPlugin;
import io.schedext.framework.PostFilterPlugin;
import io.schedext.framework.PostFilterResult;
import io.schedext.framework.PreBindPlugin;
import io.schedext.framework.PreFilterExtensions;
import io.schedext.framework.PreFilterPlugin;
import io.schedext.framework.PreFilterResult;
import io.schedext.framework.PreScorePlugin;
import io.schedext.framework.Profile;
import io.schedext.framework.Registry;
import io.schedext.framework.ReservePlugin;
import io.schedext.framework.ScoreExtensions;
import io.schedext.framework.ScorePlugin;
import io.schedext.framework.ScoreResult;
import io.schedext.framework.Status;
import io.schedext.framework.VolumeWriter;
import io.schedext.framework.WaitingPod;
import io.schedext.framework.WaitingPods;
import io.schedext.framework.parallelize.Parallelizer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.BiConsumer;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * One profile's plugins, instantiated once, and the runners for every extension point with
 * upstream's semantics: ordering, Skip handling, status wrapping and error texts. Thread-safe: any
 * number of cycles may run at once, each with its own {@link CycleState}.
 */
public final class Framework implements PluginsRunner {

  private static final org.slf4j.Logger log = org.slf4j.LoggerFactory.getLogger(Framework.class);

  /** Longest time a Permit plugin may make a pod wait. */
  public static final Duration MAX_PERMIT_WAIT = Duration.ofMinutes(15);

  private volatile double pluginMetricsSamplePercent = 10;

  private final String profileName;
  private final List<String> notEvaluated;
  private final FrameworkServices services;
  private final Map<String, Plugin> plugins;
  private final Map<String, JsonNode> pluginArgs;
  private final PreFilterPlugin[] preFilterPlugins;
  private final FilterPlugin[] filterPlugins;
  private final PostFilterPlugin[] postFilterPlugins;
  private final PreScorePlugin[] preScorePlugins;
  private final ScorePlugin[] scorePlugins;
  private final int[] scoreWeights;
  private final ReservePlugin[] reservePlugins;
  private final PermitPlugin[] permitPlugins;
  private final PreBindPlugin[] preBindPlugins;
  private final BindPlugin[] bindPlugins;
  private final PostBindPlugin[] postBindPlugins;
  private final Handle handle;

  /**
   * The per-plugin score arrays of the last Score phase that kept no raw scores (prioritize's),
   * taken by the next one over as many nodes: its result holds none of them. At 5,000 nodes they
   * were some 280 KB of a prioritize call's 350 KB of garbage, and a young collection (3–7 ms on
   * two CPUs) came every 300 calls or so, each one making a call several times as long.
   */
  private final AtomicReference<long[][]> spareScores = new AtomicReference<>();

  private Framework(Profile profile, Registry registry, FrameworkServices services) {
    this.profileName = profile.name();
    this.notEvaluated = profile.notEvaluated();
    this.services = services;
    this.handle = new FrameworkHandle();
    Map<ExtensionPoint, List<Profile.PluginRef>> expanded = new LinkedHashMap<>();
    Set<String> needed = new LinkedHashSet<>();
    for (Profile.PluginRef r : profile.multiPoint()) {
      needed.add(r.name());
    }
    for (Profile.PluginSet s : profile.points().values()) {
      s.enabled().forEach(r -> needed.add(r.name()));
    }
    Map<String, Plugin> instances = new LinkedHashMap<>();
    for (String name : needed) {
      PluginFactory f = registry.get(name);
      if (f == null) {
        throw new FrameworkException(
            "plugin \""
                + name
                + "\" does not exist (profile \""
                + profileName
                + "\"); registered plugins: "
                + registry.names());
      }
      Plugin p = f.create(PluginArgs.of(name, profile.pluginArgs().get(name)), handle);
      if (p == null || !name.equals(p.name())) {
        throw new FrameworkException(
            "plugin factory for \""
                + name
                + "\" returned a plugin named "
                + (p == null ? "null" : "\"" + p.name() + "\""));
      }
      instances.put(name, p);
    }
    for (String argsFor : profile.pluginArgs().keySet()) {
      if (!instances.containsKey(argsFor)) {
        throw new FrameworkException(
            "pluginConfig has args for plugin \""
                + argsFor
                + "\", which is not enabled in profile \""
                + profileName
                + "\"");
      }
    }
    this.plugins = Collections.unmodifiableMap(instances);
    this.pluginArgs = profile.pluginArgs();
    for (ExtensionPoint point : ExtensionPoint.values()) {
      expanded.put(point, expand(point, profile, instances));
    }
    this.preFilterPlugins = typed(expanded, ExtensionPoint.PRE_FILTER, PreFilterPlugin.class);
    this.filterPlugins = typed(expanded, ExtensionPoint.FILTER, FilterPlugin.class);
    this.postFilterPlugins = typed(expanded, ExtensionPoint.POST_FILTER, PostFilterPlugin.class);
    this.preScorePlugins = typed(expanded, ExtensionPoint.PRE_SCORE, PreScorePlugin.class);
    this.scorePlugins = typed(expanded, ExtensionPoint.SCORE, ScorePlugin.class);
    this.reservePlugins = typed(expanded, ExtensionPoint.RESERVE, ReservePlugin.class);
    this.permitPlugins = typed(expanded, ExtensionPoint.PERMIT, PermitPlugin.class);
    this.preBindPlugins = typed(expanded, ExtensionPoint.PRE_BIND, PreBindPlugin.class);
    this.bindPlugins = typed(expanded, ExtensionPoint.BIND, BindPlugin.class);
    this.postBindPlugins = typed(expanded, ExtensionPoint.POST_BIND, PostBindPlugin.class);
    List<Profile.PluginRef> scoreRefs = expanded.get(ExtensionPoint.SCORE);
    this.scoreWeights = new int[scoreRefs.size()];
    long total = 0;
    for (int i = 0; i < scoreWeights.length; i++) {
      int w = scoreRefs.get(i).weight();
      if (w < 0) {
        throw new FrameworkException(
            "score plugin \"" + scoreRefs.get(i).name() + "\" has a negative weight " + w);
      }
      scoreWeights[i] = w == 0 ? 1 : w;
      total += (long) scoreWeights[i] * ScorePlugin.MAX_NODE_SCORE;
      if (total < 0) {
        throw new FrameworkException("total score of Score plugins could overflow");
      }
    }
  }

  /**
   * Instantiates {@code profile}'s plugins from {@code registry}. Throws {@link FrameworkException}
   * naming the profile and plugin when a plugin is unknown, does not implement a point it is
   * enabled at, or rejects its args.
   */
  public static Framework create(Profile profile, Registry registry, FrameworkServices services) {
    return new Framework(profile, registry, services);
  }

  /**
   * The plugins of one point, as upstream orders them: plugins enabled both explicitly and in
   * multiPoint (explicit order), then multiPoint-only plugins, then explicit-only plugins. A
   * multiPoint plugin disabled at the point is left out there (and, when also enabled explicitly,
   * keeps the explicit-only position); {@code "*"} disabled at the point skips the multiPoint
   * expansion there, leaving the explicit list exactly as written.
   */
  private static List<Profile.PluginRef> expand(
      ExtensionPoint point, Profile profile, Map<String, Plugin> instances) {
    Profile.PluginSet explicit =
        profile.points().getOrDefault(point, new Profile.PluginSet(null, null));
    Set<String> disabled = new HashSet<>(explicit.disabled());
    Map<String, Profile.PluginRef> explicitByName = new LinkedHashMap<>();
    for (Profile.PluginRef r : explicit.enabled()) {
      if (!point.pluginType().isInstance(instances.get(r.name()))) {
        throw new FrameworkException(
            "plugin \""
                + r.name()
                + "\" does not extend "
                + point.upstreamName()
                + " plugin (profile \""
                + profile.name()
                + "\")");
      }
      if (explicitByName.put(r.name(), r) != null) {
        throw new FrameworkException(
            "plugin \"" + r.name() + "\" is enabled twice at " + point.upstreamName());
      }
    }
    Set<String> seen = new HashSet<>();
    for (Profile.PluginRef r : profile.multiPoint()) {
      if (!seen.add(r.name())) {
        throw new FrameworkException("plugin \"" + r.name() + "\" is listed twice in multiPoint");
      }
    }
    if (disabled.contains("*")) {
      return new ArrayList<>(explicitByName.values());
    }
    Set<String> overridden = new HashSet<>();
    List<Profile.PluginRef> multiOnly = new ArrayList<>();
    for (Profile.PluginRef r : profile.multiPoint()) {
      if (!point.pluginType().isInstance(instances.get(r.name())) || disabled.contains(r.name())) {
        continue;
      }
      if (explicitByName.containsKey(r.name())) {
        overridden.add(r.name());
      } else {
        multiOnly.add(r);
      }
    }
    List<Profile.PluginRef> out = new ArrayList<>();
    List<Profile.PluginRef> tail = new ArrayList<>();
    for (Profile.PluginRef r : explicitByName.values()) {
      (overridden.contains(r.name()) ? out : tail).add(r);
    }
    out.addAll(multiOnly);
    out.addAll(tail);
    return out;
  }

  @SuppressWarnings("unchecked")
  private <T> T[] typed(
      Map<ExtensionPoint, List<Profile.PluginRef>> expanded, ExtensionPoint p, Class<T> type) {
    List<Profile.PluginRef> refs = expanded.get(p);
    T[] out = (T[]) java.lang.reflect.Array.newInstance(type, refs.size());
    for (int i = 0; i < out.length; i++) {
      out[i] = type.cast(plugins.get(refs.get(i).name()));
    }
    return out;
  }

  /** The profile name. */
  @Override
  public String profileName() {
    return profileName;
  }

  /**
   * The plugins the profile enables that upstream decides with but this framework does not run
   * ({@link Profile#notEvaluated()}), in name order.
   */
  public List<String> notEvaluated() {
    return notEvaluated;
  }

  /** The handle plugins of this framework were given. */
  @Override
  public Handle handle() {
    return handle;
  }

  /** Every plugin instance by name. */
  public Map<String, Plugin> plugins() {
    return plugins;
  }

  /**
   * The arguments each plugin was created with, as the profile gave them (after configuration
   * defaulting), by plugin name; plugins without configured arguments are absent. Immutable;
   * callers must not modify the JSON trees.
   */
  public Map<String, JsonNode> pluginArgs() {
    return pluginArgs;
  }

  /** The plugin names enabled at {@code point}, in run order. */
  public List<String> pluginNames(ExtensionPoint point) {
    Plugin[] arr =
        switch (point) {
          case PRE_FILTER -> preFilterPlugins;
          case FILTER -> filterPlugins;
          case POST_FILTER -> postFilterPlugins;
          case PRE_SCORE -> preScorePlugins;
          case SCORE -> scorePlugins;
          case RESERVE -> reservePlugins;
          case PERMIT -> permitPlugins;
          case PRE_BIND -> preBindPlugins;
          case BIND -> bindPlugins;
          case POST_BIND -> postBindPlugins;
        };
    List<String> names = new ArrayList<>(arr.length);
    for (Plugin p : arr) {
      names.add(p.name());
    }
    return names;
  }

  /** The weight of each score plugin, in run order. */
  public Map<String, Integer> scoreWeights() {
    Map<String, Integer> w = new LinkedHashMap<>();
    for (int i = 0; i < scorePlugins.length; i++) {
      w.put(scorePlugins[i].name(), scoreWeights[i]);
    }
    return w;
  }

  /** True when the profile has Score plugins. */
  public boolean hasScorePlugins() {
    return scorePlugins.length > 0;
  }

  /** True when the profile has Filter plugins. */
  public boolean hasFilterPlugins() {
    return filterPlugins.length > 0;
  }

  /**
   * Sets the share of cycles (0–100, default 10 as upstream) whose per-plugin durations are
   * recorded.
   */
  public void setPluginMetricsSamplePercent(double percent) {
    this.pluginMetricsSamplePercent = Math.max(0, Math.min(100, percent));
  }

  /**
   * A fresh state for one cycle over {@code snapshot}, sampled for plugin metrics (10% of cycles by
   * default).
   */
  @Override
  public CycleState newCycleState(NodeInfoLister snapshot) {
    CycleState s = new CycleState(snapshot);
    s.setRecordPluginMetrics(
        ThreadLocalRandom.current().nextDouble(100) < pluginMetricsSamplePercent);
    return s;
  }

  // ---------------------------------------------------------------------------------------------------- PreFilter

  /**
   * Runs every PreFilter plugin in order. A plugin's Skip marks it skipped for Filter;
   * UnschedulableAndUnresolvable or Error stops at once; Unschedulable is remembered while the rest
   * still run (so preemption has their state). Node narrowings are intersected; an empty
   * intersection is UnschedulableAndUnresolvable.
   */
  @Override
  public PreFilterResult runPreFilterPlugins(CycleState state, PodInfo pod) {
    return runPreFilterPlugins(state, pod, null);
  }

  /**
   * As {@link #runPreFilterPlugins(CycleState, PodInfo)}, reporting each plugin's own result to
   * {@code observer}.
   */
  public PreFilterResult runPreFilterPlugins(
      CycleState state, PodInfo pod, BiConsumer<String, PreFilterResult> observer) {
    long start = System.nanoTime();
    PreFilterResult out = doRunPreFilter(state, pod, observer);
    services
        .metrics()
        .extensionPoint(
            profileName, ExtensionPoint.PRE_FILTER, out.status().code(), System.nanoTime() - start);
    return out;
  }

  private PreFilterResult doRunPreFilter(
      CycleState state, PodInfo pod, BiConsumer<String, PreFilterResult> observer) {
    Set<String> nodes = null;
    List<String> narrowing = new ArrayList<>();
    Status remembered = null;
    for (PreFilterPlugin pl : preFilterPlugins) {
      PreFilterResult r =
          timed(
              state,
              pl.name(),
              "PreFilter",
              () -> {
                try {
                  PreFilterResult res = pl.preFilter(state, pod);
                  return res == null ? PreFilterResult.success() : res;
                } catch (FrameworkException | IllegalArgumentException e) {
                  return PreFilterResult.of(Status.error(e));
                }
              },
              x -> x.status().code());
      if (observer != null) {
        observer.accept(pl.name(), r);
      }
      Status s = r.status();
      if (s.isSkip()) {
        state.skipFilterPlugins().add(pl.name());
        continue;
      }
      if (!s.isSuccess()) {
        s = s.withPlugin(pl.name());
        if (s.code() == Code.UNSCHEDULABLE_AND_UNRESOLVABLE) {
          return PreFilterResult.of(s);
        }
        if (s.code() == Code.UNSCHEDULABLE) {
          remembered = s;
          continue;
        }
        return PreFilterResult.of(
            Status.error("running PreFilter plugin \"" + pl.name() + "\": " + s.message())
                .withPlugin(pl.name()));
      }
      if (!r.allNodes()) {
        narrowing.add(pl.name());
        nodes = PreFilterResult.merge(nodes, r.nodeNames());
        if (nodes.isEmpty()) {
          List<String> sorted = sorted(narrowing);
          String msg =
              sorted.size() == 1
                  ? "node(s) didn't satisfy plugin " + sorted.get(0)
                  : "node(s) didn't satisfy plugin(s) " + goList(sorted) + " simultaneously";
          return new PreFilterResult(Status.unresolvable(msg), nodes, sorted);
        }
      }
    }
    return new PreFilterResult(
        remembered == null ? Status.success() : remembered, nodes, sorted(narrowing));
  }

  /** Upstream keeps the narrowing plugins in a set and prints them sorted, not in run order. */
  private static List<String> sorted(List<String> names) {
    if (names.isEmpty()) {
      return List.of();
    }
    List<String> sorted = new ArrayList<>(names);
    Collections.sort(sorted);
    return List.copyOf(sorted);
  }

  /** Calls every AddPod extension (of plugins not skipped); the first failure becomes an Error. */
  @Override
  public Status runPreFilterExtensionAddPod(
      CycleState state, PodInfo pod, PodInfo podToAdd, NodeInfo node) {
    return runExtensions(state, pod, podToAdd, node, true);
  }

  /**
   * Calls every RemovePod extension (of plugins not skipped); the first failure becomes an Error.
   */
  @Override
  public Status runPreFilterExtensionRemovePod(
      CycleState state, PodInfo pod, PodInfo podToRemove, NodeInfo node) {
    return runExtensions(state, pod, podToRemove, node, false);
  }

  private Status runExtensions(
      CycleState state, PodInfo pod, PodInfo other, NodeInfo node, boolean add) {
    for (PreFilterPlugin pl : preFilterPlugins) {
      PreFilterExtensions ext = pl.preFilterExtensions();
      if (ext == null || state.skipFilterPlugins().contains(pl.name())) {
        continue;
      }
      Status s;
      try {
        s = add ? ext.addPod(state, pod, other, node) : ext.removePod(state, pod, other, node);
      } catch (FrameworkException | IllegalArgumentException e) {
        s = Status.error(e);
      }
      if (s != null && !s.isSuccess()) {
        return Status.error(
            "running "
                + (add ? "AddPod" : "RemovePod")
                + " on PreFilter plugin \""
                + pl.name()
                + "\": "
                + s.message());
      }
    }
    return Status.success();
  }

  // ------------------------------------------------------------------------------------------------------- Filter

  /**
   * Runs the Filter plugins on one node in order and returns the first rejection (attributed to its
   * plugin); a status other than Success or a rejection becomes an Error. Allocation-free on
   * success.
   */
  public Status runFilterPlugins(CycleState state, PodInfo pod, NodeInfo node) {
    FilterRun run = new FilterRun(state, 1);
    return filterNode(run, state, pod, node, run.timed(0));
  }

  /**
   * What one run of the Filter plugins over a call's nodes decides once for all of them: which
   * filter plugins this cycle's PreFilter told to skip (by position, so a node's loop reads an
   * array rather than hashing names), and on which nodes the plugin calls are timed (a cycle
   * sampled for plugin metrics times at most {@link #PLUGIN_METRICS_NODES} nodes, spread evenly). A
   * single-node run times its node when the cycle is sampled.
   */
  private final class FilterRun {
    private final boolean[] skipped;
    private final int stride;

    FilterRun(CycleState state, int nodes) {
      Set<String> skip = state.skipFilterPlugins();
      if (skip.isEmpty()) {
        this.skipped = null;
      } else {
        this.skipped = new boolean[filterPlugins.length];
        for (int i = 0; i < filterPlugins.length; i++) {
          skipped[i] = skip.contains(filterPlugins[i].name());
        }
      }
      this.stride = timingStride(state, nodes);
    }

    /** Whether filter plugin {@code plugin} (its position) is skipped in this cycle. */
    boolean skipped(int plugin) {
      return skipped != null && skipped[plugin];
    }

    /** Whether the plugin calls on node {@code index} of the run are timed. */
    boolean timed(int index) {
      return Framework.timed(stride, index);
    }
  }

  /** Runs the Filter plugins not skipped on one node, in order, up to the first rejection. */
  private Status filterNode(
      FilterRun run, CycleState state, PodInfo pod, NodeInfo node, boolean timed) {
    for (int i = 0; i < filterPlugins.length; i++) {
      if (run.skipped(i)) {
        continue;
      }
      FilterPlugin pl = filterPlugins[i];
      Status s = timed ? timedFilter(pl, state, pod, node) : callFilter(pl, state, pod, node);
      if (!s.isSuccess()) {
        if (!s.isRejected()) {
          return Status.error("running \"" + pl.name() + "\" filter plugin: " + s.message())
              .withPlugin(pl.name());
        }
        return s.withPlugin(pl.name());
      }
    }
    return Status.success();
  }

  /**
   * Runs every Filter plugin on one node without stopping at the first rejection (the explain
   * view); returns one status per plugin, in order, null for a plugin skipped by its PreFilter.
   */
  public Status[] runAllFilterPlugins(CycleState state, PodInfo pod, NodeInfo node) {
    Status[] out = new Status[filterPlugins.length];
    FilterRun run = new FilterRun(state, 1);
    for (int i = 0; i < filterPlugins.length; i++) {
      FilterPlugin pl = filterPlugins[i];
      if (run.skipped(i)) {
        continue;
      }
      Status s = callFilter(pl, state, pod, node);
      if (!s.isSuccess() && !s.isRejected()) {
        s = Status.error("running \"" + pl.name() + "\" filter plugin: " + s.message());
      }
      out[i] = s.withPlugin(pl.name());
    }
    return out;
  }

  private static Status callFilter(FilterPlugin pl, CycleState state, PodInfo pod, NodeInfo node) {
    try {
      Status s = pl.filter(state, pod, node);
      return s == null ? Status.success() : s;
    } catch (FrameworkException | IllegalArgumentException e) {
      return Status.error(e);
    }
  }

  private Status timedFilter(FilterPlugin pl, CycleState state, PodInfo pod, NodeInfo node) {
    long start = System.nanoTime();
    Status s = callFilter(pl, state, pod, node);
    services.metrics().plugin(pl.name(), "Filter", s.code(), System.nanoTime() - start);
    return s;
  }

  /**
   * Filters one node taking nominated pods into account, as upstream: when pods of equal or higher
   * priority are nominated to the node, the filters must pass both with them added (on copies of
   * state and node) and without.
   */
  @Override
  public Status runFilterPluginsWithNominatedPods(CycleState state, PodInfo pod, NodeInfo node) {
    FilterRun run = new FilterRun(state, 1);
    return filterNodeWithNominatedPods(run, state, pod, node, run.timed(0), null);
  }

  /**
   * The Filter of a scheduling cycle: filters every node of {@code nodes} in parallel ({@link
   * #runFilterPluginsWithNominatedPods} on each) and returns their statuses in the same order; one
   * Filter extension-point sample covers all of them, as upstream. On the node the pod is nominated
   * to, the victims this extender agreed to evict for it are gone first, as in kube-scheduler's
   * cache ({@link PodNominator#victimsAgreed}). In a cycle that records plugin metrics, per-plugin
   * durations are observed on at most {@link #PLUGIN_METRICS_NODES} nodes spread evenly over the
   * list (see {@link FilterRun}).
   */
  public Status[] runFilterPluginsOnNodes(CycleState state, PodInfo pod, List<NodeInfo> nodes) {
    long start = System.nanoTime();
    Status[] out = new Status[nodes.size()];
    int n = nodes.size();
    FilterRun run = new FilterRun(state, n);
    // Statuses go to the running worker's part of the scratch array first (see
    // Parallelizer.untilLight).
    Parallelizer.Scratch layout = new Parallelizer.Scratch(1);
    Status[] scratch = new Status[layout.length(services.parallelizer().parallelism())];
    // Asked once per call rather than per node: nominations change only with watch events, which a
    // node-by-node answer would not see consistently either.
    boolean noneNominated = services.nominator().isEmpty();
    Leaving leaving = Leaving.of(services.nominator(), pod);
    services
        .parallelizer()
        .untilLight(
            n,
            new Parallelizer.Blocks(n) {
              @Override
              protected void compute(int from, int to, int worker) {
                int at = layout.start(worker) - from;
                for (int i = from; i < to; i++) {
                  scratch[at + i] =
                      noneNominated && leaving == null
                          ? filterNode(run, state, pod, nodes.get(i), run.timed(i))
                          : filterNodeWithNominatedPods(
                              run, state, pod, nodes.get(i), run.timed(i), leaving);
                }
              }

              @Override
              protected void store(int from, int to, int worker) {
                System.arraycopy(scratch, layout.start(worker), out, from, to - from);
              }
            });
    Code code = Code.SUCCESS;
    for (Status s : out) {
      if (s.isError()) {
        code = Code.ERROR;
        break;
      }
    }
    services
        .metrics()
        .extensionPoint(profileName, ExtensionPoint.FILTER, code, System.nanoTime() - start);
    return out;
  }

  /**
   * At most this many nodes per extension point of a sampled cycle have their plugin calls timed.
   * Upstream times every call of a sampled cycle, but evaluates only a share of the nodes of a
   * large cluster ({@code percentageOfNodesToScore}) and hands each observation to an asynchronous
   * recorder; an extender is given every candidate node and records synchronously, so timing all of
   * them (two clock reads and a histogram update per plugin per node: milliseconds at 5,000 nodes)
   * would make every tenth answer several times slower. The sampled calls are real per-call
   * durations, so the histogram keeps its shape; its count grows by at most this many observations
   * per plugin per sampled cycle.
   */
  public static final int PLUGIN_METRICS_NODES = 100;

  /**
   * The node-index step between nodes whose plugin calls are timed in a run over {@code nodes}
   * nodes: at most {@link #PLUGIN_METRICS_NODES} of them, spread evenly; 0 when the cycle records
   * no plugin metrics.
   */
  private static int timingStride(CycleState state, int nodes) {
    return state.recordPluginMetrics()
        ? Math.max(1, (nodes + PLUGIN_METRICS_NODES - 1) / PLUGIN_METRICS_NODES)
        : 0;
  }

  /** Whether node {@code index} of a run timing every {@code stride}-th node (0: none) is timed. */
  private static boolean timed(int stride, int index) {
    return stride != 0 && index % stride == 0;
  }

  /** How many of {@code nodes} nodes a cycle timing every {@code stride}-th one times. */
  private static int sampledNodes(int nodes, int stride) {
    return (nodes + stride - 1) / stride;
  }

  /**
   * The pods being evicted from {@code node} for the pod being filtered, which is nominated there
   * ({@link PodNominator#victimsAgreed}): asked once per call.
   */
  private record Leaving(String node, Set<String> uids) {

    /** What is leaving the node {@code pod} is nominated to, or null when nothing is. */
    static Leaving of(PodNominator nominator, PodInfo pod) {
      String nominated = pod.nominatedNodeName();
      if (nominated.isEmpty()) {
        return null;
      }
      Set<String> uids = nominator.victimsAgreed(pod.uid(), nominated);
      return uids.isEmpty() ? null : new Leaving(nominated, uids);
    }

    /** Removes the leaving pods from {@code node} ({@link PluginsRunner#removeGonePods}). */
    Status removeFrom(Framework fw, CycleState state, PodInfo pod, NodeInfo node) {
      return fw.removeGonePods(state, pod, node, uids);
    }
  }

  /**
   * Filters one node with the pods nominated to it, as upstream: when pods of equal or higher
   * priority are nominated there, the filters must pass both with them added (on copies of state
   * and node) and without. On the node the pod is nominated to, the pods being evicted for it are
   * gone first ({@link Leaving}).
   */
  private Status filterNodeWithNominatedPods(
      FilterRun run, CycleState state, PodInfo pod, NodeInfo node, boolean timed, Leaving leaving) {
    if (leaving != null && leaving.node().equals(node.name())) {
      CycleState without = state.copy();
      NodeInfo nodeWithout = node.snapshotCopy();
      Status s = leaving.removeFrom(this, without, pod, nodeWithout);
      if (!s.isSuccess()) {
        return s;
      }
      state = without;
      node = nodeWithout;
    }
    PodNominator nominator = services.nominator();
    if (nominator.isEmpty()) {
      return filterNode(run, state, pod, node, timed);
    }
    List<PodInfo> relevant = null;
    for (PodInfo np : nominator.nominatedPodsForNode(node.name())) {
      if (np.priority() >= pod.priority() && !np.uid().equals(pod.uid())) {
        if (relevant == null) {
          relevant = new ArrayList<>();
        }
        relevant.add(np);
      }
    }
    if (relevant == null) {
      return filterNode(run, state, pod, node, timed);
    }
    CycleState withNominated = state.copy();
    NodeInfo nodeWithNominated = node.snapshotCopy();
    for (PodInfo np : relevant) {
      nodeWithNominated.addPod(np);
      Status s = runPreFilterExtensionAddPod(withNominated, pod, np, nodeWithNominated);
      if (!s.isSuccess()) {
        return s;
      }
    }
    Status first = filterNode(run, withNominated, pod, nodeWithNominated, timed);
    if (!first.isSuccess()) {
      return first;
    }
    return filterNode(run, state, pod, node, timed);
  }

  // --------------------------------------------------------------------------------------------------- PostFilter

  /**
   * Runs PostFilter plugins in order, as current upstream: the first Success is returned as is; an
   * UnschedulableAndUnresolvable stops at once (attributed to its plugin); any other non-rejection
   * is an Error attributed to its plugin. Otherwise every plugin ran and the outcome is
   * Unschedulable with all their reasons, attributed to the first plugin that rejected, carrying
   * the last result that nominated a node.
   */
  public PostFilterResult runPostFilterPlugins(
      CycleState state, PodInfo pod, Map<String, Status> statuses) {
    long start = System.nanoTime();
    PostFilterResult result = doRunPostFilter(state, pod, statuses);
    services
        .metrics()
        .extensionPoint(
            profileName,
            ExtensionPoint.POST_FILTER,
            result.status().code(),
            System.nanoTime() - start);
    return result;
  }

  private PostFilterResult doRunPostFilter(
      CycleState state, PodInfo pod, Map<String, Status> statuses) {
    PostFilterResult nominating = null;
    List<String> reasons = new ArrayList<>();
    String rejector = null;
    for (PostFilterPlugin pl : postFilterPlugins) {
      PostFilterResult r;
      try {
        r = pl.postFilter(state, pod, statuses);
      } catch (FrameworkException | IllegalArgumentException e) {
        r = PostFilterResult.of(Status.error(e));
      }
      if (r == null) {
        r = PostFilterResult.of(Status.success());
      }
      Status s = r.status();
      if (s.isSuccess()) {
        return r;
      }
      if (s.code() == Code.UNSCHEDULABLE_AND_UNRESOLVABLE) {
        return new PostFilterResult(s.withPlugin(pl.name()), r.nominatedNodeName(), r.victims());
      }
      if (!s.isRejected()) {
        Status err = s.isError() ? s : Status.error(s.message());
        return PostFilterResult.of(err.withPlugin(pl.name()));
      }
      if (r.nominatedNodeName() != null) {
        nominating = r;
      }
      reasons.addAll(s.reasons());
      if (rejector == null) {
        rejector = pl.name();
      }
    }
    Status out = Status.of(Code.UNSCHEDULABLE, reasons).withPlugin(rejector);
    return nominating == null
        ? PostFilterResult.of(out)
        : new PostFilterResult(out, nominating.nominatedNodeName(), nominating.victims());
  }

  /** True when the profile has PostFilter plugins. */
  public boolean hasPostFilterPlugins() {
    return postFilterPlugins.length > 0;
  }

  // ----------------------------------------------------------------------------------------------
  // PreScore, Score

  /**
   * Runs every PreScore plugin; Skip marks the plugin's Score skipped; any other failure is an
   * Error.
   */
  public Status runPreScorePlugins(CycleState state, PodInfo pod, List<NodeInfo> nodes) {
    return runPreScorePlugins(state, pod, nodes, null);
  }

  /**
   * As {@link #runPreScorePlugins(CycleState, PodInfo, List)}, reporting each plugin's status to
   * {@code observer}.
   */
  public Status runPreScorePlugins(
      CycleState state, PodInfo pod, List<NodeInfo> nodes, BiConsumer<String, Status> observer) {
    long start = System.nanoTime();
    Status out = Status.success();
    for (PreScorePlugin pl : preScorePlugins) {
      Status s =
          timed(
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
  public ScoreResult runScorePlugins(CycleState state, PodInfo pod, List<NodeInfo> nodeList) {
    return runScorePlugins(state, pod, nodeList, true);
  }

  /**
   * As {@link #runScorePlugins(CycleState, PodInfo, List)}; with {@code keepRaw} false the raw
   * (pre-normalisation) scores are not copied and {@link ScoreResult#raw()} and {@link
   * ScoreResult#normalized()} are null — the prioritize path needs only the totals — and the
   * per-plugin arrays are reused from the call before, over as many nodes.
   */
  public ScoreResult runScorePlugins(
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
   * The Score phase of {@link #doRunScore}, the plugins' scores in {@code reused} (one array per
   * plugin, its values overwritten) or, when null, in new arrays kept with the raw scores; a result
   * over {@code reused} holds none of them (no raw or normalised scores, the totals only).
   */
  private ScoreResult score(
      CycleState state,
      PodInfo pod,
      NodeInfo[] nodes,
      List<ScorePlugin> active,
      List<Integer> weights,
      long[][] reused) {
    int np = active.size();
    boolean keepRaw = reused == null;
    NodeScores[] perPlugin = new NodeScores[np];
    for (int p = 0; p < np; p++) {
      perPlugin[p] = reused == null ? new NodeScores(nodes) : NodeScores.over(nodes, reused[p]);
    }
    int stride = timingStride(state, nodes.length);
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
    long[] durations = stride == 0 ? null : new long[sampledNodes(nodes.length, stride) * np];
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
                    boolean sample = timed(stride, i);
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
                    boolean sample = timed(stride, i);
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
      return ScoreResult.failed(Status.error("running Score plugins: " + e.getMessage()));
    }
    if (durations != null) {
      for (int k = 0; k < durations.length; k++) {
        services.metrics().plugin(active.get(k % np).name(), "Score", Code.SUCCESS, durations[k]);
      }
    }
    long[][] raw = keepRaw ? new long[np][] : null;
    for (int p = 0; p < np; p++) {
      if (keepRaw) {
        raw[p] = perPlugin[p].toArray();
      }
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
        return ScoreResult.failed(
            Status.error(
                "running Normalize on Score plugins: plugin \""
                    + pl.name()
                    + "\" failed with: "
                    + s.message()));
      }
    }
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
        Status.success(), nodes, names, w, raw, keepRaw ? normalized : null, totals);
  }

  private static final class ScoreFailure extends RuntimeException {
    ScoreFailure(String message, Throwable cause) {
      super(message, cause, false, false);
    }
  }

  // ------------------------------------------------------------------------------------------
  // Reserve .. PostBind

  /** Runs Reserve plugins in order; a rejection keeps its code, any other failure is an Error. */
  public Status runReservePluginsReserve(CycleState state, PodInfo pod, String nodeName) {
    long start = System.nanoTime();
    Status out = Status.success();
    for (ReservePlugin pl : reservePlugins) {
      Status s = guard(pl.name(), "Reserve", () -> pl.reserve(state, pod, nodeName));
      if (!s.isSuccess()) {
        out =
            s.isRejected()
                ? s.withPlugin(pl.name())
                : wrapped(s, "running Reserve plugin \"" + pl.name() + "\": ");
        break;
      }
    }
    services
        .metrics()
        .extensionPoint(profileName, ExtensionPoint.RESERVE, out.code(), System.nanoTime() - start);
    return out;
  }

  /**
   * Runs Unreserve of every Reserve plugin in reverse order; failures are swallowed (it must be
   * idempotent).
   */
  public void runReservePluginsUnreserve(CycleState state, PodInfo pod, String nodeName) {
    for (int i = reservePlugins.length - 1; i >= 0; i--) {
      ReservePlugin pl = reservePlugins[i];
      // Unreserve cannot fail the cycle; the cache forgets the pod regardless.
      guard(
          pl.name(),
          "Unreserve",
          () -> {
            pl.unreserve(state, pod, nodeName);
            return Status.success();
          });
    }
  }

  /**
   * Runs Permit plugins. A rejection or Error returns at once; when some plugin says Wait (and none
   * rejects) the pod becomes a {@link WaitingPod} and Wait is returned; call {@link #waitOnPermit}
   * next.
   */
  public Status runPermitPlugins(CycleState state, PodInfo pod, String nodeName) {
    long start = System.nanoTime();
    Map<String, Duration> waits = new LinkedHashMap<>();
    Status out = null;
    for (PermitPlugin pl : permitPlugins) {
      PermitPlugin.Result[] result = new PermitPlugin.Result[1];
      Status thrown =
          guard(
              pl.name(),
              "Permit",
              () -> {
                result[0] = pl.permit(state, pod, nodeName);
                return Status.success();
              });
      PermitPlugin.Result r =
          thrown.isSuccess() && result[0] != null ? result[0] : PermitPlugin.Result.of(thrown);
      Status s = r.status() == null ? Status.success() : r.status();
      if (s.isSuccess()) {
        continue;
      }
      if (s.isRejected()) {
        out = s.withPlugin(pl.name());
        break;
      }
      if (s.isWait()) {
        Duration t = r.timeout() == null ? Duration.ZERO : r.timeout();
        waits.put(pl.name(), t.compareTo(MAX_PERMIT_WAIT) > 0 ? MAX_PERMIT_WAIT : t);
        continue;
      }
      out = wrapped(s, "running Permit plugin \"" + pl.name() + "\": ").withPlugin(pl.name());
      break;
    }
    if (out == null && !waits.isEmpty()) {
      HeldPod wp = new HeldPod(pod, nodeName, services.clock().instant());
      services.waitingPods().add(wp);
      wp.startTimers(waits, services.timers());
      out =
          Status.waiting(
              "one or more plugins asked to wait and no plugin rejected pod \""
                  + pod.name()
                  + "\"");
    }
    if (out == null) {
      out = Status.success();
    }
    services
        .metrics()
        .extensionPoint(profileName, ExtensionPoint.PERMIT, out.code(), System.nanoTime() - start);
    return out;
  }

  /**
   * Blocks until the waiting pod (if any) is allowed or rejected; Success when it was not waiting.
   */
  public Status waitOnPermit(PodInfo pod) {
    HeldPod wp = services.waitingPods().held(pod.uid());
    if (wp == null) {
      return Status.success();
    }
    try {
      Status s = wp.outcome().get();
      if (s.isSuccess() || s.isRejected()) {
        return s;
      }
      Status err = Status.error("waiting on permit for pod: " + s.message());
      return s.plugin() == null ? err : err.withPlugin(s.plugin());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return Status.error("interrupted while waiting on permit for pod " + pod.key());
    } catch (ExecutionException e) {
      return Status.error(e.getCause());
    } finally {
      services.waitingPods().remove(pod.uid());
    }
  }

  /**
   * Runs PreBind plugins in order; the first failure stops (rejections keep their code, others
   * become Error).
   */
  public Status runPreBindPlugins(CycleState state, PodInfo pod, String nodeName) {
    long start = System.nanoTime();
    Status out = Status.success();
    for (PreBindPlugin pl : preBindPlugins) {
      Status s = guard(pl.name(), "PreBind", () -> pl.preBind(state, pod, nodeName));
      if (!s.isSuccess()) {
        out =
            s.isRejected()
                ? s.withPlugin(pl.name())
                : wrapped(s, "running PreBind plugin \"" + pl.name() + "\": ");
        break;
      }
    }
    services
        .metrics()
        .extensionPoint(
            profileName, ExtensionPoint.PRE_BIND, out.code(), System.nanoTime() - start);
    return out;
  }

  /** Runs Bind plugins until one does not Skip; Skip when there are none or all skip. */
  public Status runBindPlugins(CycleState state, PodInfo pod, String nodeName) {
    long start = System.nanoTime();
    Status out = Status.skip();
    for (BindPlugin pl : bindPlugins) {
      Status s = guard(pl.name(), "Bind", () -> pl.bind(state, pod, nodeName));
      if (s.isSkip()) {
        continue;
      }
      if (!s.isSuccess()) {
        out =
            s.isRejected()
                ? s.withPlugin(pl.name())
                : wrapped(s, "running Bind plugin \"" + pl.name() + "\": ");
      } else {
        out = s;
      }
      break;
    }
    services
        .metrics()
        .extensionPoint(profileName, ExtensionPoint.BIND, out.code(), System.nanoTime() - start);
    return out;
  }

  /** Runs every PostBind plugin; failures are ignored. */
  public void runPostBindPlugins(CycleState state, PodInfo pod, String nodeName) {
    for (PostBindPlugin pl : postBindPlugins) {
      // PostBind is informational: a failure is logged and changes nothing.
      guard(
          pl.name(),
          "PostBind",
          () -> {
            pl.postBind(state, pod, nodeName);
            return Status.success();
          });
    }
  }

  // -------------------------------------------------------------------------------------------------------- util

  /**
   * The one catch policy of the binding cycle (Reserve, Unreserve, Permit, PreBind, Bind,
   * PostBind): whatever a plugin throws becomes an Error status carrying the exception, so the
   * caller always reaches Unreserve and the cache's forget. The runtime's own exceptions are
   * expected faults and logged in one line; anything else (a NullPointerException in an SPI plugin,
   * say) is a bug in the plugin and logged with its stack trace.
   */
  private static Status guard(String plugin, String point, Supplier<Status> call) {
    try {
      Status s = call.get();
      return s == null ? Status.success() : s;
    } catch (FrameworkException | IllegalArgumentException e) {
      log.debug("{} plugin \"{}\" failed: {}", point, plugin, e.getMessage());
      return Status.error(e);
    } catch (RuntimeException e) {
      log.warn("{} plugin \"{}\" threw", point, plugin, e);
      return Status.error(e);
    }
  }

  /** An Error status with {@code prefix} before the message of {@code s}, keeping its cause. */
  private static Status wrapped(Status s, String prefix) {
    return s.cause() == null
        ? Status.error(prefix + s.message())
        : Status.error(new FrameworkException(prefix + s.message(), s.cause()));
  }

  private <T> T timed(
      CycleState state, String plugin, String point, Supplier<T> call, Function<T, Code> code) {
    if (!state.recordPluginMetrics()) {
      return call.get();
    }
    long t0 = System.nanoTime();
    T r = call.get();
    services.metrics().plugin(plugin, point, code.apply(r), System.nanoTime() - t0);
    return r;
  }

  /** Go's {@code %v} rendering of a string slice: {@code [a b c]}. */
  static String goList(List<String> items) {
    return "[" + String.join(" ", items) + "]";
  }

  private final class FrameworkHandle implements Handle {
    @Override
    public ClusterObjects clusterObjects() {
      return services.clusterObjects();
    }

    @Override
    public PodBinder binder() {
      return services.binder();
    }

    @Override
    public VolumeWriter volumeWriter() {
      return services.volumeWriter();
    }

    @Override
    public Parallelizer parallelizer() {
      return services.parallelizer();
    }

    @Override
    public WaitingPods waitingPods() {
      return services.waitingPods();
    }

    @Override
    public PodNominator nominator() {
      return services.nominator();
    }

    @Override
    public Framework framework() {
      return Framework.this;
    }

    @Override
    public java.time.Clock clock() {
      return services.clock();
    }
  }
}
