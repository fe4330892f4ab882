package io.schedext.extender.wire;

import static org.assertj.core.api.Assertions.assertThat;

import io.schedext.extender.WireCodec;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

/** {@link NameArray} encodes exactly as a list of strings, whether a name needs escaping or not. */
class NameArrayTest {

  private static final WireCodec CODEC = new WireCodec(1 << 20);

  private static String json(Object o) {
    return new String(CODEC.encode(o), StandardCharsets.UTF_8);
  }

  @Test
  void encodesAsAListOfStrings() {
    String[] names = {"node-1", "a.b.example.com", "quote\"d", "back\\slash", "tab\tbed", "zoné", "日本", "",
        "del\u007f", "\ud83d\ude00"};
    assertThat(json(new NameArray(names))).isEqualTo(json(Arrays.asList(names)));
    assertThat(new NameArray(names)).containsExactly(names);
    assertThat(json(new NameArray(new String[0]))).isEqualTo("[]");
  }
}
