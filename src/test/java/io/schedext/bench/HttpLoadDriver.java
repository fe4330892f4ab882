package io.schedext.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Pod;
import java.io.EOFException;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.TreeMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * Calls a running extender over HTTP the way kube-scheduler does — one request at a time, on a
 * kept-alive connection with TCP_NODELAY — or with several clients at once (one connection each),
 * and reports latency percentiles. Also starts the extender as a separate JVM on a synthetic
 * cluster to measure start-to-ready time, heap after GC and RSS.
 */
public final class HttpLoadDriver {

  private static final ObjectMapper MAPPER = new ObjectMapper();

  private final HttpClient client =
      HttpClient.newBuilder()
          .version(HttpClient.Version.HTTP_1_1)
          .connectTimeout(Duration.ofSeconds(5))
          .build();
  private final String base;
  private final String host;
  private final int port;
  private final ThreadLocal<Connection> connections = new ThreadLocal<>();
  private volatile int slowest;

  /** A driver for the extender at {@code base} (e.g. http://127.0.0.1:8888). */
  public HttpLoadDriver(String base) {
    this.base = base;
    URI u = URI.create(base);
    this.host = u.getHost();
    this.port = u.getPort();
  }

  /**
   * Prints the positions and times of this many slowest calls of each {@link #serial} row (0:
   * none).
   */
  public void printSlowest(int calls) {
    this.slowest = calls;
  }

  /** The extender's base URL, e.g. http://127.0.0.1:8888. */
  public String base() {
    return base;
  }

  /**
   * Latency percentiles in milliseconds.
   *
   * @param n samples
   * @param p50 median
   * @param p99 99th percentile
   * @param max maximum
   */
  public record Stats(int n, double p50, double p99, double max) {

    static Stats of(long[] nanos) {
      long[] s = nanos.clone();
      Arrays.sort(s);
      return new Stats(
          s.length,
          ms(s[(int) Math.floor(0.50 * (s.length - 1))]),
          ms(s[(int) Math.ceil(0.99 * (s.length - 1))]),
          ms(s[s.length - 1]));
    }

    private static double ms(long nanos) {
      return nanos / 1e6;
    }

    /**
     * The {@code n} slowest of {@code nanos}, slowest first, each as its position in the series and
     * its milliseconds ({@code 0:241.1 4:54.3 ...}): where in a row its tail lies (the first calls
     * after ready, or spread through it).
     */
    static String slowest(long[] nanos, int n) {
      StringBuilder sb = new StringBuilder();
      for (int i : slowestFirst(nanos, n)) {
        sb.append(sb.isEmpty() ? "" : " ")
            .append(String.format(Locale.ROOT, "%d:%.1f", i, ms(nanos[i])));
      }
      return sb.toString();
    }

    /**
     * When each of the {@code n} slowest of {@code nanos} started, slowest first, as its position
     * and the milliseconds from the row's start in {@code startNanos} ({@code 0@0.0 298@595.2
     * ...}): to be laid beside the service's collector and compiler logs, whose pauses and
     * compilations take a run of calls slow together.
     */
    static String slowestStarts(long[] nanos, long[] startNanos, int n) {
      StringBuilder sb = new StringBuilder();
      for (int i : slowestFirst(nanos, n)) {
        sb.append(sb.isEmpty() ? "" : " ")
            .append(String.format(Locale.ROOT, "%d@%.1f", i, ms(startNanos[i])));
      }
      return sb.toString();
    }

    /** The positions of the {@code n} largest of {@code nanos}, largest first. */
    private static List<Integer> slowestFirst(long[] nanos, int n) {
      List<Integer> order = new ArrayList<>(nanos.length);
      for (int i = 0; i < nanos.length; i++) {
        order.add(i);
      }
      order.sort((a, b) -> Long.compare(nanos[b], nanos[a]));
      return order.subList(0, Math.min(n, order.size()));
    }

    /**
     * The calls after ready that the compiler's last work falls on: measured at 5,000 nodes, most
     * of a cold row's slowest calls were among its first 150.
     */
    static final int FIRST_CALLS = 150;

    /**
     * The first {@code first} of {@code nanos} against the rest: their mean milliseconds, and the
     * rest's p99 ({@code first 150: mean 2.11 ms; the other 850: mean 1.00 ms, p99 4.50 ms}), so a
     * cold row's first calls can be told from the tail that remains after them.
     */
    static String firstAndRest(long[] nanos, int first) {
      int k = Math.min(first, nanos.length);
      long[] rest = Arrays.copyOfRange(nanos, k, nanos.length);
      String head =
          String.format(
              Locale.ROOT,
              "first %d: mean %.2f ms",
              k,
              ms((long) Arrays.stream(nanos, 0, k).average().orElse(0)));
      if (rest.length == 0) {
        return head;
      }
      return head
          + String.format(
              Locale.ROOT,
              "; the other %d: mean %.2f ms, p99 %.2f ms",
              rest.length,
              ms((long) Arrays.stream(rest).average().orElse(0)),
              of(rest).p99());
    }

    @Override
    public String toString() {
      return String.format(Locale.ROOT, "n=%d p50=%.2fms p99=%.2fms max=%.2fms", n, p50, p99, max);
    }
  }

  /**
   * POSTs {@code body} to {@code path} on this thread's kept-alive connection and returns the time
   * from the first byte sent to the last byte of the answer read, in nanoseconds. Fails on a
   * non-200 answer.
   */
  public long post(String path, byte[] body) {
    return connection().post(path, body);
  }

  /**
   * Whether the last answer this thread's connection read contains {@code needle} (e.g. a node name
   * in a reply).
   */
  public boolean lastAnswerContains(byte[] needle) {
    return connection().answerContains(needle);
  }

  private Connection connection() {
    Connection c = connections.get();
    if (c == null) {
      c = new Connection(host, port);
      connections.set(c);
    }
    return c;
  }

  /**
   * A minimal blocking HTTP/1.1 client on one socket with TCP_NODELAY, as Go's net/http transport
   * behaves for kube-scheduler: one request at a time on a kept-alive connection, the whole body
   * written at once with the headers kube-scheduler's requests carry (the same as the service's
   * warm-up sends; other headers take Tomcat's parser down branches the warm-up never took), the
   * answer read by its Content-Length (or chunked). No thread hand-offs, so the latency measured is
   * the service's plus the loopback round trip, not a client's event loop.
   */
  static final class Connection {
    private final String host;
    private final int port;
    private Socket socket;
    private OutputStream out;
    private java.io.BufferedInputStream in;

    /** The last answer's body: {@code answerLength} bytes of {@code answer}. */
    private byte[] answer = new byte[1 << 16];

    private int answerLength;

    Connection(String host, int port) {
      this.host = host;
      this.port = port;
    }

    long post(String path, byte[] body) {
      byte[] head =
          ("POST "
                  + path
                  + " HTTP/1.1\r\nHost: "
                  + host
                  + ":"
                  + port
                  + "\r\nUser-Agent: Go-http-client/1.1\r\nContent-Length: "
                  + body.length
                  + "\r\nContent-Type: application/json\r\nAccept-Encoding: gzip\r\n\r\n")
              .getBytes(StandardCharsets.US_ASCII);
      byte[] request = new byte[head.length + body.length];
      System.arraycopy(head, 0, request, 0, head.length);
      System.arraycopy(body, 0, request, head.length, body.length);
      for (int attempt = 0; ; attempt++) {
        try {
          if (socket == null) {
            open();
          }
          long t0 = System.nanoTime();
          out.write(request);
          out.flush();
          int status = readResponse();
          long took = System.nanoTime() - t0;
          if (status != 200) {
            throw new IllegalStateException(path + " answered " + status);
          }
          return took;
        } catch (IOException e) {
          close();
          if (attempt > 0) {
            throw new IllegalStateException(path + ": " + e, e);
          }
        }
      }
    }

    private void open() throws IOException {
      socket = new Socket();
      socket.setTcpNoDelay(true);
      socket.setSoTimeout(30_000);
      socket.connect(new InetSocketAddress(host, port), 5_000);
      out = socket.getOutputStream();
      in = new java.io.BufferedInputStream(socket.getInputStream(), 1 << 16);
    }

    private void close() {
      try {
        if (socket != null) {
          socket.close();
        }
      } catch (IOException ignored) {
        // closing a broken connection
      }
      socket = null;
    }

    /** Reads one answer; returns its status code. */
    private int readResponse() throws IOException {
      String statusLine = line();
      int status = Integer.parseInt(statusLine.substring(9, 12));
      long length = -1;
      boolean chunked = false;
      boolean closeAfter = false;
      for (String h = line(); !h.isEmpty(); h = line()) {
        int colon = h.indexOf(':');
        String name = h.substring(0, colon).trim().toLowerCase(Locale.ROOT);
        String value = h.substring(colon + 1).trim();
        switch (name) {
          case "content-length" -> length = Long.parseLong(value);
          case "transfer-encoding" -> chunked = value.equalsIgnoreCase("chunked");
          case "connection" -> closeAfter = value.equalsIgnoreCase("close");
          default -> {}
        }
      }
      answerLength = 0;
      if (chunked) {
        for (long size = Long.parseLong(line().split(";")[0].trim(), 16);
            size > 0;
            size = Long.parseLong(line().split(";")[0].trim(), 16)) {
          read(size);
          line();
        }
        line();
      } else if (length >= 0) {
        read(length);
      } else {
        throw new IOException("answer without Content-Length or chunked encoding");
      }
      if (closeAfter) {
        close();
      }
      return status;
    }

    /** Appends the next {@code n} bytes of the body to {@code answer}. */
    private void read(long n) throws IOException {
      if (answerLength + n > answer.length) {
        answer = Arrays.copyOf(answer, (int) Math.max(2L * answer.length, answerLength + n));
      }
      while (n > 0) {
        int r = in.read(answer, answerLength, (int) n);
        if (r < 0) {
          throw new EOFException("connection closed in the body");
        }
        answerLength += r;
        n -= r;
      }
    }

    boolean answerContains(byte[] needle) {
      outer:
      for (int i = 0; i + needle.length <= answerLength; i++) {
        for (int j = 0; j < needle.length; j++) {
          if (answer[i + j] != needle[j]) {
            continue outer;
          }
        }
        return true;
      }
      return false;
    }

    private String line() throws IOException {
      StringBuilder b = new StringBuilder(64);
      for (int c = in.read(); c != '\n'; c = in.read()) {
        if (c < 0) {
          throw new EOFException("connection closed");
        }
        if (c != '\r') {
          b.append((char) c);
        }
      }
      return b.toString();
    }
  }

  /** Sends {@code warmup} unmeasured then {@code n} measured requests, serially. */
  public Stats serial(String path, byte[] body, int warmup, int n) {
    return serial(path, new byte[][] {body}, warmup, n);
  }

  /**
   * Sends {@code warmup} unmeasured then {@code n} measured requests, one at a time, taking the
   * bodies in turn: kube-scheduler sends another pod with every filter call, and the service reuses
   * what it decoded for a pod whose bytes it has just seen.
   */
  public Stats serial(String path, byte[][] bodies, int warmup, int n) {
    for (int i = 0; i < warmup; i++) {
      post(path, bodies[i % bodies.length]);
    }
    long[] t = new long[n];
    long[] starts = new long[n];
    long rowStartMillis = System.currentTimeMillis();
    long rowStart = System.nanoTime();
    for (int i = 0; i < n; i++) {
      starts[i] = System.nanoTime() - rowStart;
      t[i] = post(path, bodies[(warmup + i) % bodies.length]);
    }
    if (slowest > 0) {
      System.out.println("# slowest " + path + ": " + Stats.slowest(t, slowest));
      System.out.println(
          "# "
              + path
              + " started at "
              + Instant.ofEpochMilli(rowStartMillis)
              + "; the slowest calls' starts, ms into the row: "
              + Stats.slowestStarts(t, starts, slowest));
      System.out.println("# " + path + ", " + Stats.firstAndRest(t, Stats.FIRST_CALLS));
    }
    return Stats.of(t);
  }

  /**
   * Sends {@code n} measured requests from {@code clients} concurrent callers, taking the bodies in
   * turn.
   */
  public Stats concurrent(String path, byte[][] bodies, int clients, int n) throws Exception {
    ExecutorService pool = Executors.newFixedThreadPool(clients);
    try {
      List<Future<Long>> fs = new ArrayList<>(n);
      for (int i = 0; i < n; i++) {
        byte[] body = bodies[i % bodies.length];
        fs.add(pool.submit(() -> post(path, body)));
      }
      long[] t = new long[n];
      for (int i = 0; i < n; i++) {
        t[i] = fs.get(i).get();
      }
      return Stats.of(t);
    } finally {
      pool.shutdownNow();
    }
  }

  /** GETs {@code path} as JSON. */
  public JsonNode get(String path) {
    try {
      HttpResponse<byte[]> r =
          client.send(
              HttpRequest.newBuilder(URI.create(base + path)).GET().build(),
              HttpResponse.BodyHandlers.ofByteArray());
      return MAPPER.readTree(r.body());
    } catch (IOException e) {
      throw new IllegalStateException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  /**
   * The service's own cumulative histogram of {@code extender_request_duration_seconds} for {@code
   * verb} (successful requests): bucket upper bound in seconds → requests at or below it. Two
   * readings subtracted give the server-side distribution of the requests in between.
   */
  public TreeMap<Double, Long> serverHistogram(String verb) {
    TreeMap<Double, Long> buckets = new TreeMap<>();
    String prefix = "extender_request_duration_seconds_bucket{";
    try {
      HttpResponse<String> r =
          client.send(
              HttpRequest.newBuilder(URI.create(base + "/actuator/prometheus")).GET().build(),
              HttpResponse.BodyHandlers.ofString());
      for (String line : r.body().split("\n")) {
        if (!line.startsWith(prefix)
            || !line.contains("outcome=\"ok\"")
            || !line.contains("verb=\"" + verb + "\"")) {
          continue;
        }
        int le = line.indexOf("le=\"") + 4;
        String bound = line.substring(le, line.indexOf('"', le));
        double upper = bound.equals("+Inf") ? Double.POSITIVE_INFINITY : Double.parseDouble(bound);
        buckets.put(upper, (long) Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1)));
      }
      return buckets;
    } catch (IOException e) {
      throw new IllegalStateException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  /**
   * The bucket bound (ms) at or below which the fraction {@code q} of the requests counted between
   * two {@link #serverHistogram} readings completed on the server; NaN when none were counted.
   */
  public static double serverQuantile(
      TreeMap<Double, Long> before, TreeMap<Double, Long> after, double q) {
    long total =
        after.getOrDefault(Double.POSITIVE_INFINITY, 0L)
            - before.getOrDefault(Double.POSITIVE_INFINITY, 0L);
    if (total <= 0) {
      return Double.NaN;
    }
    for (var e : after.entrySet()) {
      long n = e.getValue() - before.getOrDefault(e.getKey(), 0L);
      if (n >= Math.ceil(q * total)) {
        return e.getKey() * 1e3;
      }
    }
    return Double.POSITIVE_INFINITY;
  }

  /** True when readiness answers 200. */
  public boolean ready() {
    try {
      HttpResponse<Void> r =
          client.send(
              HttpRequest.newBuilder(URI.create(base + "/actuator/health/readiness"))
                  .GET()
                  .timeout(Duration.ofSeconds(2))
                  .build(),
              HttpResponse.BodyHandlers.discarding());
      return r.statusCode() == 200;
    } catch (IOException e) {
      return false;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    }
  }

  // ------------------------------------------------------------------------------------------------ request bodies

  /** A filter/prioritize body naming {@code names}. */
  public static byte[] namesBody(Pod pod, List<String> names) {
    ObjectNode o = MAPPER.createObjectNode();
    o.set("Pod", MAPPER.valueToTree(pod));
    o.putNull("Nodes");
    ArrayNode a = o.putArray("NodeNames");
    names.forEach(a::add);
    return bytes(o);
  }

  /** A filter/prioritize body carrying full node objects. */
  public static byte[] nodesBody(Pod pod, List<Node> nodes) {
    ObjectNode o = MAPPER.createObjectNode();
    o.set("Pod", MAPPER.valueToTree(pod));
    ObjectNode list = o.putObject("Nodes");
    list.putObject("metadata");
    ArrayNode items = list.putArray("items");
    for (Node n : nodes) {
      ObjectNode item = MAPPER.valueToTree(n);
      item.remove("apiVersion");
      item.remove("kind");
      items.add(item);
    }
    o.putNull("NodeNames");
    return bytes(o);
  }

  private static byte[] bytes(JsonNode n) {
    try {
      return MAPPER.writeValueAsBytes(n);
    } catch (IOException e) {
      throw new IllegalStateException(e);
    }
  }

  /** Writes the cluster as a JSON {@code v1 List} the embedded source reads. */
  public static void writeClusterFile(List<HasMetadata> objects, Path file) throws IOException {
    try (OutputStream out = Files.newOutputStream(file)) {
      var gen = MAPPER.getFactory().createGenerator(out);
      gen.writeStartObject();
      gen.writeStringField("apiVersion", "v1");
      gen.writeStringField("kind", "List");
      gen.writeArrayFieldStart("items");
      for (HasMetadata o : objects) {
        MAPPER.writeValue(gen, o);
      }
      gen.writeEndArray();
      gen.writeEndObject();
      gen.flush();
    }
  }
}
