package io.schedext.framework.runtime;

import io.schedext.framework.BindPlugin;
import io.schedext.framework.CycleState;
import io.schedext.framework.FilterPlugin;
import io.schedext.framework.NodeInfo;
import io.schedext.framework.PermitPlugin;
import io.schedext.framework.PodInfo;
import io.schedext.framework.PostBindPlugin;
import io.schedext.framework.PostFilterPlugin;
import io.schedext.framework.PostFilterResult;
import io.schedext.framework.PreBindPlugin;
import io.schedext.framework.PreFilterExtensions;
import io.schedext.framework.PreFilterPlugin;
import io.schedext.framework.PreFilterResult;
import io.schedext.framework.PreScorePlugin;
import io.schedext.framework.ReservePlugin;
import io.schedext.framework.ScoreExtensions;
import io.schedext.framework.ScorePlugin;
import io.schedext.framework.Status;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BiFunction;

/**
 * A plugin at every extension point whose outcome at each point the test sets (as upstream's
 * TestPlugin injects its results), and that logs every call as {@code "name:Point"} into a list the
 * test may share between plugins.
 */
final class FakePlugin
    implements PreFilterPlugin,
        PreFilterExtensions,
        FilterPlugin,
        PostFilterPlugin,
        PreScorePlugin,
        ScorePlugin,
        ReservePlugin,
        PermitPlugin,
        PreBindPlugin,
        BindPlugin,
        PostBindPlugin {

  private final String name;
  final List<String> calls;

  PreFilterResult preFilter = PreFilterResult.success();
  boolean withExtensions = true;
  Status addPod = Status.success();
  Status removePod = Status.success();
  Status filter = Status.success();

  /** When set, decides Filter instead of {@link #filter}. */
  BiFunction<CycleState, NodeInfo, Status> filterFn;

  PostFilterResult postFilter = PostFilterResult.of(Status.success());
  Status preScore = Status.success();
  long score;

  /** When set, every normalised score becomes this value. */
  Long normalizeTo;

  Status normalize = Status.success();
  Status reserve = Status.success();
  PermitPlugin.Result permit = PermitPlugin.Result.of(Status.success());
  Status preBind = Status.success();
  Status bind = Status.success();

  /**
   * Points ({@code "Filter"}, {@code "Score"}, ...) at which the plugin throws this exception
   * instead.
   */
  final Map<String, RuntimeException> throwAt = new HashMap<>();

  FakePlugin(String name, List<String> calls) {
    this.name = name;
    this.calls = calls;
  }

  FakePlugin(String name) {
    this(name, new ArrayList<>());
  }

  private void called(String point) {
    synchronized (calls) {
      calls.add(name + ":" + point);
    }
    RuntimeException e = throwAt.get(point);
    if (e != null) {
      throw e;
    }
  }

  @Override
  public String name() {
    return name;
  }

  @Override
  public PreFilterResult preFilter(CycleState state, PodInfo pod) {
    called("PreFilter");
    return preFilter;
  }

  @Override
  public PreFilterExtensions preFilterExtensions() {
    return withExtensions ? this : null;
  }

  @Override
  public Status addPod(CycleState state, PodInfo podToSchedule, PodInfo podToAdd, NodeInfo node) {
    called("AddPod");
    return addPod;
  }

  @Override
  public Status removePod(
      CycleState state, PodInfo podToSchedule, PodInfo podToRemove, NodeInfo node) {
    called("RemovePod");
    return removePod;
  }

  @Override
  public Status filter(CycleState state, PodInfo pod, NodeInfo node) {
    called("Filter");
    return filterFn == null ? filter : filterFn.apply(state, node);
  }

  @Override
  public PostFilterResult postFilter(CycleState state, PodInfo pod, Map<String, Status> statuses) {
    called("PostFilter");
    return postFilter;
  }

  @Override
  public Status preScore(CycleState state, PodInfo pod, List<NodeInfo> nodes) {
    called("PreScore");
    return preScore;
  }

  @Override
  public long score(CycleState state, PodInfo pod, NodeInfo node) {
    called("Score");
    return score;
  }

  @Override
  public ScoreExtensions scoreExtensions() {
    return normalizeTo == null && normalize.isSuccess()
        ? null
        : (state, pod, scores) -> {
          called("NormalizeScore");
          if (normalizeTo != null) {
            for (int i = 0; i < scores.size(); i++) {
              scores.set(i, normalizeTo);
            }
          }
          return normalize;
        };
  }

  @Override
  public Status reserve(CycleState state, PodInfo pod, String nodeName) {
    called("Reserve");
    return reserve;
  }

  @Override
  public void unreserve(CycleState state, PodInfo pod, String nodeName) {
    called("Unreserve");
  }

  @Override
  public Result permit(CycleState state, PodInfo pod, String nodeName) {
    called("Permit");
    return permit;
  }

  @Override
  public Status preBind(CycleState state, PodInfo pod, String nodeName) {
    called("PreBind");
    return preBind;
  }

  @Override
  public Status bind(CycleState state, PodInfo pod, String nodeName) {
    called("Bind");
    return bind;
  }

  @Override
  public void postBind(CycleState state, PodInfo pod, String nodeName) {
    called("PostBind");
  }
}
