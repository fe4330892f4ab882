package io.schedext.extender.wire;

import static org.assertj.core.api.Assertions.assertThat;

import io.schedext.extender.WireCodec;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Replies encoded into a {@link ReplyBuffer} — where the node lists append their elements directly
 * — are byte for byte what Jackson writes token by token into any other stream.
 */
class ReplyBufferTest {

  private static final WireCodec CODEC = new WireCodec(1 << 20);

  /** Names that need every kind of escaping JSON has, and names that need none. */
  private static final String[] NAMES = {
    "node-1",
    "quo\"te",
    "back\\slash",
    "tab\there",
    "ctl\u0001x",
    "nöde-ü",
    "emoji-\uD83D\uDE00",
    "lone-\uD83D",
    "\uDE00-low",
    "",
    "node-2"
  };

  /** Through the reply buffer (raw appends). */
  private static String raw(Object o) {
    ReplyBuffer buf = new ReplyBuffer(16);
    CODEC.encode(o, buf);
    return new String(buf.array(), 0, buf.size(), StandardCharsets.UTF_8);
  }

  /** Through Jackson's own generator into a plain byte stream (no raw appends). */
  private static String generated(Object o) throws Exception {
    return new String(CODEC.mapper().writeValueAsBytes(o), StandardCharsets.UTF_8);
  }

  private static NameArray encodedNames(String... names) {
    // The index keeps an encoding only for names that need no escaping; the others are encoded when
    // written.
    NodeNameIndex index = NodeNameIndex.of(names);
    byte[][] encoded = new byte[names.length][];
    for (int i = 0; i < names.length; i++) {
      encoded[i] = index.json(index.position(names[i]));
    }
    return new NameArray(names, encoded);
  }

  @Test
  void filterRepliesWithNodeNamesBetweenOtherFieldsAreIdentical() throws Exception {
    Map<String, String> failed = new LinkedHashMap<>();
    failed.put("node-3", "node(s) didn't match Pod's node affinity/selector");
    failed.put("nö\"de", "Insufficient cpu");
    ExtenderFilterResult r =
        new ExtenderFilterResult(null, encodedNames(NAMES), failed, Map.of(), "");

    assertThat(raw(r)).isEqualTo(generated(r));
    assertThat(raw(r))
        .isEqualTo(generated(new ExtenderFilterResult(null, List.of(NAMES), failed, Map.of(), "")));
    assertThat(raw(r))
        .startsWith("{\"Nodes\":null,\"NodeNames\":[\"node-1\",\"quo\\\"te\",")
        .contains("\"ctl\\u0001x\"", "\"tab\\there\"", ",\"\",\"node-2\"],\"FailedNodes\":{");
    ExtenderFilterResult empty =
        new ExtenderFilterResult(null, encodedNames(), Map.of(), Map.of(), "");
    assertThat(raw(empty)).isEqualTo(generated(empty)).contains("\"NodeNames\":[],");
  }

  @Test
  void priorityListsInsideOtherValuesAreIdentical() throws Exception {
    long[] scores = {0, 7, 10, 100, -3, 1234567890123L, Long.MAX_VALUE, Long.MIN_VALUE, 42, 5, 9};
    NodeNameIndex index = NodeNameIndex.of(NAMES);
    byte[][] encoded = new byte[NAMES.length][];
    for (int i = 0; i < NAMES.length; i++) {
      encoded[i] = index.json(index.position(NAMES[i]));
    }
    HostPriorityList withEncodings = new HostPriorityList(NAMES, encoded, scores, NAMES.length);
    HostPriorityList without = new HostPriorityList(NAMES, scores, NAMES.length - 1);
    // Arrays of arrays and fields of objects: the separators around a raw value are the
    // generator's.
    Object nested = List.of(withEncodings, without, Map.of("k", withEncodings));

    assertThat(raw(withEncodings)).isEqualTo(generated(withEncodings));
    assertThat(raw(nested)).isEqualTo(generated(nested));
    List<HostPriority> records =
        Arrays.stream(new int[] {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10})
            .mapToObj(i -> new HostPriority(NAMES[i], scores[i]))
            .toList();
    assertThat(raw(withEncodings))
        .isEqualTo(generated(records))
        .contains(
            "\"Score\":-9223372036854775808}", "\"Score\":9223372036854775807}", "\"Score\":-3}");
    HostPriorityList none = new HostPriorityList(new String[0], new long[0], 0);
    assertThat(raw(none)).isEqualTo("[]");
  }

  @Test
  void numbersAreWrittenAsDecimalText() {
    long[] values = {
      0,
      1,
      9,
      10,
      11,
      99,
      100,
      101,
      -1,
      -9,
      -10,
      4096,
      999_999_999_999L,
      Long.MAX_VALUE,
      Long.MIN_VALUE,
      Long.MIN_VALUE + 1
    };
    for (long v : values) {
      ReplyBuffer b = new ReplyBuffer(16);
      b.number(v);
      assertThat(new String(b.toByteArray(), StandardCharsets.US_ASCII))
          .as("%d", v)
          .isEqualTo(Long.toString(v));
    }
  }

  @Test
  void growsAsNeededAndResetKeepsCapacity() {
    ReplyBuffer b = new ReplyBuffer(16);
    byte[] chunk = new byte[1000];
    for (int i = 0; i < 300; i++) {
      Arrays.fill(chunk, (byte) ('a' + i % 26));
      b.write(chunk, 0, chunk.length);
    }
    assertThat(b.size()).isEqualTo(300_000);
    assertThat(b.array()[299_999]).isEqualTo((byte) ('a' + 299 % 26));
    assertThat(b.array()[0]).isEqualTo((byte) 'a');
    int capacity = b.capacity();
    b.reset();
    assertThat(b.size()).isZero();
    assertThat(b.capacity()).isEqualTo(capacity);
  }

  @Test
  void buffersAreReusedUnlessTheyGrewTooLarge() {
    WireCodec codec = new WireCodec(1 << 20);
    ReplyBuffer first = codec.borrowBuffer();
    first.write('x');
    codec.release(first);
    ReplyBuffer again = codec.borrowBuffer();
    assertThat(again).isSameAs(first);
    assertThat(again.size()).isZero();
    ReplyBuffer other = codec.borrowBuffer();
    assertThat(other).isNotSameAs(again);

    byte[] big = new byte[5 * 1024 * 1024];
    again.write(big, 0, big.length);
    codec.release(again);
    codec.release(other);
    assertThat(codec.borrowBuffer()).isSameAs(other);
    assertThat(codec.borrowBuffer()).isNotSameAs(again);
  }
}
