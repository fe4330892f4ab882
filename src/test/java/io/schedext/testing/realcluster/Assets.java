package io.schedext.testing.realcluster;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

/**
 * The control-plane programs the real-cluster tests run: {@code etcd}, {@code kube-apiserver} and
 * {@code kube-scheduler} in the directory named by {@code KUBEBUILDER_ASSETS} (the envtest
 * convention), or by the system property {@code kubebuilder.assets} when set.
 *
 * @param dir the directory holding the three programs
 */
public record Assets(Path dir) {

  /**
   * The environment variable (and, lower-cased with dots, the system property) that names the
   * directory.
   */
  public static final String VARIABLE = "KUBEBUILDER_ASSETS";

  /** The programs the directory must hold, all executable. */
  public static final List<String> PROGRAMS = List.of("etcd", "kube-apiserver", "kube-scheduler");

  /** Where a developer learns how to provide them. */
  public static final String HOW = "docs/testing.md";

  /** The directory, when it is named and holds every program; empty otherwise. */
  public static Optional<Assets> find() {
    String named = System.getProperty("kubebuilder.assets", System.getenv(VARIABLE));
    if (named == null || named.isBlank()) {
      return Optional.empty();
    }
    Path dir = Path.of(named);
    return PROGRAMS.stream().allMatch(p -> Files.isExecutable(dir.resolve(p)))
        ? Optional.of(new Assets(dir))
        : Optional.empty();
  }

  /** Why {@link #find()} found nothing, in one line naming what to do. */
  public static String whyMissing() {
    String named = System.getProperty("kubebuilder.assets", System.getenv(VARIABLE));
    String what =
        named == null || named.isBlank()
            ? VARIABLE + " is not set"
            : VARIABLE + "=" + named + " lacks one of " + String.join(", ", PROGRAMS);
    return "real-cluster tests skipped: "
        + what
        + " (point it at a directory with etcd, kube-apiserver and "
        + "kube-scheduler v1.26+; "
        + HOW
        + ")";
  }

  /** The path of one program. */
  public Path program(String name) {
    return dir.resolve(name);
  }
}
