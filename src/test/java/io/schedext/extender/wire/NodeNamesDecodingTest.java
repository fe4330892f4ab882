package io.schedext.extender.wire;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.schedext.extender.BadRequestException;
import io.schedext.extender.WireCodec;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.stream.IntStream;
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

  /** An order kube-scheduler may send an index's names in. */
  record Order(String name, int[] positions) {}

  @Test
  void everyOrderDecodesToTheSamePositionsWhateverTheGuessesDo() {
    int n = 1000;
    String[] all = new String[n];
    for (int i = 0; i < n; i++) {
      all[i] = String.format("node-%05d", i);
    }
    NodeNameIndex index = NodeNameIndex.of(all);
    // Three runs woven together, each in the index's order with a step of three, as kube-scheduler
    // sent them in the real loop (zones interleaved, each zone starting at another node).
    int[] woven = new int[420];
    for (int k = 0; k < woven.length; k++) {
      int[] starts = {715, 684, 659};
      woven[k] = (starts[k % 3] + 3 * (k / 3)) % n;
    }
    int[] shuffled = IntStream.range(0, n).toArray();
    Random random = new Random(42);
    for (int k = n - 1; k > 0; k--) {
      int j = random.nextInt(k + 1);
      int x = shuffled[k];
      shuffled[k] = shuffled[j];
      shuffled[j] = x;
    }
    List<Order> orders =
        List.of(
            new Order("the index's order, wrapping", wrapped(n, 617)),
            new Order("three runs woven", woven),
            new Order("nine runs woven, more than the guesses follow", wovenBy(9, n)),
            new Order("shuffled", shuffled),
            new Order("repeats and names not held", new int[] {5, 6, -1, 6, 7, -1, -1, 8, 5}));
    for (Order o : orders) {
      StringBuilder json = new StringBuilder("[");
      for (int k = 0; k < o.positions().length; k++) {
        int at = o.positions()[k];
        json.append(k == 0 ? "" : ",")
            .append('"')
            .append(at < 0 ? "gone-" + k : all[at])
            .append('"');
      }
      NodeNameList list = (NodeNameList) decode(json.append(']').toString(), index).nodeNames();
      int[] decoded = new int[list.size()];
      for (int k = 0; k < decoded.length; k++) {
        decoded[k] = list.position(k);
      }
      assertThat(decoded).as(o.name()).containsExactly(o.positions());
    }
  }

  private static int[] wrapped(int n, int start) {
    int[] out = new int[n];
    for (int k = 0; k < n; k++) {
      out[k] = (start + k) % n;
    }
    return out;
  }

  private static int[] wovenBy(int runs, int n) {
    int[] out = new int[n - n % runs];
    for (int k = 0; k < out.length; k++) {
      out[k] = (k % runs) * (n / runs) + k / runs;
    }
    return out;
  }
}
