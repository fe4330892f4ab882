package io.schedext.framework;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** {@link Interner}: one instance per distinct key, bounded. */
class InternerTest {

  private record Key(String namespace, Map<String, String> labels) {}

  @Test
  void equalKeysGiveTheFirstInstanceAndOthersTheirOwn() {
    Interner<Key> interner = new Interner<>(8);
    Key first = new Key("ns", Map.of("app", "a"));
    assertThat(interner.intern(first)).isSameAs(first);
    assertThat(interner.intern(new Key("ns", Map.of("app", "a")))).isSameAs(first);
    Key other = new Key("ns", Map.of("app", "b"));
    assertThat(interner.intern(other)).isSameAs(other);
  }

  @Test
  void aFullInternerStartsAgainAndStillGivesEqualKeys() {
    Interner<Key> interner = new Interner<>(2);
    for (String ns : List.of("a", "b", "c", "d", "e")) {
      Key k = new Key(ns, Map.of());
      assertThat(interner.intern(k)).isEqualTo(k);
      assertThat(interner.size()).isLessThanOrEqualTo(2);
    }
    assertThat(interner.intern(new Key("a", Map.of()))).isEqualTo(new Key("a", Map.of()));
  }

  @Test
  void needsRoomForOneKey() {
    assertThatThrownBy(() -> new Interner<Key>(0)).isInstanceOf(IllegalArgumentException.class);
  }
}
