package io.schedext.extender;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/** The pods kept for a following bind: by UID, bounded in number and age, oldest first. */
class SeenPodsTest {

  private final AtomicLong now = new AtomicLong();
  private final LongSupplier ticker = now::get;

  private static Pod pod(String uid) {
    return pod(uid, null);
  }

  private static Pod pod(String uid, String resourceVersion) {
    return new PodBuilder()
        .withNewMetadata()
        .withName("p-" + uid)
        .withNamespace("default")
        .withUid(uid)
        .withResourceVersion(resourceVersion)
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
  void keepsExactlyItsBoundOfTheLatestPods() {
    SeenPods seen = new SeenPods(50, Duration.ofMinutes(1), ticker);
    IntStream.range(0, 500).forEach(i -> seen.remember(pod("u" + i)));

    assertThat(IntStream.range(0, 500).filter(i -> seen.get("u" + i) != null))
        .containsExactlyElementsOf(IntStream.range(450, 500).boxed().toList());
    assertThat(seen.size()).isEqualTo(50);
  }

  /** How a second sighting of a pod's UID treats the first. */
  record Case(
      String name,
      String firstVersion,
      String secondVersion,
      long secondsBetween,
      boolean replaced) {}

  @Test
  void aPodSeenAgainAtTheSameVersionIsKeptAsItWasUntilHalfItsTime() {
    List<Case> cases =
        List.of(
            new Case("same version, soon after", "7", "7", 10, false),
            new Case("same version, just before half the time", "7", "7", 29, false),
            new Case("same version, after half the time", "7", "7", 30, true),
            new Case("a newer version", "7", "8", 10, true),
            new Case("no version on either", null, null, 10, true),
            new Case("an empty version on both", "", "", 10, true),
            new Case("a version where there was none", null, "8", 10, true));
    for (Case c : cases) {
      now.set(0);
      SeenPods seen = new SeenPods(10, Duration.ofMinutes(1), ticker);
      Pod first = pod("u1", c.firstVersion());
      Pod second = pod("u1", c.secondVersion());
      seen.remember(first);
      now.addAndGet(Duration.ofSeconds(c.secondsBetween()).toNanos());
      seen.remember(second);

      assertThat(seen.get("u1")).as(c.name()).isSameAs(c.replaced() ? second : first);
    }
  }

  @Test
  void aPodKeptUnchangedStillExpiresFromItsFirstSighting() {
    SeenPods seen = new SeenPods(10, Duration.ofMinutes(1), ticker);
    seen.remember(pod("u1", "7"));
    now.addAndGet(Duration.ofSeconds(20).toNanos());
    seen.remember(pod("u1", "7"));
    now.addAndGet(Duration.ofSeconds(41).toNanos());

    assertThat(seen.get("u1")).isNull();
  }

  @Test
  void theOldestPodsGoFirstWhenTheBoundIsReached() {
    SeenPods seen = new SeenPods(3, Duration.ofMinutes(1), ticker);
    for (String uid : List.of("u1", "u2", "u3", "u4")) {
      seen.remember(pod(uid));
    }

    assertThat(seen.get("u1")).isNull();
    assertThat(List.of("u2", "u3", "u4")).allMatch(uid -> seen.get(uid) != null);
    assertThat(seen.size()).isEqualTo(3);
  }

  @Test
  void aPodKeptAgainIsNotLetGoWithItsOlderPlace() {
    SeenPods seen = new SeenPods(3, Duration.ofMinutes(1), ticker);
    seen.remember(pod("u1", "1"));
    seen.remember(pod("u2"));
    seen.remember(pod("u1", "2"));
    // The order is full: u1's first place goes, which must not take u1's newer keeping with it.
    seen.remember(pod("u3"));
    seen.remember(pod("u4"));

    assertThat(seen.get("u1").getMetadata().getResourceVersion()).isEqualTo("2");
    assertThat(seen.get("u2")).isNull();
    assertThat(seen.get("u3")).isNotNull();
    assertThat(seen.get("u4")).isNotNull();
  }

  @Test
  void expiredPodsAreLetGoByTheNextWrite() {
    SeenPods seen = new SeenPods(10, Duration.ofMinutes(1), ticker);
    seen.remember(pod("u1"));
    seen.remember(pod("u2"));
    now.addAndGet(Duration.ofSeconds(30).toNanos());
    seen.remember(pod("u3"));
    now.addAndGet(Duration.ofSeconds(31).toNanos());
    assertThat(seen.size()).as("nothing is let go without a write").isEqualTo(3);

    seen.remember(pod("u4"));
    assertThat(seen.size()).isEqualTo(2);
    assertThat(seen.get("u3")).isNotNull();
    assertThat(seen.get("u4")).isNotNull();
  }

  @Test
  void aBoundBelowOneIsRefused() {
    assertThatThrownBy(() -> new SeenPods(0, Duration.ofMinutes(1), ticker))
        .isInstanceOf(IllegalArgumentException.class);
  }
}
