package io.schedext.bench;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.Executors;

/**
 * The HTTP floor of the extender protocol: an extender that does no scheduling work. {@code filter}
 * passes every node it is sent by name ({@code nodeCacheCapable} mode) and {@code prioritize}
 * scores none. It runs as its own process ({@code main(port)}) so its CPU time can be read apart,
 * on the JDK's HTTP server with TCP_NODELAY (without it, Go's client and Nagle's algorithm cost ~40
 * ms a call).
 */
public final class NoopExtender {

  private static final byte[] PRIORITIES = "[]".getBytes(StandardCharsets.US_ASCII);
  private static final byte[] NAMES_FIELD = "\"NodeNames\":".getBytes(StandardCharsets.US_ASCII);

  private NoopExtender() {}

  /** Serves on 127.0.0.1:{@code args[0]} until killed. */
  public static void main(String[] args) throws IOException {
    System.setProperty("sun.net.httpserver.nodelay", "true");
    HttpServer server =
        HttpServer.create(
            new InetSocketAddress(InetAddress.getLoopbackAddress(), Integer.parseInt(args[0])), 64);
    server.setExecutor(Executors.newFixedThreadPool(4));
    server.createContext("/scheduler/filter", NoopExtender::filter);
    server.createContext("/scheduler/prioritize", ex -> reply(ex, PRIORITIES));
    server.createContext("/ready", ex -> reply(ex, PRIORITIES));
    server.start();
  }

  /** Echoes the request's {@code NodeNames} array as the feasible nodes. */
  static void filter(HttpExchange ex) throws IOException {
    byte[] body = ex.getRequestBody().readAllBytes();
    int start = indexOf(body, NAMES_FIELD);
    String names = "[]";
    if (start >= 0) {
      int open = start + NAMES_FIELD.length;
      while (open < body.length && body[open] != '[' && body[open] != 'n') {
        open++;
      }
      if (open < body.length && body[open] == '[') {
        int close = open;
        while (close < body.length && body[close] != ']') {
          close++;
        }
        names = new String(body, open, close - open + 1, StandardCharsets.UTF_8);
      }
    }
    reply(
        ex,
        ("{\"NodeNames\":"
                + names
                + ",\"FailedNodes\":{},\"FailedAndUnresolvableNodes\":{},\"Error\":\"\"}")
            .getBytes(StandardCharsets.UTF_8));
  }

  private static int indexOf(byte[] haystack, byte[] needle) {
    outer:
    for (int i = 0; i + needle.length <= haystack.length; i++) {
      for (int j = 0; j < needle.length; j++) {
        if (haystack[i + j] != needle[j]) {
          continue outer;
        }
      }
      return i;
    }
    return -1;
  }

  private static void reply(HttpExchange ex, byte[] body) throws IOException {
    ex.getResponseHeaders().set("Content-Type", "application/json");
    ex.sendResponseHeaders(200, body.length);
    try (OutputStream out = ex.getResponseBody()) {
      out.write(body);
    }
  }
}
