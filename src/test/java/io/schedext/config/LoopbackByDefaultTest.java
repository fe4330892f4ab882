package io.schedext.config;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.beans.factory.annotation.Value;
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

  @Value("${local.server.port}")
  int port;

  private static final String FILTER =
      "{\"Pod\":{\"metadata\":{\"name\":\"p\",\"namespace\":\"default\",\"uid\":\"u\"}},"
          + "\"NodeNames\":[]}";

  /**
   * kube-scheduler keeps its connection and calls twice per pod: the server never closes it after a
   * number of requests (Tomcat's default is 100).
   */
  @Test
  void oneConnectionServesRequestAfterRequest() throws IOException {
    try (Socket socket = new Socket(InetAddress.getLoopbackAddress(), port)) {
      OutputStream out = socket.getOutputStream();
      InputStream in = new BufferedInputStream(socket.getInputStream());
      for (int i = 1; i <= 150; i++) {
        out.write(
            ("POST /scheduler/filter HTTP/1.1\r\nHost: localhost\r\n"
                    + "Content-Type: application/json\r\nContent-Length: "
                    + FILTER.length()
                    + "\r\n\r\n"
                    + FILTER)
                .getBytes(StandardCharsets.US_ASCII));
        out.flush();
        String head = head(in);
        assertThat(head).as("response %d", i).startsWith("HTTP/1.1 200");
        assertThat(head.toLowerCase(Locale.ROOT))
            .as("response %d", i)
            .doesNotContain("connection: close");
        Matcher length = Pattern.compile("(?i)content-length: *(\\d+)").matcher(head);
        assertThat(length.find()).as("response %d has a length", i).isTrue();
        in.readNBytes(Integer.parseInt(length.group(1)));
      }
    }
  }

  /** A response's status line and headers, up to the blank line. */
  private static String head(InputStream in) throws IOException {
    StringBuilder sb = new StringBuilder();
    while (!sb.toString().endsWith("\r\n\r\n")) {
      int b = in.read();
      if (b < 0) {
        throw new EOFException("the server closed the connection after: " + sb);
      }
      sb.append((char) b);
    }
    return sb.toString();
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
