package io.schedext.extender.wire;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
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

  /** A hinted lookup: the name, the position tried first, the position expected. */
  record Hinted(String why, String name, int likely, int expected) {}

  @Test
  void aLikelyPositionNeverChangesTheAnswer() {
    // Positions: 0 node-a, 1 null, 2 node-b, 3 node-a again, 4 node-ab.
    NodeNameIndex in = NodeNameIndex.of("node-a", null, "node-b", "node-a", "node-ab");
    List<Hinted> cases =
        List.of(
            new Hinted("the right guess", "node-b", 2, 2),
            new Hinted("a wrong guess", "node-b", 0, 2),
            new Hinted("no guess", "node-b", -1, 2),
            new Hinted("a guess past the end", "node-b", 5, 2),
            new Hinted("a guess far out of range", "node-b", Integer.MAX_VALUE, 2),
            new Hinted("a negative guess", "node-b", Integer.MIN_VALUE, 2),
            new Hinted("a guess at a null", "node-b", 1, 2),
            new Hinted("a guess at a repeat: the first occurrence", "node-a", 3, 0),
            new Hinted("a guess at a longer name with the same start", "node-a", 4, 0),
            new Hinted("a guess at a shorter name", "node-ab", 0, 4),
            new Hinted("an unknown name, guessed anywhere", "node-c", 2, -1),
            new Hinted("an empty name", "", 1, -1));
    for (Hinted c : cases) {
      char[] buf = chars(c.name());
      assertThat(in.findPosition(buf, 1, c.name().length(), c.likely()))
          .as(c.why())
          .isEqualTo(c.expected())
          .isEqualTo(in.findPosition(buf, 1, c.name().length()));
    }
  }

  @Test
  void namesLookedUpInTheirOwnOrderWithTheNextPositionAsTheGuess() {
    String[] names = new String[1000];
    for (int i = 0; i < names.length; i++) {
      names[i] = String.format("node-%05d", i);
    }
    NodeNameIndex in = NodeNameIndex.of(names);
    int likely = -1;
    // A run from the middle, wrapping around, as kube-scheduler's rotating start gives them.
    for (int k = 0; k < names.length; k++) {
      int i = (k + 617) % names.length;
      int at = in.findPosition(names[i].toCharArray(), 0, names[i].length(), likely);
      assertThat(at).isEqualTo(i);
      likely = at + 1;
    }
  }
}
