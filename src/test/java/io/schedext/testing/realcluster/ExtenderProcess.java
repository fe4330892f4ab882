package io.schedext.testing.realcluster;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.schedext.testing.ServiceJvm;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * The service under test as a process of its own ({@link ServiceJvm}: the image's JVM options) on a
 * fixed loopback port, watching a {@link ControlPlane}: for the tests that kill it (SIGKILL), stop
 * it gracefully (SIGTERM) or run two of it, which a service inside the test JVM cannot stand for.
 * Its output goes to {@code extender-<name>.log} in the control plane's directory; a restart
 * appends to the same log and listens on the same port. Every request this class makes has a
 * timeout, so a stalled service fails a test instead of hanging it.
 */
public final class ExtenderProcess implements AutoCloseable {

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Duration TIMEOUT = Duration.ofSeconds(5);

  private final String name;
  private final int port;
  private final Daemon daemon;
  private final HttpClient http =
      HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

  private ExtenderProcess(String name, int port, Daemon daemon) {
    this.name = name;
    this.port = port;
    this.daemon = daemon;
  }

  /**
   * Starts the service named {@code name} with {@code jvm} on a free port, watching the cluster of
   * {@code kubeconfig} ({@code extender.cluster.source=kubernetes}), with {@code args} ({@code
   * --name=value}) after those. Returns at once; see {@link #awaitReady}.
   */
  public static ExtenderProcess start(
      ControlPlane cp, String name, Path kubeconfig, ServiceJvm jvm, List<String> args) {
    int port = ControlPlane.freePort();
    List<String> all =
        new ArrayList<>(
            List.of(
                "--extender.cluster.source=kubernetes",
                "--extender.cluster.kubeconfig=" + kubeconfig));
    all.addAll(args);
    Daemon d =
        Daemon.start(
            "extender " + name,
            jvm.command(port, all),
            cp.dir().resolve("extender-" + name + ".log"));
    return new ExtenderProcess(name, port, d);
  }

  /** Its name, as in its log's name. */
  public String name() {
    return name;
  }

  /** The port it listens on, the same across restarts. */
  public int port() {
    return port;
  }

  /** kube-scheduler's {@code urlPrefix} for it. */
  public String urlPrefix() {
    return "http://127.0.0.1:" + port + "/scheduler";
  }

  /** Waits until its readiness answers 200; fails with its log's end if it exits first. */
  public void awaitReady(Duration timeout) {
    daemon.awaitReady(this::ready, timeout);
  }

  /** Whether readiness answers 200 now. */
  public boolean ready() {
    return status("/actuator/health/readiness") == 200;
  }

  /** The HTTP status of GET {@code path}, or -1 when nothing answered within 5 s. */
  public int status(String path) {
    try {
      return http.send(request(path), HttpResponse.BodyHandlers.discarding()).statusCode();
    } catch (IOException e) {
      return -1;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return -1;
    }
  }

  /** GET {@code path} as JSON; fails when nothing answered within 5 s. */
  public JsonNode get(String path) {
    try {
      return JSON.readTree(getText(path));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** GET {@code path}'s body; fails when nothing answered within 5 s (60 s for the compare). */
  public String getText(String path) {
    try {
      return http.send(request(path), HttpResponse.BodyHandlers.ofString()).body();
    } catch (IOException e) {
      throw new UncheckedIOException(name + ": GET " + path, e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  /** {@code GET /debug/cache/compare}, parsed. */
  public JsonNode compare() {
    return get("/debug/cache/compare");
  }

  /**
   * The value of one Prometheus series from {@code /actuator/prometheus}, by its name and the label
   * pairs it must carry ({@code result="bound"}); the sum over every series that matches, 0 when
   * none does.
   */
  public double metric(String series, String... labels) {
    double sum = 0;
    for (String line : getText("/actuator/prometheus").split("\n")) {
      if (line.startsWith("#")
          || !(line.startsWith(series + "{") || line.startsWith(series + " "))) {
        continue;
      }
      boolean all = true;
      for (String l : labels) {
        all &= line.contains(l);
      }
      if (all) {
        sum += Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1));
      }
    }
    return sum;
  }

  /**
   * The value of meter {@code name} from {@code /actuator/metrics/<name>} (its first measurement).
   */
  public double meter(String name) {
    return get("/actuator/metrics/" + name).path("measurements").path(0).path("value").asDouble();
  }

  private HttpRequest request(String path) {
    return HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
        .timeout(path.startsWith("/debug/cache/compare") ? Duration.ofSeconds(60) : TIMEOUT)
        .GET()
        .build();
  }

  /** Kills it (SIGKILL): nothing drains, nothing is flushed. */
  public void kill() {
    daemon.kill();
  }

  /**
   * Stops it as Kubernetes does (SIGTERM: readiness goes down and in-flight calls are answered),
   * killing it if it still runs after {@code patience}.
   */
  public void stop(Duration patience) {
    daemon.stop(patience);
  }

  /** Starts it again, same port, same options; see {@link #awaitReady}. */
  public void restart() {
    daemon.start();
  }

  /** Whether the process runs. */
  public boolean isAlive() {
    return daemon.isAlive();
  }

  /** Its process id, while it runs. */
  public long pid() {
    return daemon.pid();
  }

  /** Its whole log so far (every run of it). */
  public String log() {
    try {
      return Files.readString(daemon.log());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** The end of its log. */
  public String logTail(int lines) {
    return daemon.tail(lines);
  }

  /** Its resident set size now, in bytes, from {@code /proc} (0 when it is not running). */
  public long rssBytes() {
    try {
      for (String line : Files.readAllLines(Path.of("/proc/" + daemon.pid() + "/status"))) {
        if (line.startsWith("VmRSS:")) {
          return Long.parseLong(line.replaceAll("\\D", "")) * 1024;
        }
      }
    } catch (IOException | RuntimeException e) {
      // Gone meanwhile.
    }
    return 0;
  }

  @Override
  public void close() {
    daemon.stop();
  }

  @Override
  public String toString() {
    return "extender " + name + " on port " + port;
  }
}
