package io.schedext.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;

/**
 * The JVM options the container image starts the service with: the {@code JAVA_TOOL_OPTIONS} of the
 * project's {@code Dockerfile}, read from the file itself so that tests and benchmarks run the
 * service as the image does and cannot drift from it.
 */
public final class ImageJvmOptions {

  /** The options that shape the optimising compiler's inlining (see docs/configuration.md). */
  private static final List<String> COMPILER_PREFIXES =
      List.of(
          "-XX:MaxInlineLevel=",
          "-XX:InlineSmallCode=",
          "-XX:FreqInlineSize=",
          "-XX:MaxInlineSize=");

  private ImageJvmOptions() {}

  /** Every option of the image's {@code JAVA_TOOL_OPTIONS}, in order. */
  public static List<String> all() {
    String dockerfile;
    try {
      dockerfile = Files.readString(Path.of("Dockerfile"));
    } catch (IOException e) {
      throw new UncheckedIOException("the Dockerfile is read from the project's root", e);
    }
    String line =
        dockerfile
            .lines()
            .filter(l -> l.startsWith("ENV JAVA_TOOL_OPTIONS=\""))
            .findFirst()
            .orElseThrow(
                () -> new IllegalStateException("the Dockerfile sets no JAVA_TOOL_OPTIONS"));
    String value = line.substring(line.indexOf('"') + 1, line.lastIndexOf('"')).strip();
    return Arrays.stream(value.split(" +")).toList();
  }

  /**
   * The collector the image chooses, as named in its {@code -XX:+Use<name>GC} option ({@code
   * Parallel}), or {@code G1}, the JVM's default on the machines the benchmarks run on, when it
   * chooses none.
   */
  public static String gc() {
    return all().stream()
        .filter(o -> o.startsWith("-XX:+Use") && o.endsWith("GC"))
        .map(o -> o.substring("-XX:+Use".length(), o.length() - "GC".length()))
        .findFirst()
        .orElse("G1");
  }

  /**
   * The image's memory options: its first metaspace threshold ({@code -XX:MetaspaceSize=}) and
   * transparent huge pages ({@code -XX:+UseTransparentHugePages}), those it sets.
   */
  public static List<String> memory() {
    return all().stream()
        .filter(o -> o.startsWith("-XX:MetaspaceSize=") || o.equals("-XX:+UseTransparentHugePages"))
        .toList();
  }

  /** The image's options for the optimising compiler's inlining. */
  public static List<String> compiler() {
    return all().stream().filter(o -> COMPILER_PREFIXES.stream().anyMatch(o::startsWith)).toList();
  }
}
