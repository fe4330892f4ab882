package io.schedext.testing.realcluster;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One set of control-plane programs the real-cluster tests run: {@code etcd}, {@code
 * kube-apiserver} and {@code kube-scheduler} of one Kubernetes version in one directory (the
 * envtest layout).
 *
 * <p>{@code KUBEBUILDER_ASSETS} (or the system property {@code kubebuilder.assets}) names the
 * directory, as envtest's convention has it, or several directories separated by the platform's
 * path separator ({@code :}): every real-cluster test class then runs once per directory, its name
 * carrying the version ({@link #version()}). CI names the oldest and the newest supported versions
 * that way.
 *
 * @param dir the directory holding the three programs
 */
public record Assets(Path dir) {

  /**
   * The environment variable (and, lower-cased with dots, the system property) that names the
   * directories.
   */
  public static final String VARIABLE = "KUBEBUILDER_ASSETS";

  /** The programs the directory must hold, all executable. */
  public static final List<String> PROGRAMS = List.of("etcd", "kube-apiserver", "kube-scheduler");

  /** Where a developer learns how to provide them. */
  public static final String HOW = "docs/testing.md";

  private static final Pattern VERSION = Pattern.compile("v\\d+\\.\\d+\\.\\d+");
  private static final Map<Path, String> VERSIONS = new ConcurrentHashMap<>();

  /**
   * Every named directory that holds all three programs, in the order named; empty when none is
   * named or one lacks a program (then {@link #whyMissing()} says which).
   */
  public static List<Assets> findAll() {
    List<Assets> out = new ArrayList<>();
    for (String named : named()) {
      Path dir = Path.of(named);
      if (!PROGRAMS.stream().allMatch(p -> Files.isExecutable(dir.resolve(p)))) {
        return List.of();
      }
      out.add(new Assets(dir));
    }
    return out;
  }

  /** The first named directory, when every named one holds every program; empty otherwise. */
  public static Optional<Assets> find() {
    return findAll().stream().findFirst();
  }

  /**
   * The named directory whose kube-apiserver is {@code version} (such as {@code v1.34.9}), else the
   * one of that version beside the repository ({@code ../shared/k8s/VERSION/bin}, where CI keeps
   * them); empty when neither has it.
   */
  public static Optional<Assets> find(String version) {
    Optional<Assets> named =
        findAll().stream().filter(a -> a.version().equals(version)).findFirst();
    if (named.isPresent()) {
      return named;
    }
    Path beside = Path.of("..", "shared", "k8s", version, "bin").toAbsolutePath().normalize();
    return PROGRAMS.stream().allMatch(p -> Files.isExecutable(beside.resolve(p)))
        ? Optional.of(new Assets(beside))
        : Optional.empty();
  }

  /** Why {@link #findAll()} found nothing, in one line naming what to do. */
  public static String whyMissing() {
    List<String> named = named();
    String what =
        named.isEmpty()
            ? VARIABLE + " is not set"
            : VARIABLE
                + "="
                + String.join(File.pathSeparator, named)
                + " lacks one of "
                + String.join(", ", PROGRAMS);
    return "real-cluster tests skipped: "
        + what
        + " (point it at a directory with etcd, kube-apiserver and "
        + "kube-scheduler v1.26+, or at several separated by '"
        + File.pathSeparator
        + "'; "
        + HOW
        + ")";
  }

  private static List<String> named() {
    String value = System.getProperty("kubebuilder.assets", System.getenv(VARIABLE));
    List<String> out = new ArrayList<>();
    if (value != null) {
      for (String part : value.split(Pattern.quote(File.pathSeparator))) {
        if (!part.isBlank()) {
          out.add(part.strip());
        }
      }
    }
    return out;
  }

  /** The path of one program. */
  public Path program(String name) {
    return dir.resolve(name);
  }

  /**
   * The Kubernetes version of the directory's kube-apiserver, as it prints it ({@code v1.34.9});
   * asked once per directory.
   */
  public String version() {
    return VERSIONS.computeIfAbsent(dir, d -> askVersion(program("kube-apiserver")));
  }

  /** The minor version ({@code 34} for {@code v1.34.9}). */
  public int minor() {
    return Integer.parseInt(version().split("\\.")[1]);
  }

  private static String askVersion(Path apiServer) {
    try {
      Process p =
          new ProcessBuilder(apiServer.toString(), "--version").redirectErrorStream(true).start();
      String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
      if (!p.waitFor(30, TimeUnit.SECONDS)) {
        p.destroyForcibly();
      }
      Matcher m = VERSION.matcher(out);
      if (!m.find()) {
        throw new IllegalStateException(apiServer + " --version printed no version: " + out);
      }
      return m.group();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }
}
