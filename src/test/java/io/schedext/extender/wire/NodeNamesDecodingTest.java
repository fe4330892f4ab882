package io.schedext.extender.wire;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.schedext.extender.BadRequestException;
import io.schedext.extender.WireCodec;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

/**
 * {@code NodeNames} decoding: canonical instances for known names, Jackson's list semantics
 * otherwise.
 */
class NodeNamesDecodingTest {

  private static final WireCodec CODEC = new WireCodec(1 << 20);
  private static final String POD = "{\"metadata\":{\"name\":\"p\"}}";

  private static ExtenderArgs decode(String nodeNames, NodeNameIndex names) {
    String body = "{\"Pod\":" + POD + ",\"NodeNames\":" + nodeNames + "}";
    return CODEC.decode(
        new ByteArrayInputStream(body.getBytes(StandardCharsets.UTF_8)), ExtenderArgs.class, names);
  }

  @Test
  void knownNamesAreTheIndexsInstancesAndOthersAreDecodedAsGiven() {
    String a = new String("node-a");
    NodeNameIndex names = NodeNameIndex.of(a, "node-b");

    ExtenderArgs args =
        decode("[\"node-a\",\"elsewhere\",null,\"node-b\",7,\"n\\u006fde-a\"]", names);

    assertThat(args.nodeNames())
        .containsExactly("node-a", "elsewhere", null, "node-b", "7", "node-a");
    assertThat(args.nodeNames().get(0)).isSameAs(a);
    assertThat(args.nodeNames().get(5)).as("an escaped spelling of a known name").isSameAs(a);
    NodeNameList list = (NodeNameList) args.nodeNames();
    assertThat(list.index()).isSameAs(names);
    int[] positions = new int[list.size()];
    for (int i = 0; i < positions.length; i++) {
      positions[i] = list.position(i);
    }
    assertThat(positions)
        .as("positions in the index, -1 for names it does not hold")
        .containsExactly(0, -1, -1, 1, -1, 0);
  }

  @Test
  void withoutAnIndexTheNamesAreDecodedAsGiven() {
    assertThat(decode("[\"node-a\",\"x\"]", null).nodeNames()).containsExactly("node-a", "x");
    assertThat(decode("[]", NodeNameIndex.of("node-a")).nodeNames()).isEmpty();
    assertThat(decode("null", NodeNameIndex.of("node-a")).nodeNames()).isNull();
  }

  @Test
  void aNameListOfThousandsRoundTrips() {
    String[] all = new String[3000];
    for (int i = 0; i < all.length; i++) {
      all[i] = "node-" + i;
    }
    String json =
        Arrays.stream(all).map(n -> "\"" + n + "\"").reduce((x, y) -> x + "," + y).orElseThrow();

    ExtenderArgs args = decode("[" + json + "]", NodeNameIndex.of(all));

    assertThat(args.nodeNames()).containsExactly(all);
    for (int i = 0; i < all.length; i++) {
      assertThat(args.nodeNames().get(i)).isSameAs(all[i]);
      assertThat(((NodeNameList) args.nodeNames()).position(i)).isEqualTo(i);
    }
  }

  @Test
  void wrongShapesNameTheField() {
    NodeNameIndex names = NodeNameIndex.of("node-a");
    assertThatThrownBy(() -> decode("5", names))
        .isInstanceOf(BadRequestException.class)
        .hasMessageContaining("field \"NodeNames\"");
    assertThatThrownBy(() -> decode("[{\"a\":1}]", names))
        .isInstanceOf(BadRequestException.class)
        .hasMessageContaining("field \"NodeNames[0]\"");
    assertThatThrownBy(() -> decode("[\"node-a\"", names))
        .isInstanceOf(BadRequestException.class)
        .hasMessageContaining("malformed JSON");
  }
}
