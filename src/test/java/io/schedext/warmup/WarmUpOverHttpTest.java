package io.schedext.warmup;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.micrometer.core.instrument.MeterRegistry;
import io.schedext.testing.Http;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.test.context.SpringBootTest;

/**
 * The warm-up before readiness posts its calls to the running service, over real HTTP, and they
 * reach only its own endpoint: the live one counts none of them.
 */
@SpringBootTest(
    webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
    properties = {
      "extender.cluster.file=classpath:cluster/demo-cluster.yaml",
      "extender.scheduling.warm-up-calls=40",
      "extender.scheduling.warm-up-small-calls=10"
    })
class WarmUpOverHttpTest {

  @Value("${local.server.port}")
  int port;

  @Autowired WarmUp warmUp;

  @Autowired MeterRegistry registry;

  @Test
  void everyPairGoesOverHttpToTheWarmUpsOwnEndpoint() {
    await().atMost(Duration.ofSeconds(60)).until(warmUp::finished);
    assertThat(warmUp.done()).isEqualTo(50);
    assertThat(warmUp.pairsOverHttp()).isEqualTo(50);
    // The warm-up's endpoint counted its calls in the warm-up's own metrics (the other test may add
    // a filter call)...
    assertThat(
            warmUp
                .metrics()
                .registry()
                .find("extender.request.duration")
                .tags("verb", "prioritize", "outcome", "ok")
                .timer()
                .count())
        .isEqualTo(50);
    // ...and the live endpoint none.
    assertThat(registry.find("extender.request.duration").timers()).isEmpty();
    assertThat(new Http(port).get("/actuator/health/readiness").status()).isEqualTo(200);
  }

  @Test
  void theWarmUpsEndpointIsOnlyUnderItsOwnUnguessablePrefix() {
    assertThat(warmUp.pathPrefix()).matches("/warm-up/[0-9a-f]{32}");
    String body = "{\"Pod\":{\"metadata\":{\"name\":\"p\"}},\"NodeNames\":[\"node-a1\"]}";
    Http http = new Http(port);
    assertThat(http.post("/warm-up/" + "0".repeat(32) + "/scheduler/filter", body).status())
        .isIn(404, 405);
    Http.Reply own = http.post(warmUp.pathPrefix() + "/scheduler/filter", body);
    assertThat(own.status()).isEqualTo(200);
    assertThat(own.json().get("NodeNames").get(0).asText()).isEqualTo("node-a1");
    // The warm-up's endpoint serves filter and prioritize only.
    assertThat(http.post(warmUp.pathPrefix() + "/scheduler/bind", "{}").status()).isEqualTo(404);
  }
}
