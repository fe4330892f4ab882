package io.schedext.extender.wire;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.schedext.extender.WireCodec;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

/**
 * {@link NameArray} encodes exactly as a list of strings, whether a name needs escaping or not,
 * with the encodings a {@link NodeNameIndex} keeps or without.
 */
class NameArrayTest {

  private static final WireCodec CODEC = new WireCodec(1 << 20);

  private static String json(Object o) {
    return new String(CODEC.encode(o), StandardCharsets.UTF_8);
  }

  @Test
  void encodesAsAListOfStrings() {
    String[] names = {
      "node-1",
      "a.b.example.com",
      "quote\"d",
      "back\\slash",
      "tab\tbed",
      "zoné",
      "日本",
      "",
      "del\u007f",
      "\ud83d\ude00"
    };
    assertThat(json(new NameArray(names))).isEqualTo(json(Arrays.asList(names)));
    assertThat(new NameArray(names)).containsExactly(names);
    assertThat(json(new NameArray(new String[0]))).isEqualTo("[]");
  }

  @Test
  void writesTheIndexsEncodingsAsTheNamesThemselves() {
    String[] names = {"node-1", "quote\"d", "back\\slash", "tab\tbed", "zoné", "", "node-2"};
    NodeNameIndex index = NodeNameIndex.of(names);
    byte[][] encoded = new byte[names.length][];
    for (int i = 0; i < names.length; i++) {
      encoded[i] = index.json(i);
    }
    assertThat(json(new NameArray(names, encoded))).isEqualTo(json(Arrays.asList(names)));
  }

  @Test
  void theIndexKeepsAnEncodingOnlyForNamesThatNeedNoEscaping() {
    NodeNameIndex index =
        NodeNameIndex.of("node-1", "quote\"d", "back\\slash", "tab\tbed", "zoné", "del\u007f");
    assertThat(index.json(0)).isEqualTo("node-1".getBytes(StandardCharsets.US_ASCII));
    for (int i = 1; i < 6; i++) {
      assertThat(index.json(i)).as("name %d", i).isNull();
    }
    assertThat(index.json(-1)).as("a name the index does not hold").isNull();
  }

  @Test
  void needsOneEncodingSlotPerName() {
    assertThatThrownBy(() -> new NameArray(new String[2], new byte[1][]))
        .isInstanceOf(IllegalArgumentException.class);
  }
}
