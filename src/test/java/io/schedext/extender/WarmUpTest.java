package io.schedext.extender;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.schedext.cluster.ObjectStore;
import io.schedext.config.ProfileFrameworks;
import io.schedext.framework.Frameworks;
import io.schedext.framework.Parallelizer;
import io.schedext.framework.Registry;
import io.schedext.plugins.InTreeRegistry;
import io.schedext.testing.TestFrameworks;
import java.time.Duration;
import org.junit.jupiter.api.Test;

class WarmUpTest {

  private final Registry registry = InTreeRegistry.create();
  private final ObjectStore liveStore = new ObjectStore();
  private final Frameworks live = ProfileFrameworks.build(
      ProfileFrameworks.configured("", "", "", registry.names()), registry, TestFrameworks.services(liveStore), "");

  @Test
  void makesEveryCallAgainstItsOwnClusterAndFinishes() {
    try (Parallelizer parallelizer = new Parallelizer(2)) {
      WarmUp w = WarmUp.start(60, live, registry, parallelizer, new WireCodec(1 << 20));

      await().atMost(Duration.ofSeconds(60)).until(w::finished);

      assertThat(w.done()).isEqualTo(60);
      assertThat(w.failure()).isEmpty();
      assertThat(liveStore.count(io.fabric8.kubernetes.api.model.Service.class)).as("the live store").isZero();
    }
  }

  @Test
  void noCallsIsFinishedFromTheStart() {
    try (Parallelizer parallelizer = new Parallelizer(2)) {
      WarmUp w = WarmUp.start(0, live, registry, parallelizer, new WireCodec(1 << 20));

      assertThat(w.finished()).isTrue();
      assertThat(w.done()).isZero();
    }
  }
}
