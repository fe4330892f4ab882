package io.schedext.config;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.InetAddress;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.tomcat.TomcatWebServer;
import org.springframework.boot.tomcat.servlet.TomcatServletWebServerFactory;
import org.springframework.boot.web.server.Ssl;
import org.springframework.boot.web.server.autoconfigure.ServerProperties;
import org.springframework.boot.web.server.context.WebServerApplicationContext;

/**
 * Without client-certificate authentication or an explicit address, the server listens on loopback
 * only.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
class LoopbackByDefaultTest {

  @Autowired WebServerApplicationContext context;

  @Test
  void theDefaultConfigurationListensOnLoopbackOnly() {
    Object address =
        ((TomcatWebServer) context.getWebServer())
            .getTomcat()
            .getConnector()
            .getProperty("address");
    assertThat(address).isEqualTo(LoopbackByDefault.LOOPBACK);
  }

  @Test
  void theConnectorMovesBodiesInSocketBufferSizedPieces() {
    var connector = ((TomcatWebServer) context.getWebServer()).getTomcat().getConnector();
    assertThat(connector.getProperty("socket.appWriteBufSize"))
        .isEqualTo(Integer.toString(SocketBuffers.BYTES));
    assertThat(connector.getProperty("socket.appReadBufSize"))
        .isEqualTo(Integer.toString(SocketBuffers.BYTES));
  }

  record Case(
      String name, String address, Boolean sslEnabled, Ssl.ClientAuth clientAuth, String expected) {
    @Override
    public String toString() {
      return name;
    }
  }

  static Stream<Case> cases() {
    return Stream.of(
        new Case("no address and no TLS: loopback", null, null, null, "127.0.0.1"),
        new Case(
            "TLS without client certificates: still loopback",
            null,
            true,
            Ssl.ClientAuth.NONE,
            "127.0.0.1"),
        new Case(
            "client certificates only wanted, not required: still loopback",
            null,
            true,
            Ssl.ClientAuth.WANT,
            "127.0.0.1"),
        new Case(
            "client certificates required on disabled TLS: loopback",
            null,
            false,
            Ssl.ClientAuth.NEED,
            "127.0.0.1"),
        new Case(
            "client certificates required: every interface", null, true, Ssl.ClientAuth.NEED, null),
        new Case("an explicit address wins without TLS", "0.0.0.0", null, null, "0.0.0.0"),
        new Case(
            "an explicit loopback address wins with client certificates",
            "127.0.0.1",
            true,
            Ssl.ClientAuth.NEED,
            "127.0.0.1"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void theListenAddressFollowsTheAccessSettings(Case c) throws Exception {
    ServerProperties server = new ServerProperties();
    TomcatServletWebServerFactory factory = new TomcatServletWebServerFactory();
    if (c.address() != null) {
      server.setAddress(InetAddress.getByName(c.address()));
      factory.setAddress(server.getAddress());
    }
    if (c.sslEnabled() != null) {
      Ssl ssl = Ssl.forBundle("extender");
      ssl.setEnabled(c.sslEnabled());
      ssl.setClientAuth(c.clientAuth());
      server.setSsl(ssl);
    }
    new LoopbackByDefault(server).customize(factory);
    assertThat(factory.getAddress() == null ? null : factory.getAddress().getHostAddress())
        .isEqualTo(c.expected());
  }
}
