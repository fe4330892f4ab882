package io.schedext.scheduler;

import static org.assertj.core.api.Assertions.assertThat;
import static org.mockito.Mockito.mock;

import io.fabric8.kubernetes.api.model.Pod;
import io.schedext.cache.Snapshot;
import io.schedext.framework.CycleState;
import io.schedext.framework.NodeInfo;
import io.schedext.framework.runtime.Framework;
import io.schedext.testing.MakeNode;
import io.schedext.testing.MakePod;
import java.util.List;
import java.util.function.Function;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * {@link PreFilterHandoff} hands a filter call's state on only to a prioritize call of the same
 * cycle: the same framework, the very same snapshot and the same pod (same UID and resource
 * version, or an equal pod).
 */
class PreFilterHandoffTest {

  private static final Framework FW = mock(Framework.class);
  private static final Framework OTHER_FW = mock(Framework.class);
  private static final Snapshot SNAPSHOT =
      Snapshot.of(List.of(NodeInfo.of(MakeNode.node().name("n1").obj())));
  private static final Snapshot NEWER =
      Snapshot.of(List.of(NodeInfo.of(MakeNode.node().name("n1").obj())));
  private static final Pod POD = MakePod.pod().name("p").namespace("default").uid("u1").obj();

  private static Pod pod(String uid, String resourceVersion, String label) {
    Pod p = MakePod.pod().name("p").namespace("default").uid(uid).label("app", label).obj();
    p.getMetadata().setResourceVersion(resourceVersion);
    return p;
  }

  /**
   * @param name what the prioritize call differs in
   * @param offered the pod the filter call offered its state for
   * @param take the lookup the prioritize call makes
   * @param handedOn whether it gets the state
   */
  record Case(
      String name, Pod offered, Function<PreFilterHandoff, CycleState> take, boolean handedOn) {
    @Override
    public String toString() {
      return name;
    }
  }

  static Stream<Case> cases() {
    Pod v1 = pod("u1", "7", "a");
    return Stream.of(
        new Case(
            "the same pod object on the same snapshot is handed on",
            POD,
            h -> h.take(FW, SNAPSHOT, POD),
            true),
        new Case(
            "an equal copy of the pod (same UID and resource version) is handed on",
            v1,
            h -> h.take(FW, SNAPSHOT, pod("u1", "7", "changed-but-same-version")),
            true),
        new Case(
            "an equal pod without a resource version is handed on",
            pod("u1", null, "a"),
            h -> h.take(FW, SNAPSHOT, pod("u1", null, "a")),
            true),
        new Case(
            "a different pod is not", v1, h -> h.take(FW, SNAPSHOT, pod("u2", "7", "a")), false),
        new Case(
            "a newer version of the pod is not",
            pod("u1", null, "a"),
            h -> h.take(FW, SNAPSHOT, pod("u1", null, "b")),
            false),
        new Case(
            "another snapshot (the cache changed in between) is not",
            POD,
            h -> h.take(FW, NEWER, POD),
            false),
        new Case(
            "another profile's framework is not",
            POD,
            h -> h.take(OTHER_FW, SNAPSHOT, POD),
            false));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void handsTheStateOnOnlyWithinOneCycle(Case c) {
    PreFilterHandoff handoff = new PreFilterHandoff();
    assertThat(c.take().apply(handoff)).as("nothing offered yet").isNull();
    CycleState state = new CycleState(SNAPSHOT);
    handoff.offer(FW, SNAPSHOT, c.offered(), state);

    CycleState taken = c.take().apply(handoff);

    if (c.handedOn()) {
      assertThat(taken)
          .as("a copy sharing the PreFilter data, not the filter call's own state")
          .isNotNull()
          .isNotSameAs(state);
    } else {
      assertThat(taken).isNull();
    }
  }
}
