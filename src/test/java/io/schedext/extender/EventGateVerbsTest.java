package io.schedext.extender;

import static org.assertj.core.api.Assertions.assertThat;
import static org.mockito.ArgumentMatchers.any;
import static org.mockito.Mockito.mock;
import static org.mockito.Mockito.when;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.schedext.cache.EventGate;
import io.schedext.cluster.ClusterSource;
import io.schedext.extender.wire.ExtenderBindingResult;
import io.schedext.extender.wire.ExtenderFilterResult;
import io.schedext.extender.wire.ExtenderPreemptionResult;
import io.schedext.testing.Http;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.mockito.stubbing.Answer;
import org.springframework.mock.web.MockHttpServletResponse;

/**
 * The calls kube-scheduler waits on for each pod (filter, prioritize, preempt) hold watch events
 * back while they are answered; bind does not, and nothing stays in flight after a call, whatever
 * its outcome.
 */
class EventGateVerbsTest {

  private final EventGate gate = new EventGate(Duration.ofMinutes(5));
  private final List<String> seen = new ArrayList<>();

  private <T> Answer<T> recording(String verb, T reply) {
    return inv -> {
      seen.add(verb + "=" + gate.inFlight());
      return reply;
    };
  }

  @Test
  void filterPrioritizeAndPreemptAreInFlightWhileAnsweredAndBindIsNot() throws Exception {
    FilterService filter = mock(FilterService.class);
    when(filter.filter(any(), any()))
        .then(
            recording(
                "filter", new ExtenderFilterResult(null, List.of("n1"), Map.of(), Map.of(), "")));
    PrioritizeService prioritize = mock(PrioritizeService.class);
    when(prioritize.prioritize(any(), any())).then(recording("prioritize", List.of()));
    PreemptionService preemption = mock(PreemptionService.class);
    when(preemption.preempt(any(), any()))
        .then(recording("preempt", new ExtenderPreemptionResult(Map.of())));
    BindService bind = mock(BindService.class);
    when(bind.bind(any(), any())).then(recording("bind", new ExtenderBindingResult("")));
    ClusterSource source = mock(ClusterSource.class);
    when(source.isReady()).thenReturn(true);
    Verbs verbs =
        Verbs.of(
            new WireCodec(1 << 20),
            filter,
            prioritize,
            preemption,
            bind,
            mock(ExplainService.class));
    ExtenderEndpoint endpoint =
        VerbHarness.endpoint(verbs, source, new ExtenderMetrics(new SimpleMeterRegistry()), gate);

    for (String verb : List.of("filter", "prioritize", "preempt", "bind")) {
      MockHttpServletResponse response =
          VerbHarness.post(
              endpoint,
              "/scheduler/" + verb,
              Http.resource("fixtures/kube-scheduler-v1.26/" + fixture(verb))
                  .getBytes(StandardCharsets.UTF_8));
      assertThat(response.getStatus()).as(verb).isEqualTo(200);
      assertThat(gate.inFlight()).as("after " + verb).isZero();
    }
    MockHttpServletResponse response =
        VerbHarness.post(endpoint, "/scheduler/filter", "{".getBytes(StandardCharsets.UTF_8));

    assertThat(response.getStatus()).isEqualTo(400);
    assertThat(gate.inFlight()).as("after a rejected call").isZero();
    assertThat(seen).containsExactly("filter=1", "prioritize=1", "preempt=1", "bind=0");
  }

  private static String fixture(String verb) {
    return switch (verb) {
      case "filter" -> "filter.ncc-true.json";
      case "prioritize" -> "prioritize.ncc-true.json";
      case "preempt" -> "preempt.ncc-true.json";
      default -> "bind.json";
    };
  }
}
