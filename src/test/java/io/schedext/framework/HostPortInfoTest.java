package io.schedext.framework;

import static org.assertj.core.api.Assertions.assertThat;

import io.schedext.framework.HostPortInfo.ProtocolPort;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Host port bookkeeping and conflicts of {@link HostPortInfo}, as upstream's TestHostPortInfo_*
 * tables.
 */
class HostPortInfoTest {

  /**
   * One (protocol, ip, port).
   *
   * @param protocol protocol, "" meaning TCP
   * @param ip host IP, "" meaning 0.0.0.0
   * @param port port
   */
  record P(String protocol, String ip, int port) {}

  private static HostPortInfo of(List<P> ports) {
    HostPortInfo h = new HostPortInfo();
    ports.forEach(p -> h.add(p.ip(), p.protocol(), p.port()));
    return h;
  }

  record AddRemoveCase(String name, List<P> add, List<P> remove, int size) {
    @Override
    public String toString() {
      return name;
    }
  }

  private static final List<P> EXPLICIT =
      List.of(
          new P("TCP", "127.0.0.1", 79),
          new P("UDP", "127.0.0.1", 80),
          new P("TCP", "127.0.0.1", 81),
          new P("TCP", "127.0.0.1", 82),
          new P("TCP", "0.0.0.0", 79),
          new P("UDP", "0.0.0.0", 80),
          new P("TCP", "0.0.0.0", 81),
          new P("TCP", "0.0.0.0", 82),
          new P("TCP", "0.0.0.0", 0),
          new P("TCP", "0.0.0.0", -1));
  private static final List<P> DEFAULTED =
      List.of(
          new P("", "127.0.0.1", 79),
          new P("UDP", "127.0.0.1", 80),
          new P("", "127.0.0.1", 81),
          new P("", "127.0.0.1", 82),
          new P("", "", 79),
          new P("UDP", "", 80),
          new P("", "", 81),
          new P("", "", 82),
          new P("", "", 0),
          new P("", "", -1));

  static Stream<AddRemoveCase> addRemoveCases() {
    return Stream.of(
        new AddRemoveCase("ports above zero are added, others ignored", EXPLICIT, List.of(), 8),
        new AddRemoveCase(
            "an empty protocol and IP are added as TCP and 0.0.0.0", DEFAULTED, List.of(), 8),
        new AddRemoveCase("removing what was added leaves nothing", EXPLICIT, EXPLICIT, 0),
        new AddRemoveCase(
            "removal normalises an empty protocol and IP too", EXPLICIT, DEFAULTED, 0),
        new AddRemoveCase(
            "adding the same port twice keeps one entry",
            List.of(new P("TCP", "", 80), new P("", "0.0.0.0", 80)),
            List.of(),
            1),
        new AddRemoveCase(
            "removing an unknown port changes nothing",
            List.of(new P("TCP", "", 80)),
            List.of(new P("UDP", "", 80), new P("TCP", "10.0.0.1", 80)),
            1));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("addRemoveCases")
  void addAndRemove(AddRemoveCase c) {
    HostPortInfo h = of(c.add());
    c.remove().forEach(p -> h.remove(p.ip(), p.protocol(), p.port()));
    assertThat(h.size()).isEqualTo(c.size());
    if (c.size() == 0) {
      assertThat(h.entries()).as("emptied IPs are dropped").isEmpty();
    }
  }

  @Test
  void entriesAreKeyedByNormalisedIp() {
    assertThat(of(List.of(new P("", "", 80), new P("UDP", "10.0.0.1", 53))).entries())
        .isEqualTo(
            Map.of(
                "0.0.0.0",
                Set.of(new ProtocolPort("TCP", 80)),
                "10.0.0.1",
                Set.of(new ProtocolPort("UDP", 53))));
  }

  record CheckCase(String name, List<P> used, P wanted, boolean conflict) {
    @Override
    public String toString() {
      return name;
    }
  }

  static Stream<CheckCase> checkCases() {
    return Stream.of(
        new CheckCase(
            "the same IP, protocol and port conflict",
            List.of(new P("TCP", "127.0.0.1", 80)),
            new P("TCP", "127.0.0.1", 80),
            true),
        new CheckCase(
            "another protocol does not conflict",
            List.of(new P("TCP", "127.0.0.1", 80)),
            new P("UDP", "127.0.0.1", 80),
            false),
        new CheckCase(
            "another port does not conflict",
            List.of(new P("TCP", "127.0.0.1", 80)),
            new P("TCP", "127.0.0.1", 81),
            false),
        new CheckCase(
            "another specific IP does not conflict",
            List.of(new P("TCP", "127.0.0.1", 80)),
            new P("TCP", "127.0.0.2", 80),
            false),
        new CheckCase(
            "a specific IP conflicts with the port used on 0.0.0.0",
            List.of(new P("TCP", "0.0.0.0", 80)),
            new P("TCP", "127.0.0.1", 80),
            true),
        new CheckCase(
            "0.0.0.0 conflicts with the port used on any IP",
            List.of(new P("TCP", "127.0.0.1", 80)),
            new P("TCP", "0.0.0.0", 80),
            true),
        new CheckCase(
            "0.0.0.0 does not conflict when no IP uses that protocol and port",
            List.of(new P("TCP", "127.0.0.1", 80), new P("UDP", "127.0.0.2", 81)),
            new P("TCP", "0.0.0.0", 81),
            false),
        new CheckCase(
            "an empty IP and protocol mean 0.0.0.0 and TCP",
            List.of(new P("", "", 80)),
            new P("TCP", "127.0.0.1", 80),
            true),
        new CheckCase(
            "an empty wanted IP means 0.0.0.0",
            List.of(new P("TCP", "10.1.1.1", 8080)),
            new P("", "", 8080),
            true),
        new CheckCase(
            "the wildcard of another protocol does not conflict",
            List.of(new P("UDP", "0.0.0.0", 80)),
            new P("TCP", "127.0.0.1", 80),
            false),
        new CheckCase(
            "port zero never conflicts",
            List.of(new P("TCP", "0.0.0.0", 0)),
            new P("TCP", "0.0.0.0", 0),
            false),
        new CheckCase(
            "nothing used, nothing conflicts", List.of(), new P("TCP", "0.0.0.0", 80), false));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("checkCases")
  void checkConflict(CheckCase c) {
    P w = c.wanted();
    assertThat(of(c.used()).checkConflict(w.ip(), w.protocol(), w.port())).isEqualTo(c.conflict());
  }

  @Test
  void aCopyIsIndependent() {
    HostPortInfo h = of(List.of(new P("TCP", "", 80)));
    HostPortInfo c = h.copy();
    c.add("", "TCP", 81);
    c.remove("", "TCP", 80);
    assertThat(h.entries()).isEqualTo(Map.of("0.0.0.0", Set.of(new ProtocolPort("TCP", 80))));
    assertThat(c.entries()).isEqualTo(Map.of("0.0.0.0", Set.of(new ProtocolPort("TCP", 81))));
    assertThat(ProtocolPort.of(null, 1)).isEqualTo(new ProtocolPort("TCP", 1));
  }
}
