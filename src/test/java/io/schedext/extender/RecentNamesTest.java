package io.schedext.extender;

import static org.assertj.core.api.Assertions.assertThat;

import io.schedext.extender.wire.ExtenderArgs;
import io.schedext.extender.wire.NodeNameIndex;
import io.schedext.extender.wire.NodeNameList;
import io.schedext.extender.wire.RecentNames;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A prioritize body whose {@code NodeNames} are byte for byte the names of the last filter reply
 * ({@link RecentNames}) is decoded to those names and positions without a lookup; any other array
 * is decoded as before, to the same names and positions.
 */
class RecentNamesTest {

  private static final String POD =
      "{\"metadata\":{\"name\":\"p\",\"namespace\":\"default\",\"uid\":\"u\"},\"spec\":{}}";

  private static final NodeNameIndex INDEX = NodeNameIndex.of("node-a", "node-b", "node-c", "d");

  /** The filter reply kept: node-c, node-a, d. */
  private static final int[] REPLIED = {2, 0, 3};

  private final WireCodec codec = new WireCodec(1 << 20);

  private static byte[] body(String names) {
    return ("{\"Pod\":" + POD + ",\"Nodes\":null,\"NodeNames\":" + names + "}")
        .getBytes(StandardCharsets.UTF_8);
  }

  /** Where {@code body}'s NodeNames array starts. */
  private static int arrayStart(byte[] body) {
    return new String(body, StandardCharsets.UTF_8).indexOf("\"NodeNames\":") + 12;
  }

  private static List<Integer> positions(List<String> names) {
    NodeNameList l = (NodeNameList) names;
    List<Integer> out = new ArrayList<>();
    for (int i = 0; i < l.size(); i++) {
      out.add(l.position(i));
    }
    return out;
  }

  /**
   * @param name what the array is
   * @param names the body's NodeNames array
   * @param index the index the call decodes against
   * @param matches whether the kept names are taken without a lookup
   */
  record Case(String name, String names, NodeNameIndex index, boolean matches) {}

  @Test
  void onlyTheRepliedNamesByteForByteAreTakenAsKept() {
    NodeNameIndex sameNames = NodeNameIndex.of("node-a", "node-b", "node-c", "d");
    List<Case> cases =
        List.of(
            new Case(
                "the reply's names, as Go writes them",
                "[\"node-c\",\"node-a\",\"d\"]",
                INDEX,
                true),
            new Case("another order", "[\"node-a\",\"node-c\",\"d\"]", INDEX, false),
            new Case("one name fewer", "[\"node-c\",\"node-a\"]", INDEX, false),
            new Case("one name more", "[\"node-c\",\"node-a\",\"d\",\"node-b\"]", INDEX, false),
            new Case("a longer last name", "[\"node-c\",\"node-a\",\"dd\"]", INDEX, false),
            new Case("a space", "[\"node-c\", \"node-a\",\"d\"]", INDEX, false),
            new Case("an escaped letter", "[\"node-\\u0063\",\"node-a\",\"d\"]", INDEX, false),
            new Case("an unknown name", "[\"node-c\",\"node-x\",\"d\"]", INDEX, false),
            new Case("empty", "[]", INDEX, false),
            new Case(
                "the same names in another index",
                "[\"node-c\",\"node-a\",\"d\"]",
                sameNames,
                false));
    for (Case c : cases) {
      codec.recentNames().keep(INDEX, REPLIED);
      byte[] body = body(c.names());

      NodeNameList kept = codec.recentNames().match(body, arrayStart(body), c.index());
      ExtenderArgs args = codec.decodePlain(body, c.index());
      codec.recentNames().keep(INDEX, new int[] {1});
      ExtenderArgs looked = codec.decodePlain(body, c.index());

      assertThat(kept != null).as(c.name()).isEqualTo(c.matches());
      assertThat(args).as(c.name()).isNotNull();
      assertThat(args.nodeNames()).as(c.name()).isEqualTo(looked.nodeNames());
      assertThat(positions(args.nodeNames())).as(c.name()).isEqualTo(positions(looked.nodeNames()));
      assertThat(args.pod()).as(c.name()).isEqualTo(looked.pod());
    }
  }

  @Test
  void theKeptNamesComeWithTheirPositions() {
    codec.recentNames().keep(INDEX, REPLIED);
    byte[] body = body("[\"node-c\",\"node-a\",\"d\"]");

    List<String> names = codec.decodePlain(body, INDEX).nodeNames();

    assertThat(names).containsExactly("node-c", "node-a", "d");
    assertThat(positions(names)).containsExactly(2, 0, 3);
    assertThat(names.get(0)).isSameAs(INDEX.name(2));
  }

  @Test
  void repliesWithNamesTheIndexCannotEncodeOrDoesNotHoldKeepNothing() {
    NodeNameIndex escaped = NodeNameIndex.of("quote\"d", "plain");
    byte[] quoted = body("[\"quote\\\"d\",\"plain\"]");
    byte[] plain = body("[\"plain\"]");

    codec.recentNames().keep(escaped, new int[] {0, 1});
    NodeNameList afterEscaped = codec.recentNames().match(quoted, arrayStart(quoted), escaped);
    codec.recentNames().keep(escaped, new int[] {1});
    codec.recentNames().keep(escaped, new int[] {-1, 1});
    NodeNameList afterUnknown = codec.recentNames().match(plain, arrayStart(plain), escaped);
    codec.recentNames().keep(escaped, new int[] {1});
    NodeNameList afterPlain = codec.recentNames().match(plain, arrayStart(plain), escaped);

    assertThat(afterEscaped).isNull();
    assertThat(afterUnknown).as("the reply before is not kept either").isNull();
    assertThat(afterPlain).containsExactly("plain");
    assertThat(codec.decodePlain(quoted, escaped).nodeNames()).containsExactly("quote\"d", "plain");
  }

  @Test
  void aMatchThatRunsOffTheBodyIsNone() {
    codec.recentNames().keep(INDEX, REPLIED);
    byte[] whole = "[\"node-c\",\"node-a\",\"d\"]".getBytes(StandardCharsets.UTF_8);

    for (int cut = 0; cut < whole.length; cut++) {
      byte[] part = java.util.Arrays.copyOf(whole, cut);
      assertThat(codec.recentNames().match(part, 0, INDEX)).as("%d bytes", cut).isNull();
    }
    assertThat(codec.recentNames().match(whole, 0, INDEX)).containsExactly("node-c", "node-a", "d");
    assertThat(codec.recentNames().match(whole, -1, INDEX)).isNull();
    assertThat(codec.recentNames().match(whole, whole.length, INDEX)).isNull();
  }
}
