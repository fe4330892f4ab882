package io.schedext.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Pod;
import java.io.IOException;
import java.io.OutputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * Calls a running extender over HTTP the way kube-scheduler does — one request at a time, on a kept-alive
 * connection — or with several clients at once, and reports latency percentiles. Also starts the extender as a
 * separate JVM on a synthetic cluster to measure start-to-ready time, heap after GC and RSS.
 */
public final class HttpLoadDriver {

  private static final ObjectMapper MAPPER = new ObjectMapper();

  private final HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
      .connectTimeout(Duration.ofSeconds(5)).build();
  private final String base;

  /** A driver for the extender at {@code base} (e.g. http://127.0.0.1:8888). */
  public HttpLoadDriver(String base) {
    this.base = base;
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
      return new Stats(s.length, ms(s[(int) Math.floor(0.50 * (s.length - 1))]),
          ms(s[(int) Math.ceil(0.99 * (s.length - 1))]), ms(s[s.length - 1]));
    }

    private static double ms(long nanos) {
      return nanos / 1e6;
    }

    @Override
    public String toString() {
      return String.format(Locale.ROOT, "n=%d p50=%.2fms p99=%.2fms max=%.2fms", n, p50, p99, max);
    }
  }

  /** POSTs {@code body} to {@code path}; fails on a non-200 answer or an Error in it. */
  public long post(String path, byte[] body) {
    HttpRequest req = HttpRequest.newBuilder(URI.create(base + path)).header("Content-Type", "application/json")
        .timeout(Duration.ofSeconds(30)).POST(HttpRequest.BodyPublishers.ofByteArray(body)).build();
    long t0 = System.nanoTime();
    HttpResponse<byte[]> r;
    try {
      r = client.send(req, HttpResponse.BodyHandlers.ofByteArray());
    } catch (IOException e) {
      throw new IllegalStateException(path + ": " + e, e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
    long took = System.nanoTime() - t0;
    if (r.statusCode() != 200) {
      throw new IllegalStateException(path + " answered " + r.statusCode() + ": " + new String(r.body()));
    }
    return took;
  }

  /** Sends {@code warmup} unmeasured then {@code n} measured requests, serially. */
  public Stats serial(String path, byte[] body, int warmup, int n) {
    for (int i = 0; i < warmup; i++) {
      post(path, body);
    }
    long[] t = new long[n];
    for (int i = 0; i < n; i++) {
      t[i] = post(path, body);
    }
    return Stats.of(t);
  }

  /** Sends {@code n} measured requests from {@code clients} concurrent callers. */
  public Stats concurrent(String path, byte[] body, int clients, int n) throws Exception {
    ExecutorService pool = Executors.newFixedThreadPool(clients);
    try {
      List<Future<Long>> fs = new ArrayList<>(n);
      for (int i = 0; i < n; i++) {
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
      HttpResponse<byte[]> r = client.send(HttpRequest.newBuilder(URI.create(base + path)).GET().build(),
          HttpResponse.BodyHandlers.ofByteArray());
      return MAPPER.readTree(r.body());
    } catch (IOException e) {
      throw new IllegalStateException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  /** True when readiness answers 200. */
  public boolean ready() {
    try {
      HttpResponse<Void> r = client.send(HttpRequest.newBuilder(URI.create(base + "/actuator/health/readiness"))
          .GET().timeout(Duration.ofSeconds(2)).build(), HttpResponse.BodyHandlers.discarding());
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
