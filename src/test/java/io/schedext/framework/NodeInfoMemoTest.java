package io.schedext.framework;

import static org.assertj.core.api.Assertions.assertThat;

import io.schedext.testing.MakeNode;
import io.schedext.testing.MakePod;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class NodeInfoMemoTest {

  @Test
  void aRememberedValueIsComputedOnceUntilTheNodeChanges() {
    NodeInfo n = MakeNode.node().name("n").capacity(Map.of("cpu", "4")).info(MakePod.pod().name("a").info());
    AtomicInteger calls = new AtomicInteger();
    assertThat(n.memoize("pods", x -> { calls.incrementAndGet(); return x.pods().size(); })).isEqualTo(1);
    assertThat(n.memoize("pods", x -> { calls.incrementAndGet(); return x.pods().size(); })).isEqualTo(1);
    assertThat(calls).hasValue(1);
    n.addPod(MakePod.pod().name("b").info());
    assertThat(n.memoize("pods", x -> { calls.incrementAndGet(); return x.pods().size(); })).isEqualTo(2);
    assertThat(calls).hasValue(2);
  }

  @Test
  void aSnapshotCopyStartsWithoutRememberedValues() {
    NodeInfo n = MakeNode.node().name("n").info(MakePod.pod().name("a").info());
    n.memoize("k", x -> 41);
    NodeInfo copy = n.snapshotCopy();
    assertThat(copy.memoize("k", x -> 42)).isEqualTo(42);
    assertThat(n.memoize("k", x -> 43)).isEqualTo(41);
  }

  @Test
  void onlyTheLastEightKeysAreKept() {
    NodeInfo n = MakeNode.node().name("n").info();
    for (int i = 0; i < 9; i++) {
      int v = i;
      n.memoize("k" + i, x -> v);
    }
    assertThat(n.memoize("k0", x -> -1)).as("the oldest key was dropped").isEqualTo(-1);
    assertThat(n.memoize("k8", x -> -1)).isEqualTo(8);
  }

  @Test
  void keysMatchByValueNotOnlyByReferenceOrHash() {
    NodeInfo n = MakeNode.node().name("n").info();
    assertThat("Aa".hashCode()).isEqualTo("BB".hashCode());
    n.memoize("Aa", x -> 1);
    assertThat(n.memoize("BB", x -> 2)).as("same hash, another key").isEqualTo(2);
    String equalInstance = new String("Aa");
    assertThat(n.memoize(equalInstance, x -> -1)).as("an equal key of another instance").isEqualTo(1);
    assertThat(n.memoize("BB", x -> -1)).isEqualTo(2);
  }
}
