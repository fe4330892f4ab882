package io.schedext.extender;

import static org.assertj.core.api.Assertions.assertThat;

import com.github.benmanes.caffeine.cache.Ticker;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/** The pods kept for a following bind: by UID, bounded in number and age, with no pool thread. */
class SeenPodsTest {

  private final AtomicLong now = new AtomicLong();
  private final Ticker ticker = now::get;

  private static Pod pod(String uid) {
    return new PodBuilder()
        .withNewMetadata()
        .withName("p-" + uid)
        .withNamespace("default")
        .withUid(uid)
        .endMetadata()
        .build();
  }

  @Test
  void remembersByUidAndIgnoresPodsWithout() {
    SeenPods seen = new SeenPods(10, Duration.ofMinutes(1), ticker);
    seen.remember(pod("u1"));
    seen.remember(pod(""));
    seen.remember(new PodBuilder().withNewMetadata().withName("no-uid").endMetadata().build());

    assertThat(seen.get("u1").getMetadata().getName()).isEqualTo("p-u1");
    assertThat(seen.get("")).isNull();
  }

  @Test
  void forgetsAPodOnceItsTimeIsUp() {
    SeenPods seen = new SeenPods(10, Duration.ofMinutes(1), ticker);
    seen.remember(pod("u1"));
    now.addAndGet(Duration.ofSeconds(59).toNanos());
    assertThat(seen.get("u1")).isNotNull();

    now.addAndGet(Duration.ofSeconds(2).toNanos());
    assertThat(seen.get("u1")).isNull();
  }

  @Test
  void keepsNoMoreThanItsBoundWithoutAPoolThreadsHelp() {
    SeenPods seen = new SeenPods(50, Duration.ofMinutes(1), ticker);
    IntStream.range(0, 500).forEach(i -> seen.remember(pod("u" + i)));

    // Upkeep runs on the writing thread, so the bound holds as soon as the writes return.
    long kept = IntStream.range(0, 500).filter(i -> seen.get("u" + i) != null).count();
    assertThat(kept).isBetween(1L, 50L);
  }
}
