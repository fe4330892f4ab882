package io.schedext.extender;

import static org.assertj.core.api.Assertions.assertThat;
import static org.mockito.Mockito.mock;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.schedext.cache.EventGate;
import io.schedext.extender.ExtenderEndpoint.Route;
import io.schedext.testing.FixedSource;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The endpoint's routes: which paths under {@code /scheduler/} and {@code /profiles/} name a verb
 * of a profile or a pod to explain, and which are no route (a 404, counted as a call to no verb).
 */
class ExtenderEndpointRouteTest {

  record Case(String path, Route route) {
    @Override
    public String toString() {
      return path;
    }
  }

  static Stream<Case> cases() {
    return Stream.of(
        new Case("/scheduler/filter", new Route(null, "filter", null, null)),
        new Case("/scheduler/anything", new Route(null, "anything", null, null)),
        new Case("/profiles/batch/prioritize", new Route("batch", "prioritize", null, null)),
        new Case("/profiles/my%20profile/bind", new Route("my profile", "bind", null, null)),
        new Case(
            "/scheduler/explain/default/web-1", new Route(null, "explain", "default", "web-1")),
        new Case(
            "/profiles/batch/explain/team-a/job-7",
            new Route("batch", "explain", "team-a", "job-7")),
        new Case("/profiles/explain/filter", new Route("explain", "filter", null, null)),
        new Case("/scheduler/", null),
        new Case("/scheduler", null),
        new Case("/scheduler/filter/", null),
        new Case("/scheduler//filter", null),
        new Case("/scheduler/filter/more", null),
        new Case("/scheduler/explain/default", null),
        new Case("/scheduler/explain/default/p/extra", null),
        new Case("/scheduler/other/default/p", null),
        new Case("/profiles/batch", null),
        new Case("/profiles//filter", null),
        new Case("/profiles/batch/explain//p", null),
        new Case("/debug/cache", null));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void pathsMapToTheirRoutes(Case c) {
    assertThat(Route.of(c.path())).isEqualTo(c.route());
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("noVerb")
  void callsToNoVerbAreCountedUnderOneLabel(String path) throws Exception {
    SimpleMeterRegistry registry = new SimpleMeterRegistry();
    ExtenderEndpoint endpoint =
        VerbHarness.endpoint(
            Verbs.of(
                new WireCodec(1 << 20),
                mock(FilterService.class),
                mock(PrioritizeService.class),
                mock(PreemptionService.class),
                mock(BindService.class),
                mock(ExplainService.class)),
            FixedSource.ready(),
            new ExtenderMetrics(registry),
            EventGate.off());

    assertThat(VerbHarness.post(endpoint, path, new byte[0]).getStatus()).isEqualTo(404);
    assertThat(registry.find("extender.request.duration").timers())
        .singleElement()
        .satisfies(t -> assertThat(t.getId().getTag("verb")).isEqualTo(ExtenderEndpoint.UNKNOWN));
  }

  static Stream<String> noVerb() {
    return Stream.of("/scheduler/made-up-1", "/scheduler/a/b/c/d", "/profiles/x");
  }
}
