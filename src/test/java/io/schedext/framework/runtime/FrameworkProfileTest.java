package io.schedext.framework.runtime;

import static io.schedext.framework.ExtensionPoint.BIND;
import static io.schedext.framework.ExtensionPoint.FILTER;
import static io.schedext.framework.ExtensionPoint.PERMIT;
import static io.schedext.framework.ExtensionPoint.POST_BIND;
import static io.schedext.framework.ExtensionPoint.POST_FILTER;
import static io.schedext.framework.ExtensionPoint.PRE_BIND;
import static io.schedext.framework.ExtensionPoint.PRE_FILTER;
import static io.schedext.framework.ExtensionPoint.PRE_SCORE;
import static io.schedext.framework.ExtensionPoint.RESERVE;
import static io.schedext.framework.ExtensionPoint.SCORE;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.entry;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import io.schedext.framework.CycleState;
import io.schedext.framework.ExtensionPoint;
import io.schedext.framework.FrameworkException;
import io.schedext.framework.NodeInfo;
import io.schedext.framework.NodeScores;
import io.schedext.framework.Plugin;
import io.schedext.framework.PodInfo;
import io.schedext.framework.PreScorePlugin;
import io.schedext.framework.Profile;
import io.schedext.framework.Registry;
import io.schedext.framework.ScoreExtensions;
import io.schedext.framework.ScorePlugin;
import io.schedext.framework.Status;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Building a framework from a profile, as upstream's NewFramework tests (multiPoint expansion,
 * weights, errors).
 */
class FrameworkProfileTest {

  static final String TEST = "test-plugin";
  static final String TEST2 = "test-plugin-2";
  static final String SCORE1 = "score-plugin-1";
  static final String NORMALIZING = "score-with-normalize-plugin-1";
  static final String NOT_SCORE = "plugin-not-implementing-score";

  /** PreScore and Score without NormalizeScore, as upstream's TestScorePlugin. */
  record ScoreOnly(String name) implements PreScorePlugin, ScorePlugin {
    @Override
    public Status preScore(CycleState state, PodInfo pod, List<NodeInfo> nodes) {
      return Status.success();
    }

    @Override
    public long score(CycleState state, PodInfo pod, NodeInfo node) {
      return 0;
    }
  }

  /** Score with NormalizeScore and nothing else. */
  record Normalizing(String name) implements ScorePlugin, ScoreExtensions {
    @Override
    public long score(CycleState state, PodInfo pod, NodeInfo node) {
      return 0;
    }

    @Override
    public ScoreExtensions scoreExtensions() {
      return this;
    }

    @Override
    public Status normalizeScore(CycleState state, PodInfo pod, NodeScores scores) {
      return Status.success();
    }
  }

  /** A plugin implementing no extension point. */
  record Bare(String name) implements Plugin {}

  static Registry registry() {
    return Fixtures.registry(
        new FakePlugin(TEST),
        new FakePlugin(TEST2),
        new ScoreOnly(SCORE1),
        new Normalizing(NORMALIZING),
        new Bare(NOT_SCORE));
  }

  static Profile.PluginRef ref(String name) {
    return Profile.PluginRef.of(name);
  }

  static Profile.PluginRef ref(String name, int weight) {
    return new Profile.PluginRef(name, weight);
  }

  /** A profile under construction: multiPoint plugins plus per-point enabled/disabled lists. */
  static final class P {
    final List<Profile.PluginRef> multi = new ArrayList<>();
    final Map<ExtensionPoint, Profile.PluginSet> points = new EnumMap<>(ExtensionPoint.class);

    P multi(Profile.PluginRef... refs) {
      multi.addAll(List.of(refs));
      return this;
    }

    P enable(ExtensionPoint point, Profile.PluginRef... refs) {
      Profile.PluginSet s = points.getOrDefault(point, new Profile.PluginSet(null, null));
      List<Profile.PluginRef> e = new ArrayList<>(s.enabled());
      e.addAll(List.of(refs));
      points.put(point, new Profile.PluginSet(e, s.disabled()));
      return this;
    }

    P disable(ExtensionPoint point, String... names) {
      Profile.PluginSet s = points.getOrDefault(point, new Profile.PluginSet(null, null));
      List<String> d = new ArrayList<>(s.disabled());
      d.addAll(List.of(names));
      points.put(point, new Profile.PluginSet(s.enabled(), d));
      return this;
    }

    Profile build() {
      return new Profile("test-profile", multi, points, null);
    }
  }

  /** Every point where {@code names} run, the others empty. */
  static Map<ExtensionPoint, List<String>> everywhere(
      List<String> names, ExtensionPoint... except) {
    Map<ExtensionPoint, List<String>> m = new EnumMap<>(ExtensionPoint.class);
    for (ExtensionPoint p : ExtensionPoint.values()) {
      if (!List.of(except).contains(p)) {
        m.put(p, names);
      }
    }
    return m;
  }

  static Map<ExtensionPoint, List<String>> with(
      Map<ExtensionPoint, List<String>> base, ExtensionPoint p, String... names) {
    Map<ExtensionPoint, List<String>> m = new EnumMap<>(base);
    m.put(p, List.of(names));
    return m;
  }

  record ExpandCase(
      String name,
      P profile,
      Map<ExtensionPoint, List<String>> want,
      Map<String, Integer> weights) {
    @Override
    public String toString() {
      return name;
    }
  }

  static Stream<ExpandCase> expandCases() {
    Map<ExtensionPoint, List<String>> testOnly = everywhere(List.of(TEST));
    return Stream.of(
        new ExpandCase(
            "a multiPoint plugin runs at every point it implements, with its weight",
            new P().multi(ref(TEST, 5)),
            testOnly,
            Map.of(TEST, 5)),
        new ExpandCase(
            "a multiPoint plugin disabled at some points is left out there",
            new P().multi(ref(TEST)).disable(PRE_SCORE, TEST).disable(SCORE, TEST),
            everywhere(List.of(TEST), PRE_SCORE, SCORE),
            Map.of()),
        new ExpandCase(
            "several multiPoint plugins keep their order where they meet",
            new P().multi(ref(TEST), ref(SCORE1)),
            with(with(testOnly, PRE_SCORE, TEST, SCORE1), SCORE, TEST, SCORE1),
            Map.of(TEST, 1, SCORE1, 1)),
        new ExpandCase(
            "\"*\" disabled at a point skips the multiPoint plugins there",
            new P().multi(ref(TEST), ref(SCORE1)).disable(PRE_SCORE, "*"),
            with(everywhere(List.of(TEST), PRE_SCORE), SCORE, TEST, SCORE1),
            Map.of(TEST, 1, SCORE1, 1)),
        new ExpandCase(
            "\"*\" disabled at a point keeps that point's explicit plugins exactly as written",
            new P()
                .multi(ref(TEST), ref(SCORE1))
                .enable(PRE_SCORE, ref(TEST2), ref(SCORE1))
                .disable(PRE_SCORE, "*"),
            with(with(testOnly, PRE_SCORE, TEST2, SCORE1), SCORE, TEST, SCORE1),
            Map.of(TEST, 1, SCORE1, 1)),
        new ExpandCase(
            "explicitly enabled multiPoint plugins come first, in the explicit order",
            new P()
                .multi(ref(NORMALIZING), ref(TEST), ref(SCORE1))
                .enable(SCORE, ref(SCORE1), ref(TEST)),
            with(with(testOnly, PRE_SCORE, TEST, SCORE1), SCORE, SCORE1, TEST, NORMALIZING),
            Map.of(SCORE1, 1, TEST, 1, NORMALIZING, 1)),
        new ExpandCase(
            "plugins enabled only explicitly come after the multiPoint ones",
            new P()
                .multi(ref(TEST), ref(SCORE1))
                .enable(SCORE, ref(NORMALIZING), ref(SCORE1), ref(TEST)),
            with(with(testOnly, PRE_SCORE, TEST, SCORE1), SCORE, SCORE1, TEST, NORMALIZING),
            Map.of(SCORE1, 1, TEST, 1, NORMALIZING, 1)),
        new ExpandCase(
            "explicit weights override the multiPoint weights",
            new P().multi(ref(TEST, 7), ref(SCORE1)).enable(SCORE, ref(SCORE1, 5), ref(TEST, 3)),
            with(with(testOnly, PRE_SCORE, TEST, SCORE1), SCORE, SCORE1, TEST),
            Map.of(SCORE1, 5, TEST, 3)),
        new ExpandCase(
            "a weight of zero counts as one",
            new P().multi(ref(SCORE1, 0)),
            Map.of(PRE_SCORE, List.of(SCORE1), SCORE, List.of(SCORE1)),
            Map.of(SCORE1, 1)),
        new ExpandCase(
            "a multiPoint plugin disabled at a point but enabled there explicitly runs after the others",
            new P().multi(ref(TEST), ref(SCORE1)).enable(SCORE, ref(SCORE1)).disable(SCORE, SCORE1),
            with(with(testOnly, PRE_SCORE, TEST, SCORE1), SCORE, TEST, SCORE1),
            Map.of(TEST, 1, SCORE1, 1)),
        new ExpandCase(
            "a plugin enabled only at one point runs only there",
            new P().enable(FILTER, ref(TEST)).enable(SCORE, ref(TEST2, 2)),
            Map.of(FILTER, List.of(TEST), SCORE, List.of(TEST2)),
            Map.of(TEST2, 2)),
        new ExpandCase("no plugins at all", new P(), Map.of(), Map.of()));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("expandCases")
  void pluginsPerPoint(ExpandCase c) {
    Framework fw = Framework.create(c.profile().build(), registry(), Fixtures.services());

    Map<ExtensionPoint, List<String>> got = new EnumMap<>(ExtensionPoint.class);
    for (ExtensionPoint p : ExtensionPoint.values()) {
      if (!fw.pluginNames(p).isEmpty()) {
        got.put(p, fw.pluginNames(p));
      }
    }
    assertThat(got).isEqualTo(c.want());
    if (!c.weights().isEmpty()) {
      assertThat(fw.scoreWeights()).isEqualTo(c.weights());
    }
    assertThat(fw.hasScorePlugins()).isEqualTo(c.want().containsKey(SCORE));
    assertThat(fw.hasFilterPlugins()).isEqualTo(c.want().containsKey(FILTER));
    assertThat(fw.hasPostFilterPlugins()).isEqualTo(c.want().containsKey(POST_FILTER));
    assertThat(fw.profileName()).isEqualTo("test-profile");
  }

  @Test
  void scoreWeightsFollowTheScoreOrder() {
    Framework fw =
        Framework.create(
            new P().enable(SCORE, ref(SCORE1, 2), ref(NORMALIZING, 9)).build(),
            registry(),
            Fixtures.services());
    assertThat(fw.scoreWeights()).containsExactly(entry(SCORE1, 2), entry(NORMALIZING, 9));
  }

  // ------------------------------------------------------------------------------------------------------- errors

  record ErrorCase(String name, P profile, String message) {
    @Override
    public String toString() {
      return name;
    }
  }

  static Stream<ErrorCase> errorCases() {
    return Stream.of(
        new ErrorCase(
            "an enabled Score plugin missing from the registry",
            new P().enable(SCORE, ref("notExist")),
            "plugin \"notExist\" does not exist (profile \"test-profile\"); registered plugins: ["
                + TEST
                + ", "
                + TEST2
                + ", "
                + SCORE1
                + ", "
                + NORMALIZING
                + ", "
                + NOT_SCORE
                + "]"),
        new ErrorCase(
            "a multiPoint plugin missing from the registry",
            new P().multi(ref("notExist")),
            "plugin \"notExist\" does not exist"),
        new ErrorCase(
            "a plugin enabled at Score that does not implement Score",
            new P().enable(SCORE, ref(NOT_SCORE)),
            "plugin \"" + NOT_SCORE + "\" does not extend Score plugin (profile \"test-profile\")"),
        new ErrorCase(
            "a plugin enabled at PreScore that only scores",
            new P().enable(PRE_SCORE, ref(NORMALIZING)),
            "plugin \"" + NORMALIZING + "\" does not extend PreScore plugin"),
        new ErrorCase(
            "the same plugin enabled twice at one point",
            new P().enable(PRE_FILTER, ref(TEST), ref(TEST)),
            "plugin \"" + TEST + "\" is enabled twice at PreFilter"),
        new ErrorCase(
            "the same plugin listed twice in multiPoint",
            new P().multi(ref(TEST), ref(TEST)),
            "plugin \"" + TEST + "\" is listed twice in multiPoint"),
        new ErrorCase(
            "a negative score weight",
            new P().enable(SCORE, ref(SCORE1, -1)),
            "score plugin \"" + SCORE1 + "\" has a negative weight -1"));
  }

  @ParameterizedTest(name = "{0} is rejected")
  @MethodSource("errorCases")
  void invalidProfiles(ErrorCase c) {
    assertThatThrownBy(() -> Framework.create(c.profile().build(), registry(), Fixtures.services()))
        .isInstanceOf(FrameworkException.class)
        .hasMessageStartingWith(c.message());
  }

  @Test
  void argsForAPluginThatIsNotEnabledAreRejected() {
    Profile p =
        new Profile(
            "p", List.of(ref(TEST)), null, Map.of(SCORE1, JsonNodeFactory.instance.objectNode()));
    assertThatThrownBy(() -> Framework.create(p, registry(), Fixtures.services()))
        .isInstanceOf(FrameworkException.class)
        .hasMessage(
            "pluginConfig has args for plugin \""
                + SCORE1
                + "\", which is not enabled in profile \"p\"");
  }

  @Test
  void aFactoryReturningAPluginOfAnotherNameIsRejected() {
    Registry r = new Registry().register("a", (args, handle) -> new FakePlugin("b"));
    assertThatThrownBy(
            () ->
                Framework.create(
                    new Profile("p", List.of(ref("a")), null, null), r, Fixtures.services()))
        .isInstanceOf(FrameworkException.class)
        .hasMessage("plugin factory for \"a\" returned a plugin named \"b\"");
  }

  @Test
  void aFactoryFailurePropagatesAndPluginsReceiveTheirArgsAndTheHandle() {
    List<Object> seen = new ArrayList<>();
    Registry r =
        new Registry()
            .register(
                "good",
                (args, handle) -> {
                  seen.add(args.raw().get("x").asInt());
                  seen.add(handle.framework());
                  return new FakePlugin("good");
                })
            .register(
                "bad",
                (args, handle) -> {
                  throw new FrameworkException("invalid args for plugin bad: nope");
                });
    var args = JsonNodeFactory.instance.objectNode().put("x", 3);
    Framework fw =
        Framework.create(
            new Profile("p", List.of(ref("good")), null, Map.of("good", args)),
            r,
            Fixtures.services());
    assertThat(seen).containsExactly(3, fw);
    assertThat(fw.plugins()).containsOnlyKeys("good");
    assertThat(fw.handle().framework()).isSameAs(fw);
    assertThat(fw.handle().clock()).isSameAs(Fixtures.CLOCK);

    assertThatThrownBy(
            () ->
                Framework.create(
                    new Profile("p", List.of(ref("bad")), null, null), r, Fixtures.services()))
        .isInstanceOf(FrameworkException.class)
        .hasMessage("invalid args for plugin bad: nope");
  }

  // --------------------------------------------------------------------------------------
  // registry, frameworks

  @Test
  void registryRejectsDuplicatesAndUnknownRemovals() {
    Registry r = new Registry().register("a", (args, h) -> new FakePlugin("a"));
    assertThatThrownBy(() -> r.register("a", (args, h) -> null))
        .isInstanceOf(FrameworkException.class)
        .hasMessage("a plugin named a already exists");
    assertThatThrownBy(() -> r.unregister("b"))
        .isInstanceOf(FrameworkException.class)
        .hasMessage("no plugin named b exists");
    Registry other = new Registry().register("b", (args, h) -> new FakePlugin("b"));
    r.merge(other);
    assertThat(r.names()).containsExactly("a", "b");
    assertThatThrownBy(() -> r.merge(other)).isInstanceOf(FrameworkException.class);
    r.unregister("a");
    assertThat(r.get("a")).isNull();
    assertThat(r.names()).containsExactly("b");
  }

  record ArgsOfB(String field) {}

  @Test
  void registryKeepsEachPluginsArgsTypeWithItsFactoryThroughAMerge() {
    Registry other = new Registry().register("b", ArgsOfB.class, (args, h) -> new FakePlugin("b"));
    Registry r = new Registry().register("a", (args, h) -> new FakePlugin("a")).merge(other);
    assertThat(r.names()).containsExactly("a", "b");
    assertThat(r.argsType("b")).isEqualTo(ArgsOfB.class);
    assertThat(r.argsType("a")).as("registered without a type").isNull();
    assertThat(r.argsType("c")).as("not registered").isNull();
    r.unregister("b");
    assertThat(r.argsType("b")).isNull();
  }

  @Test
  void frameworksKnowTheirDefaultProfile() {
    Framework a =
        Framework.create(new Profile("a", null, null, null), registry(), Fixtures.services());
    Framework b =
        Framework.create(new Profile("b", null, null, null), registry(), Fixtures.services());
    Map<String, Framework> byName = new LinkedHashMap<>();
    byName.put("a", a);
    byName.put("b", b);
    Frameworks fws = new Frameworks(byName, "b");
    assertThat(fws.defaultFramework()).isSameAs(b);
    assertThat(fws.get("a")).isSameAs(a);
    assertThat(fws.get("c")).isNull();
    assertThat(fws.all()).containsExactly(a, b);
    assertThatThrownBy(() -> new Frameworks(Map.of("a", a), "x"))
        .isInstanceOf(FrameworkException.class)
        .hasMessage("default profile \"x\" is not among the profiles [a]");
  }

  @Test
  void extensionPointsHaveUpstreamNames() {
    assertThat(ExtensionPoint.byName("preFilter")).isEqualTo(PRE_FILTER);
    assertThat(ExtensionPoint.byName("PostBind")).isEqualTo(POST_BIND);
    assertThat(ExtensionPoint.byName("queueSort")).isNull();
    assertThat(
            List.of(
                    PRE_FILTER,
                    FILTER,
                    POST_FILTER,
                    PRE_SCORE,
                    SCORE,
                    RESERVE,
                    PERMIT,
                    PRE_BIND,
                    BIND,
                    POST_BIND)
                .stream()
                .map(ExtensionPoint::upstreamName)
                .toList())
        .containsExactly(
            "PreFilter",
            "Filter",
            "PostFilter",
            "PreScore",
            "Score",
            "Reserve",
            "Permit",
            "PreBind",
            "Bind",
            "PostBind");
  }
}
