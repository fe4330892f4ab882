package io.schedext.extender;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.schedext.extender.wire.ExtenderFilterResult;
import io.schedext.extender.wire.HostPriorityList;
import io.schedext.extender.wire.NameArray;
import io.schedext.extender.wire.NodeItems;
import io.schedext.extender.wire.ReplyBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The replies of a scheduling cycle (filter's and prioritize's) are appended to the reply buffer
 * directly, not through the mapper: byte for byte what the mapper writes for them, whatever they
 * hold, and the mapper's own output for what only it writes.
 */
class DirectReplyTest {

  private static final WireCodec CODEC = new WireCodec(1 << 20);

  /** Strings that need every kind of escape JSON has, and a few that need none. */
  private static final String[] ODD = {
    "plain", "", "a\"quote", "back\\slash", "tab\tnew\nline", "\u0001ctl", "é ü", "😀 pair", "<>&'"
  };

  record Case(String name, Object reply) {
    @Override
    public String toString() {
      return name;
    }
  }

  private static Map<String, String> reasons(String... keysAndValues) {
    Map<String, String> m = new LinkedHashMap<>();
    for (int i = 0; i < keysAndValues.length; i += 2) {
      m.put(keysAndValues[i], keysAndValues[i + 1]);
    }
    return m;
  }

  static List<Case> cases() {
    byte[][] encoded = {"n1".getBytes(StandardCharsets.US_ASCII), null, null};
    NameArray names = new NameArray(new String[] {"n1", "n2", "a\"b"}, encoded);
    Map<String, String> odd = new LinkedHashMap<>();
    for (String s : ODD) {
      odd.put("node-" + s, "reason " + s);
    }
    Map<String, String> nullKey = new LinkedHashMap<>();
    nullKey.put(null, "r");
    return List.of(
        new Case(
            "names, no failures", new ExtenderFilterResult(null, names, Map.of(), Map.of(), "")),
        new Case(
            "names without encodings",
            new ExtenderFilterResult(null, new NameArray(ODD), Map.of(), Map.of(), "")),
        new Case(
            "a plain list with a null",
            new ExtenderFilterResult(null, Arrays.asList("a", null, "é"), null, null, null)),
        new Case("no names at all", new ExtenderFilterResult(null, null, null, null, "")),
        new Case(
            "reasons, repeated and null",
            new ExtenderFilterResult(
                null,
                List.of(),
                reasons("n1", "Insufficient cpu", "n2", "Insufficient cpu", "n3", null),
                reasons("n4", "node(s) didn't match Pod's node affinity/selector"),
                "")),
        new Case("reasons needing escapes", new ExtenderFilterResult(null, names, odd, odd, "x")),
        new Case(
            "an error needing escapes",
            new ExtenderFilterResult(null, null, Map.of(), Map.of(), "bad \"thing\"\n😀")),
        new Case(
            "node objects (the mapper's)",
            new ExtenderFilterResult(
                NodeItems.of(
                    List.of(
                        new NodeBuilder().withNewMetadata().withName("n1").endMetadata().build())),
                null,
                Map.of(),
                Map.of(),
                "")),
        new Case(
            "scores",
            new HostPriorityList(
                new String[] {"n1", "n2", "n\"3", "n4"},
                new long[] {0, 100, -7, Long.MIN_VALUE},
                4)),
        new Case(
            "scores with encoded hosts, fewer than the arrays hold",
            new HostPriorityList(
                new String[] {"n1", "n2", "unused"},
                new byte[][] {"n1".getBytes(StandardCharsets.US_ASCII), null, null},
                new long[] {Long.MAX_VALUE, 42, 1},
                2)),
        new Case("no scores", new HostPriorityList(new String[0], new long[0], 0)),
        new Case(
            "a reason map with a null key (the mapper's, which refuses it)",
            new ExtenderFilterResult(null, null, nullKey, Map.of(), "")));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void directRepliesAreTheMappersBytes(Case c) {
    String byMapper;
    try {
      byMapper = new String(CODEC.mapper().writeValueAsBytes(c.reply()), StandardCharsets.UTF_8);
    } catch (Exception e) {
      byMapper = "refused";
    }
    ReplyBuffer buf = new ReplyBuffer(16);
    String direct;
    try {
      CODEC.encode(c.reply(), buf);
      direct = new String(buf.toByteArray(), StandardCharsets.UTF_8);
    } catch (IllegalStateException e) {
      direct = "refused";
    }
    assertThat(direct).isEqualTo(byMapper);
  }
}
