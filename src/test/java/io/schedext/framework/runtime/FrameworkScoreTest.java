package io.schedext.framework.runtime;

import static io.schedext.framework.ExtensionPoint.PRE_SCORE;
import static io.schedext.framework.ExtensionPoint.SCORE;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.schedext.framework.CycleState;
import io.schedext.framework.ExtensionPoint;
import io.schedext.framework.FrameworkException;
import io.schedext.framework.NodeInfo;
import io.schedext.framework.NodeScores;
import io.schedext.framework.Plugin;
import io.schedext.framework.PodInfo;
import io.schedext.framework.Profile;
import io.schedext.framework.ScoreExtensions;
import io.schedext.framework.ScorePlugin;
import io.schedext.framework.ScoreResult;
import io.schedext.framework.Status;
import io.schedext.testing.MakeNode;
import io.schedext.testing.MakePod;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * PreScore, Score, NormalizeScore and weights, as upstream's TestRunScorePlugins and PreScore
 * tests.
 */
class FrameworkScoreTest {

  static final String INJECTED = "injected status";
  static final String SCORE1 = "score-plugin-1";
  static final String NORM1 = "score-with-normalize-plugin-1";
  static final String NORM2 = "score-with-normalize-plugin-2";

  private static final PodInfo POD = MakePod.pod().name("p").uid("p").info();
  private static final List<NodeInfo> NODES =
      List.of(MakeNode.node().name("node1").info(), MakeNode.node().name("node2").info());

  /**
   * A Score plugin at weight {@code weight} set up by {@code setup}.
   *
   * @param name plugin name
   * @param weight the configured weight
   * @param setup outcome settings
   */
  record Scorer(String name, int weight, Consumer<FakePlugin> setup) {}

  /**
   * What RunScorePlugins produced, as comparable lists.
   *
   * @param status the status
   * @param plugins the plugins that scored
   * @param weights their weights
   * @param normalized per plugin, the normalised scores by node
   * @param totals the weighted totals by node
   */
  record Scores(
      Status status,
      List<String> plugins,
      List<Integer> weights,
      List<List<Long>> normalized,
      List<Long> totals) {

    static Scores of(ScoreResult r) {
      List<List<Long>> n = new ArrayList<>();
      for (long[] row : r.normalized()) {
        n.add(Arrays.stream(row).boxed().toList());
      }
      return new Scores(
          r.status(),
          List.of(r.plugins()),
          IntStream.of(r.weights()).boxed().toList(),
          n,
          Arrays.stream(r.totals()).boxed().toList());
    }

    static Scores failed(String message) {
      return new Scores(Status.error(message), List.of(), List.of(), List.of(), List.of());
    }
  }

  record ScoreCase(String name, List<Scorer> plugins, Scores want) {
    @Override
    public String toString() {
      return name;
    }
  }

  static Scorer scorer(String name, int weight, long score) {
    return new Scorer(name, weight, p -> p.score = score);
  }

  static Scorer normalizing(String name, int weight, long score, long normalized) {
    return new Scorer(
        name,
        weight,
        p -> {
          p.score = score;
          p.normalizeTo = normalized;
        });
  }

  static Stream<ScoreCase> scoreCases() {
    return Stream.of(
        new ScoreCase(
            "no Score plugins: every node totals zero",
            List.of(),
            new Scores(Status.success(), List.of(), List.of(), List.of(), List.of(0L, 0L))),
        new ScoreCase(
            "a single Score plugin scoring 1 at weight 1",
            List.of(scorer(SCORE1, 1, 1)),
            new Scores(
                Status.success(),
                List.of(SCORE1),
                List.of(1),
                List.of(List.of(1L, 1L)),
                List.of(1L, 1L))),
        new ScoreCase(
            "NormalizeScore overrides the raw score",
            List.of(normalizing(NORM1, 1, 10, 5)),
            new Scores(
                Status.success(),
                List.of(NORM1),
                List.of(1),
                List.of(List.of(5L, 5L)),
                List.of(5L, 5L))),
        new ScoreCase(
            "three plugins, two normalising, weighted and summed",
            List.of(scorer(SCORE1, 1, 1), normalizing(NORM1, 1, 3, 4), normalizing(NORM2, 2, 4, 5)),
            new Scores(
                Status.success(),
                List.of(SCORE1, NORM1, NORM2),
                List.of(1, 1, 2),
                List.of(List.of(1L, 1L), List.of(4L, 4L), List.of(5L, 5L)),
                List.of(15L, 15L))),
        new ScoreCase(
            "a weight of 3 triples the score",
            List.of(scorer(SCORE1, 3, 1)),
            new Scores(
                Status.success(),
                List.of(SCORE1),
                List.of(3),
                List.of(List.of(1L, 1L)),
                List.of(3L, 3L))),
        new ScoreCase(
            "a raw score may leave the range when NormalizeScore brings it back",
            List.of(normalizing(NORM1, 1, 1000, 100)),
            new Scores(
                Status.success(),
                List.of(NORM1),
                List.of(1),
                List.of(List.of(100L, 100L)),
                List.of(100L, 100L))),
        new ScoreCase(
            "a failing Score is an Error naming the plugin",
            List.of(
                scorer(SCORE1, 1, 1),
                new Scorer(
                    NORM1, 1, p -> p.throwAt.put("Score", new FrameworkException(INJECTED)))),
            Scores.failed(
                "running Score plugins: plugin \"" + NORM1 + "\" failed with: " + INJECTED)),
        new ScoreCase(
            "a failing NormalizeScore is an Error naming the plugin",
            List.of(
                scorer(SCORE1, 1, 1),
                new Scorer(NORM1, 1, p -> p.normalize = Status.error(INJECTED))),
            Scores.failed(
                "running Normalize on Score plugins: plugin \""
                    + NORM1
                    + "\" failed with: "
                    + INJECTED)),
        new ScoreCase(
            "a Score above MaxNodeScore without NormalizeScore is an Error",
            List.of(scorer(SCORE1, 1, 101)),
            Scores.failed(
                "applying score defaultWeights on Score plugins: plugin \""
                    + SCORE1
                    + "\" returns an invalid score 101, it should in the range of [0, 100] after normalizing")),
        new ScoreCase(
            "a Score below MinNodeScore without NormalizeScore is an Error",
            List.of(scorer(SCORE1, 1, -1)),
            Scores.failed(
                "applying score defaultWeights on Score plugins: plugin \""
                    + SCORE1
                    + "\" returns an invalid score -1, it should in the range of [0, 100] after normalizing")),
        new ScoreCase(
            "a normalised score above MaxNodeScore is an Error",
            List.of(normalizing(NORM1, 1, 5, 101)),
            Scores.failed(
                "applying score defaultWeights on Score plugins: plugin \""
                    + NORM1
                    + "\" returns an invalid score 101, it should in the range of [0, 100] after normalizing")),
        new ScoreCase(
            "a normalised score below MinNodeScore is an Error",
            List.of(normalizing(NORM1, 1, 5, -1)),
            Scores.failed(
                "applying score defaultWeights on Score plugins: plugin \""
                    + NORM1
                    + "\" returns an invalid score -1, it should in the range of [0, 100] after normalizing")));
  }

  private static Framework scoreFramework(List<Scorer> scorers, List<String> calls) {
    List<Profile.PluginRef> refs = new ArrayList<>();
    List<Plugin> plugins = new ArrayList<>();
    for (Scorer s : scorers) {
      FakePlugin p = new FakePlugin(s.name(), calls);
      s.setup().accept(p);
      plugins.add(p);
      refs.add(new Profile.PluginRef(s.name(), s.weight()));
    }
    Map<ExtensionPoint, Profile.PluginSet> points = new EnumMap<>(ExtensionPoint.class);
    points.put(SCORE, new Profile.PluginSet(refs, null));
    points.put(PRE_SCORE, new Profile.PluginSet(refs, null));
    return Framework.create(
        new Profile("p", null, points, null),
        Fixtures.registry(plugins.toArray(Plugin[]::new)),
        Fixtures.services());
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("scoreCases")
  void runScorePlugins(ScoreCase c) {
    Framework fw = scoreFramework(c.plugins(), new ArrayList<>());

    Scores got =
        Scores.of(fw.runScorePlugins(Fixtures.state(NODES.toArray(NodeInfo[]::new)), POD, NODES));

    assertThat(got).isEqualTo(c.want());
  }

  @Test
  void scoresComputedInParallelOverManyNodesLandOnTheirOwnNode() {
    List<NodeInfo> many = new ArrayList<>();
    for (int i = 0; i < 200; i++) {
      many.add(MakeNode.node().name("n" + i).info());
    }
    ScorePlugin byIndex =
        new ScorePlugin() {
          @Override
          public String name() {
            return "by-index";
          }

          @Override
          public long score(CycleState state, PodInfo pod, NodeInfo node) {
            return Long.parseLong(node.name().substring(1)) % 101;
          }
        };
    Framework fw = Fixtures.at(SCORE, byIndex);

    ScoreResult r = fw.runScorePlugins(Fixtures.state(), POD, many);

    for (int i = 0; i < 200; i++) {
      assertThat(r.nodes()[i]).isSameAs(many.get(i));
      assertThat(r.raw()[0][i]).isEqualTo(i % 101);
      assertThat(r.totals()[i]).isEqualTo(i % 101);
    }
  }

  /**
   * Scores a node by its index plus the pod name's length, and normalises them all to twice
   * themselves, capped at 100: every score depends on the node, the pod and the normalisation.
   */
  private static ScorePlugin byIndexAndPod() {
    return new ScorePlugin() {
      @Override
      public String name() {
        return "by-index-and-pod";
      }

      @Override
      public long score(CycleState state, PodInfo pod, NodeInfo node) {
        return (Long.parseLong(node.name().substring(1)) + pod.name().length()) % 51;
      }

      @Override
      public ScoreExtensions scoreExtensions() {
        return (state, pod, scores) -> {
          for (int i = 0; i < scores.size(); i++) {
            scores.set(i, Math.min(100, 2 * scores.get(i)));
          }
          return Status.success();
        };
      }
    };
  }

  @Test
  void scoresWithoutRawOnesReuseTheirArraysAndMatchTheScoresWithThem() {
    Framework fw = Fixtures.at(SCORE, byIndexAndPod());
    Framework kept = Fixtures.at(SCORE, byIndexAndPod());
    // Above Parallelizer.LIGHT_SERIAL_BELOW: the scores are stored by the parallel loop's blocks.
    List<NodeInfo> many = new ArrayList<>();
    for (int i = 0; i < 1200; i++) {
      many.add(MakeNode.node().name("n" + i).info());
    }
    PodInfo other = MakePod.pod().name("another-pod").uid("q").info();
    // Over as many nodes, the arrays of the call before are reused; over fewer, new ones are made.
    record Call(PodInfo pod, List<NodeInfo> nodes) {}
    List<Call> calls =
        List.of(
            new Call(POD, many),
            new Call(other, many),
            new Call(POD, many.subList(0, 1100)),
            new Call(other, many));
    ScoreResult first = null;
    long[] firstTotals = null;
    for (Call c : calls) {
      ScoreResult r = fw.runScorePlugins(Fixtures.state(), c.pod(), c.nodes(), false);
      ScoreResult want = kept.runScorePlugins(Fixtures.state(), c.pod(), c.nodes());

      assertThat(r.status().isSuccess()).isTrue();
      assertThat(r.totals()).containsExactly(want.totals());
      assertThat(r.raw()).as("raw scores").isNull();
      assertThat(r.normalized()).as("normalised scores, in arrays the next call reuses").isNull();
      if (first == null) {
        first = r;
        firstTotals = r.totals().clone();
      }
    }
    assertThat(first.totals()).as("a result's totals stay its own").containsExactly(firstTotals);
    assertThat(firstTotals[0]).isEqualTo(2 * (0 + POD.name().length()));
  }

  @Test
  void nodeScoresOverAnArrayNeedOneScorePerNode() {
    NodeInfo[] two = NODES.toArray(NodeInfo[]::new);
    long[] values = {4, 5};

    NodeScores over = NodeScores.over(two, values);
    over.set(0, 9);

    assertThat(values).as("the array itself, not a copy").containsExactly(9, 5);
    assertThatThrownBy(() -> NodeScores.over(two, new long[3]))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("3 scores for 2 nodes: one each, no more");
  }

  @Test
  void rawScoresAreKeptBesideTheNormalisedOnes() {
    Framework fw = scoreFramework(List.of(normalizing(NORM1, 2, 7, 50)), new ArrayList<>());

    ScoreResult r = fw.runScorePlugins(Fixtures.state(), POD, NODES);

    assertThat(r.raw()[0]).containsExactly(7, 7);
    assertThat(r.normalized()[0]).containsExactly(50, 50);
    assertThat(r.totals()).containsExactly(100, 100);
    assertThat(r.nodes()).containsExactlyElementsOf(NODES);
  }

  // ----------------------------------------------------------------------------------------------------- PreScore

  record PreScoreCase(
      String name, List<Scorer> plugins, Status want, List<String> skipped, List<String> calls) {
    @Override
    public String toString() {
      return name;
    }
  }

  static Scorer pre(String name, Status s) {
    return new Scorer(name, 1, p -> p.preScore = s);
  }

  static Stream<PreScoreCase> preScoreCases() {
    return Stream.of(
        new PreScoreCase(
            "every PreScore succeeds",
            List.of(pre("a", Status.success()), pre("b", Status.success())),
            Status.success(),
            List.of(),
            List.of("a:PreScore", "b:PreScore")),
        new PreScoreCase(
            "a PreScore returning nothing counts as success",
            List.of(pre("a", null)),
            Status.success(),
            List.of(),
            List.of("a:PreScore")),
        new PreScoreCase(
            "Skip marks the plugin's Score skipped and the others run",
            List.of(pre("a", Status.skip()), pre("b", Status.success())),
            Status.success(),
            List.of("a"),
            List.of("a:PreScore", "b:PreScore")),
        new PreScoreCase(
            "an Error stops and is wrapped without plugin attribution",
            List.of(pre("a", Status.error(INJECTED)), pre("b", Status.success())),
            Status.error("running PreScore plugin \"a\": " + INJECTED),
            List.of(),
            List.of("a:PreScore")),
        new PreScoreCase(
            "a rejection from PreScore is an Error too",
            List.of(pre("a", Status.success()), pre("b", Status.unschedulable(INJECTED))),
            Status.error("running PreScore plugin \"b\": " + INJECTED),
            List.of(),
            List.of("a:PreScore", "b:PreScore")),
        new PreScoreCase(
            "a thrown exception is wrapped the same way",
            List.of(
                new Scorer(
                    "a",
                    1,
                    p -> p.throwAt.put("PreScore", new IllegalArgumentException(INJECTED)))),
            Status.error("running PreScore plugin \"a\": " + INJECTED),
            List.of(),
            List.of("a:PreScore")));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("preScoreCases")
  void runPreScorePlugins(PreScoreCase c) {
    List<String> calls = new ArrayList<>();
    Framework fw = scoreFramework(c.plugins(), calls);
    CycleState state = Fixtures.state();
    List<String> observed = new ArrayList<>();

    assertThat(fw.runPreScorePlugins(state, POD, NODES, (name, s) -> observed.add(name)))
        .isEqualTo(c.want());
    assertThat(state.skipScorePlugins()).containsExactlyInAnyOrderElementsOf(c.skipped());
    assertThat(calls).isEqualTo(c.calls());
    assertThat(observed).hasSameSizeAs(c.calls());
  }

  @Test
  void aPluginSkippedAtPreScoreIsNotScoredAndMissingFromTheResult() {
    List<String> calls = new ArrayList<>();
    Framework fw =
        scoreFramework(
            List.of(
                new Scorer(
                    "skipped",
                    1,
                    p -> {
                      p.preScore = Status.skip();
                      p.score = 101;
                    }),
                scorer("scored", 2, 10)),
            calls);
    CycleState state = Fixtures.state();
    fw.runPreScorePlugins(state, POD, NODES);
    calls.clear();

    Scores got = Scores.of(fw.runScorePlugins(state, POD, NODES));

    assertThat(got)
        .isEqualTo(
            new Scores(
                Status.success(),
                List.of("scored"),
                List.of(2),
                List.of(List.of(10L, 10L)),
                List.of(20L, 20L)));
    assertThat(calls).containsExactly("scored:Score", "scored:Score");
  }
}
