package io.schedext.framework.runtime;

import static io.schedext.testing.Latches.await;
import static org.assertj.core.api.Assertions.assertThat;

import io.schedext.cluster.ObjectStore;
import io.schedext.framework.Code;
import io.schedext.framework.CycleState;
import io.schedext.framework.ExtensionPoint;
import io.schedext.framework.FilterPlugin;
import io.schedext.framework.FrameworkException;
import io.schedext.framework.FrameworkMetrics;
import io.schedext.framework.NodeInfo;
import io.schedext.framework.NodeScores;
import io.schedext.framework.PodBinder;
import io.schedext.framework.PodInfo;
import io.schedext.framework.PodNominator;
import io.schedext.framework.ScoreExtensions;
import io.schedext.framework.ScorePlugin;
import io.schedext.framework.ScoreResult;
import io.schedext.framework.Status;
import io.schedext.framework.parallelize.Parallelizer;
import io.schedext.framework.parallelize.ParallelizerTest;
import io.schedext.testing.MakeNode;
import io.schedext.testing.MakePod;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The per-node Filter and Score loops answer while a helper thread is stuck inside a node (as a
 * helper preempted by the operating system would be), with the same result as an unhindered run,
 * and the helper's late result for that node changes nothing.
 */
@Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class FrameworkStalledHelperTest {

  static final int NODES = 3 * Parallelizer.LIGHT_SERIAL_BELOW;
  static final PodInfo POD = MakePod.pod().name("p").uid("p").info();

  private Parallelizer parallelizer;
  private final CountDownLatch helperStalled = new CountDownLatch(1);
  private final CountDownLatch release = new CountDownLatch(1);
  private final AtomicInteger stalls = new AtomicInteger();
  private final List<NodeInfo> nodes = new ArrayList<>();

  @BeforeEach
  void setUp() {
    parallelizer = new Parallelizer(2);
    for (int i = 0; i < NODES; i++) {
      nodes.add(MakeNode.node().name("node-" + i).info());
    }
  }

  @AfterEach
  void tearDown() {
    release.countDown();
    parallelizer.close();
  }

  private static int index(NodeInfo node) {
    return Integer.parseInt(node.name().substring("node-".length()));
  }

  /**
   * Called at the start of every plugin call: the first call on a helper stalls until released;
   * calls on the caller wait until that has happened, so the caller runs out of chunks while the
   * helper holds one.
   */
  private void gate() {
    if (!Thread.currentThread().getName().startsWith("scheduling-")) {
      await(helperStalled);
    } else if (stalls.getAndIncrement() == 0) {
      helperStalled.countDown();
      await(release);
    }
  }

  private FrameworkServices services() {
    PodBinder refusing =
        (pod, node) -> {
          throw new FrameworkException("binding is not available in this test");
        };
    return new FrameworkServices(
        new ObjectStore(),
        refusing,
        parallelizer,
        PodNominator.NONE,
        Fixtures.CLOCK,
        new FakeTimers(),
        new WaitingPodsMap(),
        FrameworkMetrics.NONE);
  }

  /** Every third node does not fit. */
  final class Thirds implements FilterPlugin {
    @Override
    public String name() {
      return "Thirds";
    }

    @Override
    public Status filter(CycleState state, PodInfo pod, NodeInfo node) {
      gate();
      return index(node) % 3 == 0 ? Status.unschedulable("third " + index(node)) : Status.success();
    }
  }

  /** Scores a node by its index modulo 50 plus one (never 0) and normalises by doubling. */
  final class Doubling implements ScorePlugin, ScoreExtensions {
    @Override
    public String name() {
      return "Doubling";
    }

    @Override
    public long score(CycleState state, PodInfo pod, NodeInfo node) {
      gate();
      return index(node) % 50 + 1;
    }

    @Override
    public ScoreExtensions scoreExtensions() {
      return this;
    }

    @Override
    public Status normalizeScore(CycleState state, PodInfo pod, NodeScores scores) {
      for (int i = 0; i < scores.size(); i++) {
        scores.set(i, 2 * scores.get(i));
      }
      return Status.success();
    }
  }

  @Test
  void filterAnswersWithEveryNodesStatusWhileAHelperIsStuckInANode() {
    Framework fw = Fixtures.at(ExtensionPoint.FILTER, services(), new Thirds());

    Status[] got = fw.runFilterPluginsOnNodes(Fixtures.state(), POD, nodes);

    assertThat(release.getCount()).as("answered while the helper was stuck").isEqualTo(1);
    assertThat(stalls.get()).isEqualTo(1);
    assertFilterStatuses(got);
    release.countDown();
    ParallelizerTest.drain(parallelizer);
    assertFilterStatuses(got);
  }

  private static void assertFilterStatuses(Status[] got) {
    assertThat(got).hasSize(NODES);
    for (int i = 0; i < NODES; i++) {
      if (i % 3 == 0) {
        assertThat(got[i].code()).as("node %d", i).isEqualTo(Code.UNSCHEDULABLE);
        assertThat(got[i].message()).isEqualTo("third " + i);
        assertThat(got[i].plugin()).isEqualTo("Thirds");
      } else {
        assertThat(got[i].isSuccess()).as("node %d", i).isTrue();
      }
    }
  }

  @Test
  void scoreAnswersWithEveryNodesScoreWhileAHelperIsStuckInANode() {
    Framework fw = Fixtures.at(ExtensionPoint.SCORE, services(), new Doubling());

    ScoreResult got = fw.runScorePlugins(Fixtures.state(), POD, nodes);

    assertThat(release.getCount()).as("answered while the helper was stuck").isEqualTo(1);
    assertThat(stalls.get()).isEqualTo(1);
    assertScores(got);
    release.countDown();
    ParallelizerTest.drain(parallelizer);
    // The helper's raw score for the node it was stuck in arrives after normalising: it must not
    // land.
    assertScores(got);
  }

  private static void assertScores(ScoreResult got) {
    assertThat(got.status().isSuccess()).isTrue();
    for (int i = 0; i < NODES; i++) {
      long raw = i % 50 + 1;
      assertThat(got.raw()[0][i]).as("raw score of node %d", i).isEqualTo(raw);
      assertThat(got.normalized()[0][i]).as("normalised score of node %d", i).isEqualTo(2 * raw);
      assertThat(got.totals()[i]).as("total of node %d", i).isEqualTo(2 * raw);
    }
  }
}
