package io.schedext.testing;

import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A real Prometheus server ({@link PrometheusPrograms#PROMETHEUS}) on a free loopback port, with
 * its configuration, data and log in a directory of the test's: it scrapes one target every second
 * as the job {@code scheduler-extender}, evaluates the given rule files every second, and answers
 * queries through its HTTP API. {@link #close()} stops it; a JVM shutdown hook kills it should the
 * test JVM exit first. Not thread-safe.
 */
public final class PrometheusServer implements AutoCloseable {

  private static final ObjectMapper JSON = new ObjectMapper();

  private final Process process;
  private final Path log;
  private final String base;
  private final HttpClient client = HttpClient.newHttpClient();
  private final Thread killer;

  private PrometheusServer(Process process, Path log, int port) {
    this.process = process;
    this.log = log;
    this.base = "http://127.0.0.1:" + port;
    this.killer = new Thread(process::destroyForcibly, "prometheus-killer");
    Runtime.getRuntime().addShutdownHook(killer);
  }

  /**
   * Starts Prometheus in {@code dir}, scraping {@code http://<target><metricsPath>} as the job
   * {@code scheduler-extender}, with {@code ruleFiles}, and waits until it is ready.
   */
  public static PrometheusServer start(
      Path dir, String target, String metricsPath, List<Path> ruleFiles) {
    StringBuilder config =
        new StringBuilder(
            "global:\n  scrape_interval: 1s\n  scrape_timeout: 1s\n  evaluation_interval: 1s\n");
    config.append("rule_files:\n");
    for (Path f : ruleFiles) {
      config.append("- ").append(f.toAbsolutePath()).append('\n');
    }
    config
        .append("scrape_configs:\n- job_name: scheduler-extender\n  metrics_path: ")
        .append(metricsPath)
        .append("\n  static_configs:\n  - targets: ['")
        .append(target)
        .append("']\n");
    try {
      Path file = dir.resolve("prometheus.yml");
      Files.writeString(file, config);
      Path log = dir.resolve("prometheus.log");
      int port = freePort();
      Process p =
          new ProcessBuilder(
                  PrometheusPrograms.PROMETHEUS.toString(),
                  "--config.file=" + file,
                  "--storage.tsdb.path=" + dir.resolve("data"),
                  "--web.listen-address=127.0.0.1:" + port,
                  "--log.level=warn")
              .redirectErrorStream(true)
              .redirectOutput(log.toFile())
              .start();
      PrometheusServer server = new PrometheusServer(p, log, port);
      await()
          .atMost(Duration.ofSeconds(30))
          .pollInterval(Duration.ofMillis(100))
          .failFast("prometheus exited", () -> !p.isAlive())
          .until(server::ready);
      return server;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static int freePort() throws IOException {
    try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      return s.getLocalPort();
    }
  }

  private boolean ready() {
    try {
      return client
              .send(
                  HttpRequest.newBuilder(URI.create(base + "/-/ready")).build(),
                  HttpResponse.BodyHandlers.discarding())
              .statusCode()
          == 200;
    } catch (IOException e) {
      return false;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    }
  }

  /** The server's base URL, {@code http://127.0.0.1:<port>}. */
  public String url() {
    return base;
  }

  /**
   * The result of the instant query {@code expr} now: the API's {@code data.result} (an array of
   * samples for a vector); fails on a query the server refuses.
   */
  public JsonNode query(String expr) {
    JsonNode answer = get("/api/v1/query?query=" + URLEncoder.encode(expr, StandardCharsets.UTF_8));
    if (!"success".equals(answer.path("status").asText())) {
      throw new AssertionError("query refused: " + expr + "\n" + answer);
    }
    return answer.path("data").path("result");
  }

  /** The alerts the server holds now, pending and firing: {@code /api/v1/alerts}' data.alerts. */
  public JsonNode alerts() {
    return get("/api/v1/alerts").path("data").path("alerts");
  }

  /** Everything the server has logged. */
  public String log() {
    try {
      return Files.readString(log);
    } catch (IOException e) {
      return "(no log: " + e + ")";
    }
  }

  private JsonNode get(String path) {
    try {
      HttpResponse<String> r =
          client.send(
              HttpRequest.newBuilder(URI.create(base + path)).build(),
              HttpResponse.BodyHandlers.ofString());
      return JSON.readTree(r.body());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  /** Stops the server and waits for it. */
  @Override
  public void close() {
    process.destroy();
    try {
      if (!process.waitFor(10, TimeUnit.SECONDS)) {
        process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      process.destroyForcibly();
    }
    try {
      Runtime.getRuntime().removeShutdownHook(killer);
    } catch (IllegalStateException e) {
      // The JVM is already shutting down; the hook runs anyway.
    }
  }
}
