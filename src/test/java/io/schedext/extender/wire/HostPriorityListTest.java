package io.schedext.extender.wire;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.schedext.extender.WireCodec;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

/** {@link HostPriorityList} reads and encodes exactly as a list of {@link HostPriority}. */
class HostPriorityListTest {

  private static final WireCodec CODEC = new WireCodec(1 << 20);

  private static String json(Object o) {
    return new String(CODEC.encode(o), StandardCharsets.UTF_8);
  }

  @Test
  void encodesAndReadsLikeAListOfRecords() {
    HostPriorityList list =
        new HostPriorityList(
            new String[] {"a", "b\"q", "c", "unused"}, new long[] {10, 0, 7, 99}, 3);
    List<HostPriority> same =
        List.of(new HostPriority("a", 10), new HostPriority("b\"q", 0), new HostPriority("c", 7));

    assertThat(json(list))
        .isEqualTo(json(same))
        .isEqualTo(
            "[{\"Host\":\"a\",\"Score\":10},{\"Host\":\"b\\\"q\",\"Score\":0},{\"Host\":\"c\",\"Score\":7}]");
    assertThat(list).isEqualTo(same).hasSize(3);
    assertThat(json(new HostPriorityList(new String[0], new long[0], 0))).isEqualTo("[]");
  }

  @Test
  void encodedHostsAreCopiedAndTheRestEncoded() {
    byte[][] encoded = {
      "a".getBytes(StandardCharsets.US_ASCII), null, "c".getBytes(StandardCharsets.US_ASCII)
    };
    HostPriorityList list =
        new HostPriorityList(new String[] {"a", "b\"q", "c"}, encoded, new long[] {10, 0, 7}, 3);
    List<HostPriority> same =
        List.of(new HostPriority("a", 10), new HostPriority("b\"q", 0), new HostPriority("c", 7));
    assertThat(json(list)).isEqualTo(json(same));
  }

  @Test
  void isBoundedByItsSize() {
    HostPriorityList list = new HostPriorityList(new String[] {"a", "b"}, new long[] {1, 2}, 1);
    assertThatThrownBy(() -> list.get(1)).isInstanceOf(IndexOutOfBoundsException.class);
    assertThatThrownBy(() -> list.add(new HostPriority("x", 1)))
        .isInstanceOf(UnsupportedOperationException.class);
    assertThatThrownBy(() -> new HostPriorityList(new String[1], new long[2], 2))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> new HostPriorityList(new String[2], new long[1], 2))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> new HostPriorityList(new String[2], new byte[1][], new long[2], 2))
        .isInstanceOf(IllegalArgumentException.class);
  }
}
