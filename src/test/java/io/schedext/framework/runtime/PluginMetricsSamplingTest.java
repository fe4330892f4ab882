package io.schedext.framework.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import io.schedext.cluster.ObjectStore;
import io.schedext.framework.Code;
import io.schedext.framework.CycleState;
import io.schedext.framework.FrameworkException;
import io.schedext.framework.FrameworkMetrics;
import io.schedext.framework.NodeInfo;
import io.schedext.framework.PodInfo;
import io.schedext.framework.PodNominator;
import io.schedext.framework.ScoreResult;
import io.schedext.framework.Status;
import io.schedext.framework.parallelize.Parallelizer;
import io.schedext.testing.MakeNode;
import io.schedext.testing.MakePod;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Plugin durations of a sampled cycle are observed on at most {@link
 * Framework#PLUGIN_METRICS_NODES} nodes, evenly spread, for Filter and Score over many nodes; every
 * node of a small list is observed; nothing is observed in a cycle that is not sampled. The
 * decisions are the same either way.
 */
class PluginMetricsSamplingTest {

  private static final PodInfo POD = MakePod.pod().name("p").uid("p").info();

  /** Records which plugin observations arrive. */
  private static final class Recorder implements FrameworkMetrics {
    final ConcurrentLinkedQueue<String> plugins = new ConcurrentLinkedQueue<>();
    final ConcurrentLinkedQueue<Thread> scoreThreads = new ConcurrentLinkedQueue<>();

    @Override
    public void plugin(String plugin, String extensionPoint, Code status, long nanos) {
      assertThat(nanos).isNotNegative();
      plugins.add(plugin + ":" + extensionPoint);
      if (extensionPoint.equals("Score")) {
        scoreThreads.add(Thread.currentThread());
      }
    }
  }

  private static List<NodeInfo> nodes(int n) {
    List<NodeInfo> out = new ArrayList<>(n);
    for (int i = 0; i < n; i++) {
      out.add(MakeNode.node().name("node-" + i).info());
    }
    return out;
  }

  private static Framework framework(Recorder recorder, List<String> calls) {
    FrameworkServices services =
        new FrameworkServices(
            new ObjectStore(),
            (pod, node) -> {
              throw new FrameworkException("no binding here");
            },
            Fixtures.PARALLELIZER,
            PodNominator.NONE,
            Fixtures.CLOCK,
            new FakeTimers(),
            new WaitingPodsMap(),
            recorder);
    FakePlugin a = new FakePlugin("a", calls);
    a.filterFn =
        (state, node) ->
            node.name().endsWith("7") ? Status.unschedulable("sevens") : Status.success();
    a.score = 40;
    FakePlugin b = new FakePlugin("b", calls);
    b.score = 60;
    return Fixtures.multiPoint(services, a, b);
  }

  @ParameterizedTest(name = "{0} nodes, sampled={1}: {2} nodes timed per plugin")
  @CsvSource({
    "1, true, 1",
    "100, true, 100",
    "101, true, 51",
    "250, true, 84",
    "5000, true, 100",
    "5000, false, 0",
    "40, false, 0"
  })
  void filterAndScoreTimeABoundedSpreadOfNodes(int n, boolean sampled, int timedNodes) {
    Recorder recorder = new Recorder();
    List<String> calls = Collections.synchronizedList(new ArrayList<>());
    Framework fw = framework(recorder, calls);
    List<NodeInfo> nodes = nodes(n);
    CycleState state = new CycleState(io.schedext.cache.Snapshot.of(nodes));
    state.setRecordPluginMetrics(sampled);

    Status[] statuses = fw.runFilterPluginsOnNodes(state, POD, nodes);

    for (int i = 0; i < n; i++) {
      boolean seven = nodes.get(i).name().endsWith("7");
      assertThat(statuses[i])
          .as(nodes.get(i).name())
          .isEqualTo(seven ? Status.unschedulable("sevens").withPlugin("a") : Status.success());
    }
    // Over LIGHT_SERIAL_BELOW nodes the caller finishes a helper's chunk from its end, and where
    // they meet one block of nodes can run on both (one result kept): each helper adds at most a
    // block's calls and timings.
    int helpers =
        n >= Parallelizer.LIGHT_SERIAL_BELOW ? Fixtures.PARALLELIZER.parallelism() - 1 : 0;
    int extra = helpers * Parallelizer.BLOCK;
    long rejected = nodes.stream().filter(x -> x.name().endsWith("7")).count();
    assertThat(count(calls, "a:Filter")).isBetween((long) n, (long) n + extra);
    assertThat(count(calls, "b:Filter")).isBetween(n - rejected, n - rejected + extra);
    // Timed nodes are every stride-th index from 0; a rejected node times "a" only.
    int stride =
        Math.max(1, (n + Framework.PLUGIN_METRICS_NODES - 1) / Framework.PLUGIN_METRICS_NODES);
    long timedRejected = 0;
    for (int i = 0; i < n; i += stride) {
      if (nodes.get(i).name().endsWith("7")) {
        timedRejected++;
      }
    }
    int timedExtra = sampled ? helpers * ((Parallelizer.BLOCK + stride - 1) / stride) : 0;
    assertThat(count(recorder.plugins, "a:Filter"))
        .isBetween((long) timedNodes, (long) timedNodes + timedExtra);
    long bTimed = sampled ? timedNodes - timedRejected : 0;
    assertThat(count(recorder.plugins, "b:Filter")).isBetween(bTimed, bTimed + timedExtra);

    recorder.plugins.clear();
    ScoreResult scores = fw.runScorePlugins(state, POD, nodes);

    assertThat(scores.status()).isEqualTo(Status.success());
    assertThat(scores.totals()).containsOnly(100L);
    // Score durations are kept per timed node and recorded after the loop, on the calling thread:
    // exactly once per timed node, whichever worker ran it, and never from a helper thread.
    assertThat(count(recorder.plugins, "a:Score")).isEqualTo(timedNodes);
    assertThat(count(recorder.plugins, "b:Score")).isEqualTo(timedNodes);
    assertThat(recorder.scoreThreads).allMatch(t -> t == Thread.currentThread());
  }

  private static long count(Collection<String> entries, String entry) {
    synchronized (entries) {
      return entries.stream().filter(entry::equals).count();
    }
  }
}
