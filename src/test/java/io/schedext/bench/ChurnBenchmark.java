package io.schedext.bench;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.schedext.cache.SchedulerCache;
import io.schedext.cache.Snapshot;
import io.schedext.framework.CycleState;
import io.schedext.framework.PodInfo;
import io.schedext.framework.PreFilterResult;
import io.schedext.framework.Status;
import io.schedext.framework.runtime.Framework;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * What a cluster that keeps changing costs, in-process: {@code changes} pod updates applied to the
 * cache (the watch side; the pods' infos are built beforehand), then, in {@link
 * #updatesThenFilter()}, a fresh snapshot and PreFilter plus Filter on every node (the next
 * request). {@link #updatesOnly()} applies the same updates alone, so the difference is what a
 * request pays for absorbing them: copying the changed node infos and re-summing their shares of
 * the carried whole-cluster counts. Run with {@code mvn -B -Pbench test-compile exec:exec
 * -Dbench.args="jmh ChurnBenchmark"}.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(
    value = 1,
    jvmArgsAppend = {"-Xmx2g"})
public class ChurnBenchmark {

  @Param({"5000"})
  public int nodes;

  @Param({"0", "16", "64", "256"})
  public int changes;

  @Param({"PLAIN"})
  public SyntheticCluster.Kind kind;

  private SchedulerCache cache;
  private Framework framework;
  private PodInfo pod;
  private InProcess setting;
  // Two versions of each updated pod (the second with one more label); updates alternate between
  // them.
  private PodInfo[][] versions;
  private int next;

  /** Loads the cluster into a cache, builds the default profile and the pod versions. */
  @Setup(Level.Trial)
  public void setUp() {
    setting = InProcess.load(SyntheticCluster.build(nodes, 10, 42));
    cache = setting.cache();
    framework = setting.framework();
    List<Pod> pods = setting.cluster().pods();
    versions = new PodInfo[Math.min(pods.size(), 20_000)][];
    for (int i = 0; i < versions.length; i++) {
      Pod p = pods.get((int) ((i * 7919L) % pods.size()));
      PodInfo current = cache.getPod(p.getMetadata().getUid());
      Pod changed =
          new PodBuilder(current.pod())
              .editMetadata()
              .addToLabels("churn", "yes")
              .endMetadata()
              .build();
      versions[i] = new PodInfo[] {current, PodInfo.of(changed)};
    }
    pod = PodInfo.of(SyntheticCluster.pending(kind, 0));
  }

  /** Releases the pools. */
  @TearDown(Level.Trial)
  public void tearDown() {
    setting.close();
  }

  private void applyUpdates() {
    for (int c = 0; c < changes; c++) {
      PodInfo[] v = versions[next];
      next = (next + 1) % versions.length;
      PodInfo current = cache.getPod(v[0].uid());
      cache.updatePod(current, current == v[0] ? v[1] : v[0]);
    }
  }

  /**
   * Building one pod's info from its object, as a watch handler does for every event (the changes
   * do not matter).
   */
  @Benchmark
  public PodInfo podInfoOf() {
    PodInfo[] v = versions[next];
    next = (next + 1) % versions.length;
    return PodInfo.of(v[1].pod());
  }

  /** The updates alone. */
  @Benchmark
  public long updatesOnly() {
    applyUpdates();
    return next;
  }

  /**
   * The updates, then a request: snapshot, PreFilter, Filter on every node; returns the feasible
   * nodes.
   */
  @Benchmark
  public int updatesThenFilter() {
    applyUpdates();
    Snapshot snapshot = cache.snapshot();
    CycleState state = framework.newCycleState(snapshot);
    PreFilterResult pre = framework.runPreFilterPlugins(state, pod);
    if (!pre.status().isSuccess()) {
      return 0;
    }
    Status[] out = framework.runFilterPluginsOnNodes(state, pod, snapshot.list());
    int feasible = 0;
    for (Status s : out) {
      if (s.isSuccess()) {
        feasible++;
      }
    }
    return feasible;
  }
}
