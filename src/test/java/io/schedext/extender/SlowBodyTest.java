package io.schedext.extender;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.schedext.testing.Http;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.test.context.SpringBootTest;

/**
 * Clients that send their headers and then stall inside the body (raw sockets against the running
 * server) get a 408 within the server's read timeout instead of holding a worker for a minute, and
 * while as many of them as there are workers stall, filter still answers. The time to the 408 is
 * printed (measured, never asserted).
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
class SlowBodyTest {

  private static final String FILTER =
      "{\"Pod\":{\"metadata\":{\"name\":\"p\",\"namespace\":\"default\",\"uid\":\"u\"}},"
          + "\"NodeNames\":[\"node-a1\"]}";

  @Value("${local.server.port}")
  int port;

  @Value("${server.tomcat.threads.max}")
  int workers;

  /** Sends the headers of a filter call announcing the whole body, and only its first half. */
  private Socket stalledFilter() throws IOException {
    Socket s = new Socket(InetAddress.getLoopbackAddress(), port);
    s.setSoTimeout(30_000);
    byte[] body = FILTER.getBytes(StandardCharsets.UTF_8);
    OutputStream out = s.getOutputStream();
    out.write(
        ("POST /scheduler/filter HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n"
                + "Content-Length: "
                + body.length
                + "\r\n\r\n")
            .getBytes(StandardCharsets.US_ASCII));
    out.write(body, 0, body.length / 2);
    out.flush();
    return s;
  }

  /**
   * The status line and the rest of the answer (headers and body; the server closes the connection
   * after it).
   */
  private static List<String> answer(Socket s) throws IOException {
    BufferedReader in =
        new BufferedReader(new InputStreamReader(s.getInputStream(), StandardCharsets.UTF_8));
    String status = in.readLine();
    StringBuilder rest = new StringBuilder();
    String line;
    while ((line = in.readLine()) != null) {
      rest.append(line).append('\n');
    }
    return List.of(status, rest.toString());
  }

  @Test
  void aBodyStalledHalfwayIsAnswered408() throws Exception {
    // The first call initialises the dispatcher; time the stalls after it.
    assertThat(new Http(port).post("/scheduler/filter", FILTER).status()).isEqualTo(200);
    for (int i = 0; i < 3; i++) {
      long t0 = System.nanoTime();
      try (Socket s = stalledFilter()) {
        List<String> answer = answer(s);
        long millis = (System.nanoTime() - t0) / 1_000_000;
        assertThat(answer.get(0)).isEqualTo("HTTP/1.1 408 ");
        assertThat(answer.get(1)).contains("{\"Error\":\"request body not received in time");
        System.out.printf("stalled body answered %s after %d ms%n", answer.get(0).trim(), millis);
      }
    }
  }

  @Test
  void asManyStalledBodiesAsWorkersDoNotStopFilter() throws Exception {
    List<Socket> stalled = new ArrayList<>();
    try {
      for (int i = 0; i < workers; i++) {
        stalled.add(stalledFilter());
      }
      JsonNode j = new Http(port).post("/scheduler/filter", FILTER).json();
      assertThat(j.get("NodeNames")).extracting(JsonNode::asText).containsExactly("node-a1");
      for (Socket s : stalled) {
        assertThat(answer(s).get(0)).isEqualTo("HTTP/1.1 408 ");
      }
    } finally {
      for (Socket s : stalled) {
        s.close();
      }
    }
  }
}
