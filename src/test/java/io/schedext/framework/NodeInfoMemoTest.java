package io.schedext.framework;

import static org.assertj.core.api.Assertions.assertThat;

import io.schedext.testing.MakeNode;
import io.schedext.testing.MakePod;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * {@link NodeInfo#memoize} and {@link NodeInfo#memoizeObject}: values remembered per node info
 * under typed keys.
 */
class NodeInfoMemoTest {

  /** A key as plugins declare them: a record of the keyed function's inputs. */
  private record PodsIn(String namespace) {}

  /** Another function's key with the same components: a different key. */
  private record PodsOutside(String namespace) {}

  /** A key whose instances all hash alike, so lookups must compare them. */
  private record Colliding(int id) {
    @Override
    public int hashCode() {
      return 7;
    }
  }

  private static int podsIn(NodeInfo node, PodsIn key) {
    return (int) node.pods().stream().filter(p -> p.namespace().equals(key.namespace())).count();
  }

  @Test
  void aRememberedValueIsComputedOnceUntilTheNodeChanges() {
    NodeInfo n =
        MakeNode.node().name("n").capacity(Map.of("cpu", "4")).info(MakePod.pod().name("a").info());
    AtomicInteger calls = new AtomicInteger();
    PodsIn key = new PodsIn("default");
    assertThat(
            n.memoize(
                key,
                x -> {
                  calls.incrementAndGet();
                  return x.pods().size();
                }))
        .isEqualTo(1);
    assertThat(
            n.memoize(
                key,
                x -> {
                  calls.incrementAndGet();
                  return x.pods().size();
                }))
        .isEqualTo(1);
    assertThat(calls).hasValue(1);
    n.addPod(MakePod.pod().name("b").info());
    assertThat(
            n.memoize(
                key,
                x -> {
                  calls.incrementAndGet();
                  return x.pods().size();
                }))
        .isEqualTo(2);
    assertThat(calls).hasValue(2);
  }

  @Test
  void anEqualKeyBuiltAgainFindsTheValueAndAnotherInputDoesNot() {
    NodeInfo n = MakeNode.node().name("n").info(MakePod.pod().name("a").namespace("ns1").info());
    assertThat(n.memoize(new PodsIn("ns1"), new PodsIn("ns1"), NodeInfoMemoTest::podsIn))
        .isEqualTo(1);
    assertThat(n.memoize(new PodsIn("ns1"), new PodsIn("ns1"), (x, k) -> -1))
        .as("an equal key")
        .isEqualTo(1);
    assertThat(n.memoize(new PodsIn("ns2"), new PodsIn("ns2"), NodeInfoMemoTest::podsIn))
        .as("another namespace")
        .isZero();
  }

  @Test
  void keysOfAnotherTypeWithEqualComponentsAreAnotherKey() {
    NodeInfo n = MakeNode.node().name("n").info();
    List<String> inside = n.memoizeObject(new PodsIn("ns"), null, (x, a) -> List.of("inside"));
    List<String> outside =
        n.memoizeObject(new PodsOutside("ns"), null, (x, a) -> List.of("outside"));
    assertThat(inside).containsExactly("inside");
    assertThat(outside).containsExactly("outside");
  }

  @Test
  void aSnapshotCopyStartsWithoutRememberedValues() {
    NodeInfo n = MakeNode.node().name("n").info(MakePod.pod().name("a").info());
    PodsIn key = new PodsIn("k");
    n.memoize(key, x -> 41);
    NodeInfo copy = n.snapshotCopy();
    assertThat(copy.memoize(key, x -> 42)).isEqualTo(42);
    assertThat(n.memoize(key, x -> 43)).isEqualTo(41);
  }

  @Test
  void onlyTheLastEightKeysAreKept() {
    NodeInfo n = MakeNode.node().name("n").info();
    for (int i = 0; i < 9; i++) {
      int v = i;
      n.memoize(new PodsIn("k" + i), x -> v);
    }
    assertThat(n.memoize(new PodsIn("k0"), x -> -1)).as("the oldest key was dropped").isEqualTo(-1);
    assertThat(n.memoize(new PodsIn("k8"), x -> -1)).isEqualTo(8);
  }

  @Test
  void keysMatchByValueNotOnlyByReferenceOrHash() {
    NodeInfo n = MakeNode.node().name("n").info();
    n.memoize(new Colliding(1), x -> 1);
    assertThat(n.memoize(new Colliding(2), x -> 2)).as("same hash, another key").isEqualTo(2);
    assertThat(n.memoize(new Colliding(1), x -> -1))
        .as("an equal key of another instance")
        .isEqualTo(1);
    assertThat(n.memoize(new Colliding(2), x -> -1)).isEqualTo(2);
  }
}
