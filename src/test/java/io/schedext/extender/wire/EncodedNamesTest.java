package io.schedext.extender.wire;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.schedext.extender.WireCodec;
import io.schedext.framework.NodeInfo;
import io.schedext.testing.MakeNode;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/** {@link EncodedNames} encodes exactly as a list of strings, with node infos' name encodings or without. */
class EncodedNamesTest {

  private static final WireCodec CODEC = new WireCodec(1 << 20);

  private static String json(Object o) {
    return new String(CODEC.encode(o), StandardCharsets.UTF_8);
  }

  private static EncodedNames of(String... names) {
    String[] n = names.clone();
    byte[][] encoded = new byte[n.length][];
    for (int i = 0; i < n.length; i++) {
      encoded[i] = NodeInfo.of(MakeNode.node().name(n[i]).obj()).nameJson();
    }
    return new EncodedNames(n, encoded);
  }

  @Test
  void encodesAsAListOfStrings() {
    String[] names = {"node-1", "a.b.example.com", "quote\"d", "back\\slash", "tab\tbed", "zoné", "日本", ""};
    assertThat(json(of(names))).isEqualTo(json(Arrays.asList(names)));
    assertThat(of(names)).containsExactly(names);
    assertThat(json(new EncodedNames(new String[0], new byte[0][]))).isEqualTo("[]");
  }

  @Test
  void nodeInfosKeepTheEncodingOfNamesThatNeedNoEscaping() {
    assertThat(NodeInfo.of(MakeNode.node().name("node-1").obj()).nameJson())
        .isEqualTo("node-1".getBytes(StandardCharsets.US_ASCII));
    for (String needsMore : List.of("quote\"d", "back\\slash", "tab\tbed", "zoné")) {
      assertThat(NodeInfo.of(MakeNode.node().name(needsMore).obj()).nameJson()).as(needsMore).isNull();
    }
    NodeInfo renamed = NodeInfo.of(MakeNode.node().name("old").obj());
    renamed.setNode(MakeNode.node().name("new").obj());
    assertThat(renamed.nameJson()).isEqualTo("new".getBytes(StandardCharsets.US_ASCII));
    assertThat(renamed.snapshotCopy().nameJson()).isSameAs(renamed.nameJson());
  }

  @Test
  void needsOneEncodingSlotPerName() {
    assertThatThrownBy(() -> new EncodedNames(new String[2], new byte[1][]))
        .isInstanceOf(IllegalArgumentException.class);
  }
}
