package io.schedext.bench;

import io.schedext.cache.Snapshot;
import io.schedext.framework.CycleState;
import io.schedext.framework.NodeInfo;
import io.schedext.framework.PodInfo;
import io.schedext.framework.PreFilterResult;
import io.schedext.framework.ScoreResult;
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
 * The in-process framework path, without HTTP or JSON: the default profile's PreFilter + Filter
 * over every node, and PreScore + Score + NormalizeScore over every node, for each kind of pod, on
 * synthetic clusters of 500 to 5,000 nodes with 10 pods per node. Run with {@code mvn -B -Pbench
 * test-compile exec:exec -Dbench.args="jmh"}.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.SampleTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(
    value = 1,
    jvmArgsAppend = {"-Xmx2g"})
public class FrameworkBenchmark {

  @Param({"500", "1000", "5000"})
  public int nodes;

  @Param({"PLAIN", "NODE_AFFINITY", "POD_AFFINITY", "SPREAD"})
  public SyntheticCluster.Kind kind;

  private Framework framework;
  private Snapshot snapshot;
  private PodInfo pod;
  private InProcess setting;

  /** Loads the cluster into a cache and builds the default profile. */
  @Setup(Level.Trial)
  public void setUp() {
    setting = InProcess.load(SyntheticCluster.build(nodes, 10, 42));
    snapshot = setting.cache().snapshot();
    framework = setting.framework();
    pod = PodInfo.of(InProcess.decoded(SyntheticCluster.pending(kind, 0)));
  }

  /** Releases the pools. */
  @TearDown(Level.Trial)
  public void tearDown() {
    setting.close();
  }

  /** PreFilter, then Filter on every node in parallel; returns the number of feasible nodes. */
  @Benchmark
  public int filter() {
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

  /**
   * As {@link #score()}, keeping no raw scores, as the prioritize verb runs it: the per-plugin
   * arrays are reused from one call to the next.
   */
  @Benchmark
  public long scoreTotals() {
    return bestTotal(false);
  }

  /** PreFilter, PreScore, Score and NormalizeScore over every node; returns the best total. */
  @Benchmark
  public long score() {
    return bestTotal(true);
  }

  private long bestTotal(boolean keepRaw) {
    CycleState state = framework.newCycleState(snapshot);
    framework.runPreFilterPlugins(state, pod);
    List<NodeInfo> list = snapshot.list();
    framework.runPreScorePlugins(state, pod, list);
    ScoreResult r = framework.runScorePlugins(state, pod, list, keepRaw);
    long best = 0;
    for (long t : r.totals()) {
      best = Math.max(best, t);
    }
    return best;
  }
}
