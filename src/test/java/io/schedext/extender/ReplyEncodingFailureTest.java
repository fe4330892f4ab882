package io.schedext.extender;

import static org.assertj.core.api.Assertions.assertThat;
import static org.mockito.ArgumentMatchers.any;
import static org.mockito.Mockito.mock;
import static org.mockito.Mockito.when;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.schedext.cache.EventGate;
import io.schedext.cluster.ClusterSource;
import io.schedext.extender.wire.HostPriority;
import io.schedext.testing.Http;
import java.nio.charset.StandardCharsets;
import java.util.AbstractList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.springframework.mock.web.MockHttpServletRequest;
import org.springframework.mock.web.MockHttpServletResponse;

/**
 * A reply is encoded completely before anything is sent, so one that cannot be encoded becomes a
 * 500 whose {@code Error} says why, rather than a cut-off body. No request can produce such a
 * reply; the service is replaced by one returning a list that fails while it is written.
 */
class ReplyEncodingFailureTest {

  @Test
  void aReplyThatCannotBeEncodedIsA500WithTheReason() throws Exception {
    List<HostPriority> broken =
        new AbstractList<>() {
          @Override
          public HostPriority get(int index) {
            throw new IllegalStateException("no score for node n1");
          }

          @Override
          public int size() {
            return 1;
          }
        };
    PrioritizeService prioritize = mock(PrioritizeService.class);
    when(prioritize.prioritize(any(), any())).thenReturn(broken);
    ClusterSource source = mock(ClusterSource.class);
    when(source.isReady()).thenReturn(true);
    SimpleMeterRegistry registry = new SimpleMeterRegistry();
    Verbs verbs =
        Verbs.of(
            new WireCodec(1 << 20),
            mock(FilterService.class),
            prioritize,
            mock(PreemptionService.class),
            mock(BindService.class),
            mock(ExplainService.class));
    ExtenderEndpoint endpoint =
        VerbHarness.endpoint(verbs, source, new ExtenderMetrics(registry), EventGate.off());
    MockHttpServletRequest request = new MockHttpServletRequest("POST", "/scheduler/prioritize");
    request.setContent(
        Http.resource("fixtures/kube-scheduler-v1.26/prioritize.ncc-true.json")
            .getBytes(StandardCharsets.UTF_8));

    MockHttpServletResponse response = VerbHarness.serve(endpoint, request);

    assertThat(response.getStatus()).isEqualTo(500);
    byte[] body = response.getContentAsByteArray();
    assertThat(response.getContentLength()).isEqualTo(body.length);
    JsonNode reply = new ObjectMapper().readTree(body);
    assertThat(reply.get("Error").asText())
        .startsWith("internal error: cannot encode the reply: ")
        .contains("no score for node n1");
    assertThat(
            registry
                .find("extender.request.duration")
                .tag("verb", "prioritize")
                .tag("outcome", "error")
                .timer())
        .as("counted as an error")
        .isNotNull()
        .satisfies(t -> assertThat(t.count()).isEqualTo(1));
  }
}
