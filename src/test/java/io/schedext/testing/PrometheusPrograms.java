package io.schedext.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * Debian's {@code promtool} and {@code prometheus} (both in the package {@code prometheus}), at the
 * paths the system properties {@code promtool.binary} and {@code prometheus.binary} name (default
 * {@code /usr/bin/...}), for the tests of deployment/monitoring.
 */
public final class PrometheusPrograms {

  /** promtool: checks and unit-tests rule files. */
  public static final Path PROMTOOL =
      Path.of(System.getProperty("promtool.binary", "/usr/bin/promtool"));

  /** The Prometheus server. */
  public static final Path PROMETHEUS =
      Path.of(System.getProperty("prometheus.binary", "/usr/bin/prometheus"));

  private PrometheusPrograms() {}

  /**
   * The one line saying why {@code what} is skipped, or null when every program in {@code needed}
   * is installed.
   */
  public static String missing(String what, Path... needed) {
    List<String> absent =
        Stream.of(needed).filter(p -> !Files.isExecutable(p)).map(Path::toString).toList();
    if (absent.isEmpty()) {
      return null;
    }
    return what
        + " skipped: "
        + String.join(" and ", absent)
        + " not found; Debian's package prometheus has both: apt-get install -y prometheus";
  }

  /**
   * What a program printed (standard output and error together) and its exit status.
   *
   * @param exit the exit status
   * @param output everything it printed
   */
  public record Result(int exit, String output) {}

  /** Runs promtool with {@code args} in {@code dir} and waits at most a minute for it. */
  public static Result promtool(Path dir, String... args) {
    List<String> command = new ArrayList<>();
    command.add(PROMTOOL.toString());
    command.addAll(List.of(args));
    try {
      Process p =
          new ProcessBuilder(command).directory(dir.toFile()).redirectErrorStream(true).start();
      String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
      if (!p.waitFor(60, TimeUnit.SECONDS)) {
        p.destroyForcibly();
        throw new IllegalStateException(command + " did not finish within 60 s:\n" + out);
      }
      return new Result(p.exitValue(), out);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }
}
