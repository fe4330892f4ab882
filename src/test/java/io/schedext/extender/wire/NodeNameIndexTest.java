package io.schedext.extender.wire;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/**
 * {@link NodeNameIndex}: canonical instances from characters, unknown names null, hash collisions
 * told apart.
 */
class NodeNameIndexTest {

  private static char[] chars(String s) {
    return ("[" + s + "]").toCharArray();
  }

  @Test
  void findsTheCanonicalInstanceFromASliceOfCharacters() {
    String a = new String("node-a1");
    String b = new String("node-b2");
    NodeNameIndex in = NodeNameIndex.of(a, b, null, new String("node-a1"));

    assertThat(in.size()).isEqualTo(2);
    assertThat(in.find(chars("node-a1"), 1, 7)).isSameAs(a);
    assertThat(in.find(chars("node-b2"), 1, 7)).isSameAs(b);
    assertThat(in.find(chars("node-c3"), 1, 7)).isNull();
    assertThat(in.find(chars("node-a"), 1, 6)).as("a prefix is another name").isNull();
    assertThat(in.find(chars(""), 1, 0)).isNull();
  }

  @Test
  void positionIsTheIndexOfTheFirstOccurrence() {
    String a = "node-a";
    NodeNameIndex in = NodeNameIndex.of(a, null, "node-b", "node-a");

    assertThat(in.position(a)).isZero();
    assertThat(in.position(new String("node-a"))).as("an equal, other instance").isZero();
    assertThat(in.position("node-b")).isEqualTo(2);
    assertThat(in.position("node-c")).isEqualTo(-1);
    assertThat(NodeNameIndex.of().position("x")).isEqualTo(-1);
  }

  @Test
  void namesWithTheSameHashAreToldApart() {
    // "Aa" and "BB" share String.hashCode, so they probe the same slot.
    assertThat("Aa".hashCode()).isEqualTo("BB".hashCode());
    NodeNameIndex in = NodeNameIndex.of("Aa", "BB");

    assertThat(in.find(chars("Aa"), 1, 2)).isEqualTo("Aa");
    assertThat(in.find(chars("BB"), 1, 2)).isEqualTo("BB");
    assertThat(in.find(chars("Ab"), 1, 2)).isNull();
  }

  @Test
  void manyNamesAndAnEmptySet() {
    String[] names = new String[5000];
    for (int i = 0; i < names.length; i++) {
      names[i] = "node-" + i;
    }
    NodeNameIndex in = NodeNameIndex.of(names);
    for (String n : names) {
      assertThat(in.find(n.toCharArray(), 0, n.length())).isSameAs(n);
    }
    assertThat(in.find("node-5000".toCharArray(), 0, 9)).isNull();
    assertThat(NodeNameIndex.of().find("x".toCharArray(), 0, 1)).isNull();
    assertThat(NodeNameIndex.of().size()).isZero();
  }
}
