package io.schedext.testing.realcluster;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

/**
 * One control-plane program running as a child process, its output in a log file. Every daemon
 * still running when the test JVM exits (a crashed test, an interrupted build) is killed by a
 * shutdown hook, so no run leaves a process or a port behind.
 */
public final class Daemon implements AutoCloseable {

  private static final Set<Process> LIVE = ConcurrentHashMap.newKeySet();

  static {
    Runtime.getRuntime()
        .addShutdownHook(
            new Thread(() -> LIVE.forEach(Process::destroyForcibly), "real-cluster-reaper"));
  }

  private final String name;
  private final List<String> command;
  private final Path log;
  private volatile Process process;

  private Daemon(String name, List<String> command, Path log) {
    this.name = name;
    this.command = List.copyOf(command);
    this.log = log;
  }

  /** Starts {@code command}, appending its output to {@code log}. */
  public static Daemon start(String name, List<String> command, Path log) {
    Daemon d = new Daemon(name, command, log);
    d.start();
    return d;
  }

  /** Starts the same command again (after {@link #stop()}), appending to the same log. */
  public synchronized void start() {
    if (process != null && process.isAlive()) {
      throw new IllegalStateException(name + " is already running");
    }
    try {
      Process p =
          new ProcessBuilder(command)
              .redirectErrorStream(true)
              .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()))
              .start();
      LIVE.add(p);
      process = p;
    } catch (IOException e) {
      throw new UncheckedIOException("cannot start " + name + ": " + command.get(0), e);
    }
  }

  /**
   * Waits until {@code ready} holds, checking every 100 ms; fails with the end of the log when the
   * process exits or {@code timeout} passes first.
   */
  public void awaitReady(BooleanSupplier ready, Duration timeout) {
    Instant deadline = Instant.now().plus(timeout);
    while (true) {
      if (ready.getAsBoolean()) {
        return;
      }
      Process p = process;
      if (p == null || !p.isAlive()) {
        throw new IllegalStateException(
            name + " exited with " + (p == null ? "?" : p.exitValue()) + ":\n" + tail(40));
      }
      if (Instant.now().isAfter(deadline)) {
        throw new IllegalStateException(name + " not ready after " + timeout + ":\n" + tail(40));
      }
      try {
        p.waitFor(100, TimeUnit.MILLISECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException("interrupted waiting for " + name, e);
      }
    }
  }

  /** Whether the process is running. */
  public boolean isAlive() {
    Process p = process;
    return p != null && p.isAlive();
  }

  /** The process id, while running. */
  public long pid() {
    return process.pid();
  }

  /** Stops the process: SIGTERM, then SIGKILL after 15 s. */
  public void stop() {
    stop(Duration.ofSeconds(15));
  }

  /** Stops the process: SIGTERM, then SIGKILL if it still runs after {@code patience}. */
  public synchronized void stop(Duration patience) {
    Process p = process;
    if (p == null) {
      return;
    }
    p.destroy();
    try {
      if (!p.waitFor(patience.toMillis(), TimeUnit.MILLISECONDS)) {
        p.destroyForcibly().waitFor(5, TimeUnit.SECONDS);
      }
    } catch (InterruptedException e) {
      p.destroyForcibly();
      Thread.currentThread().interrupt();
    } finally {
      LIVE.remove(p);
    }
  }

  /**
   * Kills the process at once (SIGKILL, as an out-of-memory kill or a node failure would): no
   * shutdown hook runs, nothing is drained; returns once it is gone.
   */
  public synchronized void kill() {
    Process p = process;
    if (p == null) {
      return;
    }
    try {
      p.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } finally {
      LIVE.remove(p);
    }
  }

  /** The last {@code lines} lines of the log. */
  public String tail(int lines) {
    try {
      List<String> all = Files.readAllLines(log);
      return String.join("\n", all.subList(Math.max(0, all.size() - lines), all.size()));
    } catch (IOException e) {
      return "(no log: " + e.getMessage() + ")";
    }
  }

  /**
   * Whether the whole log so far holds {@code text}: a line the process writes once, which a busy
   * process can push out of any fixed {@link #tail} between two looks.
   */
  public boolean logContains(String text) {
    try {
      return Files.readString(log).contains(text);
    } catch (IOException e) {
      return false;
    }
  }

  /** The log file. */
  public Path log() {
    return log;
  }

  @Override
  public void close() {
    stop();
  }

  @Override
  public String toString() {
    return name;
  }
}
