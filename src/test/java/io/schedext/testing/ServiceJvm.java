package io.schedext.testing;

import io.schedext.SchedulerExtenderApplication;
import io.schedext.cluster.EventThreads;
import java.io.File;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Collectors;

/**
 * The command line that runs the service as a JVM of its own, as the container image runs it: its
 * collector ({@link ImageJvmOptions#gc()}) and memory options, its thread-priority options ({@link
 * EventThreads#JVM_OPTIONS}) and its inlining options, on this JVM's class path. The benchmarks and
 * the real-cluster tests that kill or roll the service start it this way. Immutable.
 *
 * @param java the {@code java} launcher (another JDK's, say)
 * @param heap the maximum heap, as {@code -Xmx} takes it ({@code 1g}, {@code 1536m})
 * @param gc the collector's name as in {@code -XX:+Use<gc>GC}
 * @param priorities whether the image's thread-priority options are given
 * @param imageCompiler whether the image's inlining options are given
 * @param jvm further JVM options, after the others
 * @param classpath the class path the service runs from
 */
public record ServiceJvm(
    String java,
    String heap,
    String gc,
    boolean priorities,
    boolean imageCompiler,
    List<String> jvm,
    String classpath) {

  /**
   * The image's options on this JVM's launcher, with {@code heap}, on the service's own class path
   * ({@link #serviceClassPath()}).
   */
  public static ServiceJvm asImage(String heap) {
    return new ServiceJvm(
        javaBin(), heap, ImageJvmOptions.gc(), true, true, List.of(), serviceClassPath());
  }

  /** The same with {@code options} added after the others. */
  public ServiceJvm withJvm(List<String> options) {
    List<String> all = new ArrayList<>(jvm);
    all.addAll(options);
    return new ServiceJvm(java, heap, gc, priorities, imageCompiler, List.copyOf(all), classpath);
  }

  /**
   * The command that runs the service on loopback port {@code port} with {@code serviceArgs}
   * ({@code --name=value} properties).
   */
  public List<String> command(int port, List<String> serviceArgs) {
    List<String> cmd = new ArrayList<>(List.of(java, "-Xmx" + heap, "-XX:+Use" + gc + "GC"));
    cmd.addAll(ImageJvmOptions.memory());
    if (priorities) {
      cmd.addAll(EventThreads.JVM_OPTIONS);
    }
    if (imageCompiler) {
      cmd.addAll(ImageJvmOptions.compiler());
    }
    cmd.addAll(jvm);
    cmd.addAll(
        List.of(
            "-cp",
            classpath,
            SchedulerExtenderApplication.class.getName(),
            "--server.port=" + port));
    cmd.addAll(serviceArgs);
    return cmd;
  }

  /** This JVM's {@code java} launcher. */
  public static String javaBin() {
    return Path.of(System.getProperty("java.home"), "bin", "java").toString();
  }

  /** This JVM's class path: the service's classes, the tests' and every dependency. */
  public static String classPath() {
    return System.getProperty("java.class.path");
  }

  /**
   * This JVM's class path without the tests' classes, which the service's component scan would
   * otherwise read through too.
   */
  public static String serviceClassPath() {
    return Arrays.stream(classPath().split(File.pathSeparator))
        .filter(e -> !Path.of(e).endsWith("test-classes"))
        .collect(Collectors.joining(File.pathSeparator));
  }
}
