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
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.test.context.SpringBootTest;

/**
 * kube-scheduler keeps its connection to the extender and calls it twice per pod: the server keeps
 * a connection open for as many requests as it is sent.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
class KeepAliveTest {

  @Value("${local.server.port}")
  int port;

  private static final String FILTER =
      "{\"Pod\":{\"metadata\":{\"name\":\"p\",\"namespace\":\"default\",\"uid\":\"u\"}},"
          + "\"NodeNames\":[]}";

  private static final Pattern CONTENT_LENGTH = Pattern.compile("(?i)content-length: *(\\d+)");

  /** Never closed after a number of requests (Tomcat's default is 100). */
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
        Matcher length = CONTENT_LENGTH.matcher(head);
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
}
