package io.schedext.warmup;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The warm-up's HTTP client, against a real HTTP server on loopback. */
class LoopbackClientTest {

  private HttpServer server;
  private final List<String> seen = new CopyOnWriteArrayList<>();
  private final Set<Integer> clientPorts = ConcurrentHashMap.newKeySet();

  /** A loopback server answering every request with {@code handler}, recording what it saw. */
  private InetSocketAddress serve(Handler handler) throws IOException {
    server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 8);
    server.createContext(
        "/",
        ex -> {
          byte[] body = ex.getRequestBody().readAllBytes();
          clientPorts.add(ex.getRemoteAddress().getPort());
          seen.add(
              ex.getRequestMethod()
                  + " "
                  + ex.getRequestURI()
                  + " "
                  + ex.getRequestHeaders().getFirst("Content-Type")
                  + " "
                  + ex.getRequestHeaders().getFirst("User-Agent")
                  + " "
                  + new String(body, StandardCharsets.UTF_8));
          handler.handle(ex);
        });
    server.start();
    return server.getAddress();
  }

  private interface Handler {
    void handle(HttpExchange ex) throws IOException;
  }

  private static Handler reply(int status, String body) {
    return ex -> {
      byte[] b = body.getBytes(StandardCharsets.UTF_8);
      ex.sendResponseHeaders(status, b.length == 0 ? -1 : b.length);
      try (OutputStream out = ex.getResponseBody()) {
        out.write(b);
      }
    };
  }

  @AfterEach
  void stop() {
    if (server != null) {
      server.stop(0);
    }
  }

  @Test
  void postsJsonAsKubeSchedulersTransportAndKeepsTheConnection() throws IOException {
    InetSocketAddress at = serve(reply(200, "{\"NodeNames\":[\"n1\"]}"));
    try (LoopbackClient client = new LoopbackClient(at, 5_000)) {
      assertThat(client.post("/scheduler/filter", bytes("{\"a\":1}"))).isEqualTo(200);
      assertThat(client.post("/scheduler/prioritize", bytes("{\"b\":2}"))).isEqualTo(200);
    }
    assertThat(seen)
        .containsExactly(
            "POST /scheduler/filter application/json Go-http-client/1.1 {\"a\":1}",
            "POST /scheduler/prioritize application/json Go-http-client/1.1 {\"b\":2}");
    assertThat(clientPorts).as("one kept-alive connection").hasSize(1);
  }

  @Test
  void returnsTheStatusOfEveryReplyReadInFull() throws IOException {
    InetSocketAddress at =
        serve(
            ex ->
                reply(
                        ex.getRequestURI().getPath().endsWith("missing") ? 404 : 500,
                        "{\"Error\":\"x\"}")
                    .handle(ex));
    try (LoopbackClient client = new LoopbackClient(at, 5_000)) {
      assertThat(client.post("/missing", bytes("{}"))).isEqualTo(404);
      assertThat(client.post("/broken", bytes("{}"))).isEqualTo(500);
      assertThat(client.post("/missing", bytes("{}"))).isEqualTo(404);
    }
    assertThat(clientPorts).hasSize(1);
  }

  @Test
  void aReplyWithoutBodyKeepsTheConnectionToo() throws IOException {
    InetSocketAddress at = serve(reply(204, ""));
    try (LoopbackClient client = new LoopbackClient(at, 5_000)) {
      assertThat(client.post("/a", bytes("{}"))).isEqualTo(204);
      assertThat(client.post("/b", bytes("{}"))).isEqualTo(204);
    }
    assertThat(clientPorts).hasSize(1);
  }

  @Test
  void aServerThatClosesTheConnectionGetsANewOneForTheNextPost() throws IOException {
    InetSocketAddress at =
        serve(
            ex -> {
              ex.getResponseHeaders().set("Connection", "close");
              reply(200, "{}").handle(ex);
            });
    try (LoopbackClient client = new LoopbackClient(at, 5_000)) {
      assertThat(client.post("/a", bytes("{}"))).isEqualTo(200);
      assertThat(client.post("/b", bytes("{}"))).isEqualTo(200);
    }
    assertThat(seen).hasSize(2);
    assertThat(clientPorts).hasSize(2);
  }

  @Test
  void aChunkedReplyIsRefused() throws IOException {
    InetSocketAddress at =
        serve(
            ex -> {
              ex.sendResponseHeaders(200, 0);
              try (OutputStream out = ex.getResponseBody()) {
                out.write(bytes("{}"));
              }
            });
    try (LoopbackClient client = new LoopbackClient(at, 5_000)) {
      assertThatThrownBy(() -> client.post("/a", bytes("{}")))
          .isInstanceOf(IOException.class)
          .hasMessageContaining("Transfer-Encoding chunked");
    }
  }

  @Test
  void somethingOtherThanHttpIsAnError() throws IOException {
    try (ServerSocket raw = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      Thread t =
          new Thread(
              () -> {
                try (Socket s = raw.accept()) {
                  s.getOutputStream().write(bytes("SSH-2.0-OpenSSH\r\n\r\n"));
                  // Open until the client closes: a peer gone first could fail the client's write
                  // of its request (a broken pipe) before its read of this.
                  s.getInputStream().transferTo(OutputStream.nullOutputStream());
                } catch (IOException e) {
                  // The test fails on the client's side if this does.
                }
              });
      t.start();
      try (LoopbackClient client =
          new LoopbackClient(
              new InetSocketAddress(raw.getInetAddress(), raw.getLocalPort()), 5_000)) {
        assertThatThrownBy(() -> client.post("/a", bytes("{}")))
            .isInstanceOf(IOException.class)
            .hasMessage("not an HTTP/1.x reply: SSH-2.0-OpenSSH");
      }
    }
  }

  @Test
  void nobodyListeningIsAnError() throws IOException {
    int port;
    try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      port = s.getLocalPort();
    }
    try (LoopbackClient client =
        new LoopbackClient(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 5_000)) {
      assertThatThrownBy(() -> client.post("/a", bytes("{}"))).isInstanceOf(IOException.class);
    }
  }

  record Case(String head, Integer status) {}

  @Test
  void theStatusIsReadFromTheStatusLine() {
    List<Case> cases =
        List.of(
            new Case("HTTP/1.1 200 OK\r\n\r\n", 200),
            new Case("HTTP/1.0 503 Service Unavailable\r\n\r\n", 503),
            new Case("HTTP/1.1 404\r\n\r\n", 404),
            new Case("HTTP/2 200\r\n\r\n", null),
            new Case("HTTP/1.1 2x0 OK\r\n\r\n", null),
            new Case("HTTP/1.1\r\n\r\n", null),
            new Case("", null));
    for (Case c : cases) {
      if (c.status() == null) {
        assertThatThrownBy(() -> LoopbackClient.status(c.head()))
            .as(c.head())
            .isInstanceOf(IOException.class)
            .hasMessageStartingWith("not an HTTP/1.x reply");
      } else {
        assertThat(call(c.head())).as(c.head()).isEqualTo(c.status());
      }
    }
  }

  private static int call(String head) {
    try {
      return LoopbackClient.status(head);
    } catch (IOException e) {
      throw new AssertionError(e);
    }
  }

  private static byte[] bytes(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }
}
