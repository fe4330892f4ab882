package io.schedext.extender;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.mockito.Mockito.mock;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.schedext.cache.EventGate;
import io.schedext.cluster.ClusterSource;
import io.schedext.extender.wire.ExtenderBindingResult;
import io.schedext.testing.FixedSource;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/** The verb table: every verb once, gated and asynchronous exactly where the protocol needs it. */
class VerbsTest {

  private final Verbs verbs =
      Verbs.of(
          new WireCodec(1 << 20),
          mock(FilterService.class),
          mock(PrioritizeService.class),
          mock(PreemptionService.class),
          mock(BindService.class),
          mock(ExplainService.class));

  @Test
  void listsTheProtocolsVerbsAndExplain() {
    assertThat(verbs.names()).isEqualTo("filter, prioritize, preempt, bind, explain");
    assertThat(verbs.get("unknown")).isNull();
  }

  @Test
  void holdsWatchEventsBackOnlyForTheCallsKubeSchedulerWaitsOnPerPod() {
    assertThat(
            Stream.of("filter", "prioritize", "preempt", "bind", "explain")
                .filter(v -> verbs.get(v).gated()))
        .containsExactly("filter", "prioritize", "preempt");
    assertThat(
            Stream.of("filter", "prioritize", "preempt", "bind", "explain")
                .filter(v -> verbs.get(v).async()))
        .containsExactly("bind");
  }

  @Test
  void answersWhileNotReadyInEachVerbsOwnForm() {
    ClusterSource notReady = FixedSource.notReady("watches down");
    assertThat(verbs.get("prioritize").notReady()).isNotNull();
    assertThat(verbs.get("explain").notReady()).as("explain reads only its snapshot").isNull();
    @SuppressWarnings("unchecked")
    Verb<Object> prioritize = (Verb<Object>) verbs.get("prioritize");
    assertThat(prioritize.unlessReady(null, notReady).status()).isEqualTo(503);
    assertThat(prioritize.unlessReady(null, FixedSource.ready())).isNull();
  }

  @Test
  void refusesAVerbDefinedTwice() {
    Verb<?> filter = verbs.get("filter");
    assertThatThrownBy(() -> new Verbs(List.of(filter, filter)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("filter");
  }

  @Test
  void anyAsynchronousVerbIsAnsweredFromABindWorker() throws Exception {
    Verb<?> bind = verbs.get("bind");
    List<String> threads = new java.util.concurrent.CopyOnWriteArrayList<>();
    Verb<?> other =
        new Verb<>(
            "other",
            false,
            true,
            bind.decoder(),
            null,
            (call, args) -> {
              threads.add(Thread.currentThread().getName());
              return Reply.ok(new ExtenderBindingResult("answered"));
            });
    ExtenderEndpoint endpoint =
        VerbHarness.endpoint(
            new Verbs(List.of(verbs.get("filter"), bind, other)),
            FixedSource.ready(),
            new ExtenderMetrics(new SimpleMeterRegistry()),
            EventGate.off());

    var response =
        VerbHarness.post(
            endpoint,
            "/scheduler/other",
            "{\"PodName\":\"p\",\"PodNamespace\":\"d\",\"PodUID\":\"u\",\"Node\":\"n\"}"
                .getBytes(java.nio.charset.StandardCharsets.UTF_8));

    assertThat(response.getStatus()).isEqualTo(200);
    assertThat(response.getContentAsString()).contains("answered");
    assertThat(threads).singleElement().asString().startsWith("bind-");
  }
}
