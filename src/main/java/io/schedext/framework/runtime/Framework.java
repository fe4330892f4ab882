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
import io.schedext.framework.PermitPlugin;
import io.schedext.framework.Plugin;
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
import io.schedext.framework.ScorePlugin;
import io.schedext.framework.ScoreResult;
import io.schedext.framework.Status;
import io.schedext.framework.VolumeWriter;
import io.schedext.framework.WaitingPods;
import io.schedext.framework.parallelize.Parallelizer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.BiConsumer;

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
  private final FilterPhase filters;
  private final ScorePhase scores;
  private final BindingPhases binding;

  private Framework(Profile profile, Registry registry, FrameworkServices services) {
    this.profileName = profile.name();
    this.notEvaluated = profile.notEvaluated();
    this.services = services;
    this.handle = new FrameworkHandle();
    ProfilePlugins pp = ProfilePlugins.create(profile, registry, handle);
    this.plugins = pp.byName();
    this.pluginArgs = profile.pluginArgs();
    this.preFilterPlugins = pp.at(ExtensionPoint.PRE_FILTER, PreFilterPlugin.class);
    this.filterPlugins = pp.at(ExtensionPoint.FILTER, FilterPlugin.class);
    this.postFilterPlugins = pp.at(ExtensionPoint.POST_FILTER, PostFilterPlugin.class);
    this.preScorePlugins = pp.at(ExtensionPoint.PRE_SCORE, PreScorePlugin.class);
    this.scorePlugins = pp.at(ExtensionPoint.SCORE, ScorePlugin.class);
    this.reservePlugins = pp.at(ExtensionPoint.RESERVE, ReservePlugin.class);
    this.permitPlugins = pp.at(ExtensionPoint.PERMIT, PermitPlugin.class);
    this.preBindPlugins = pp.at(ExtensionPoint.PRE_BIND, PreBindPlugin.class);
    this.bindPlugins = pp.at(ExtensionPoint.BIND, BindPlugin.class);
    this.postBindPlugins = pp.at(ExtensionPoint.POST_BIND, PostBindPlugin.class);
    this.scoreWeights = pp.scoreWeights();
    this.filters = new FilterPhase(profileName, filterPlugins, services, this);
    this.scores =
        new ScorePhase(profileName, preScorePlugins, scorePlugins, scoreWeights, services);
    this.binding =
        new BindingPhases(
            profileName,
            reservePlugins,
            permitPlugins,
            preBindPlugins,
            bindPlugins,
            postBindPlugins,
            services);
  }

  /**
   * Instantiates {@code profile}'s plugins from {@code registry}. Throws {@link FrameworkException}
   * naming the profile and plugin when a plugin is unknown, does not implement a point it is
   * enabled at, or rejects its args.
   */
  public static Framework create(Profile profile, Registry registry, FrameworkServices services) {
    return new Framework(profile, registry, services);
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
          PluginTimings.timed(
              services.metrics(),
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
   * Runs the Filter plugins on one node in order and returns the first rejection (attributed to its
   * plugin); a status other than Success or a rejection becomes an Error. Allocation-free on
   * success.
   */
  public Status runFilterPlugins(CycleState state, PodInfo pod, NodeInfo node) {
    return filters.runFilterPlugins(state, pod, node);
  }

  /**
   * Runs every Filter plugin on one node without stopping at the first rejection (the explain
   * view); returns one status per plugin, in order, null for a plugin skipped by its PreFilter.
   */
  public Status[] runAllFilterPlugins(CycleState state, PodInfo pod, NodeInfo node) {
    return filters.runAllFilterPlugins(state, pod, node);
  }

  /**
   * Filters one node taking nominated pods into account, as upstream: when pods of equal or higher
   * priority are nominated to the node, the filters must pass both with them added (on copies of
   * state and node) and without.
   */
  @Override
  public Status runFilterPluginsWithNominatedPods(CycleState state, PodInfo pod, NodeInfo node) {
    return filters.runFilterPluginsWithNominatedPods(state, pod, node);
  }

  /**
   * The Filter of a scheduling cycle: filters every node of {@code nodes} in parallel ({@link
   * #runFilterPluginsWithNominatedPods} on each) and returns their statuses in the same order; one
   * Filter extension-point sample covers all of them, as upstream. On the node the pod is nominated
   * to (for a pod not yet shown nominated, the one node of {@code nodes} with victims agreed for
   * it), the victims this extender agreed to evict for it are gone first, as in kube-scheduler's
   * cache ({@link io.schedext.framework.PodNominator#victimsAgreed}). In a cycle that records
   * plugin metrics, per-plugin durations are observed on at most {@link #PLUGIN_METRICS_NODES}
   * nodes spread evenly over the list.
   */
  public Status[] runFilterPluginsOnNodes(CycleState state, PodInfo pod, List<NodeInfo> nodes) {
    return filters.runFilterPluginsOnNodes(state, pod, nodes);
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

  // -------------------------------------------------------------------------------------------
  // PreScore, Score

  /**
   * Runs every PreScore plugin; Skip marks the plugin's Score skipped; any other failure is an
   * Error.
   */
  public Status runPreScorePlugins(CycleState state, PodInfo pod, List<NodeInfo> nodes) {
    return scores.runPreScorePlugins(state, pod, nodes, null);
  }

  /**
   * As {@link #runPreScorePlugins(CycleState, PodInfo, List)}, reporting each plugin's status to
   * {@code observer}.
   */
  public Status runPreScorePlugins(
      CycleState state, PodInfo pod, List<NodeInfo> nodes, BiConsumer<String, Status> observer) {
    return scores.runPreScorePlugins(state, pod, nodes, observer);
  }

  /**
   * Scores every node with every Score plugin not skipped (in parallel over nodes), normalises per
   * plugin, checks the 0–100 range and applies weights. Returns the per-plugin scores and the
   * weighted totals, or an Error status.
   */
  public ScoreResult runScorePlugins(CycleState state, PodInfo pod, List<NodeInfo> nodeList) {
    return scores.runScorePlugins(state, pod, nodeList, true);
  }

  /**
   * As {@link #runScorePlugins(CycleState, PodInfo, List)}; with {@code keepRaw} false the raw
   * (pre-normalisation) scores are not copied and {@link ScoreResult#raw()} and {@link
   * ScoreResult#normalized()} are null — the prioritize path needs only the totals — and the
   * per-plugin arrays are reused from the call before, over as many nodes.
   */
  public ScoreResult runScorePlugins(
      CycleState state, PodInfo pod, List<NodeInfo> nodeList, boolean keepRaw) {
    return scores.runScorePlugins(state, pod, nodeList, keepRaw);
  }

  // --------------------------------------------------------------------------------------- Reserve
  // .. PostBind

  /** Runs Reserve plugins in order; a rejection keeps its code, any other failure is an Error. */
  public Status runReservePluginsReserve(CycleState state, PodInfo pod, String nodeName) {
    return binding.runReservePluginsReserve(state, pod, nodeName);
  }

  /**
   * Runs Unreserve of every Reserve plugin in reverse order; failures are swallowed (it must be
   * idempotent).
   */
  public void runReservePluginsUnreserve(CycleState state, PodInfo pod, String nodeName) {
    binding.runReservePluginsUnreserve(state, pod, nodeName);
  }

  /**
   * Runs Permit plugins. A rejection or Error returns at once; when some plugin says Wait (and none
   * rejects) the pod becomes a waiting pod and Wait is returned; call {@link #waitOnPermit} next.
   */
  public Status runPermitPlugins(CycleState state, PodInfo pod, String nodeName) {
    return binding.runPermitPlugins(state, pod, nodeName);
  }

  /**
   * Blocks until the waiting pod (if any) is allowed or rejected; Success when it was not waiting.
   */
  public Status waitOnPermit(PodInfo pod) {
    return binding.waitOnPermit(pod);
  }

  /**
   * Runs PreBind plugins in order; the first failure stops (rejections keep their code, others
   * become Error).
   */
  public Status runPreBindPlugins(CycleState state, PodInfo pod, String nodeName) {
    return binding.runPreBindPlugins(state, pod, nodeName);
  }

  /** Runs Bind plugins until one does not Skip; Skip when there are none or all skip. */
  public Status runBindPlugins(CycleState state, PodInfo pod, String nodeName) {
    return binding.runBindPlugins(state, pod, nodeName);
  }

  /** Runs every PostBind plugin; failures are ignored. */
  public void runPostBindPlugins(CycleState state, PodInfo pod, String nodeName) {
    binding.runPostBindPlugins(state, pod, nodeName);
  }

  // -------------------------------------------------------------------------------------------------------- util

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
