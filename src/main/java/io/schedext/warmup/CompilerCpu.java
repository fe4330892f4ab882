package io.schedext.warmup;

import java.io.IOException;
import java.lang.management.CompilationMXBean;
import java.lang.management.ManagementFactory;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.function.LongSupplier;

/**
 * The CPU time this JVM's just-in-time compiler threads have used so far, in milliseconds. On Linux
 * it is read from {@code /proc/self/task}: the compiler threads are the JVM's own, invisible to
 * {@code ThreadMXBean}, and named {@code C1 CompilerThre…} and {@code C2 CompilerThre…}. The JVM's
 * own {@link CompilationMXBean#getTotalCompilationTime()} is no substitute for telling whether the
 * compilers are busy: it grows only when a compilation ends, and one compilation of a request path
 * takes the optimising compiler up to a second. Elsewhere that count is all there is.
 */
final class CompilerCpu {

  private CompilerCpu() {}

  /** Clock ticks per second of {@code /proc}'s times ({@code USER_HZ}, 100 on Linux). */
  private static final long TICKS_PER_SECOND = 100;

  private static final Path TASKS = Path.of("/proc/self/task");

  /**
   * This JVM's compiler CPU in milliseconds, read anew on each call; the compilation time the JVM
   * keeps where {@code /proc} is not there; -1 from every call when neither is.
   */
  static LongSupplier ofThisJvm() {
    if (Files.isDirectory(TASKS) && read(TASKS) >= 0) {
      return () -> read(TASKS);
    }
    CompilationMXBean jit = ManagementFactory.getCompilationMXBean();
    return jit != null && jit.isCompilationTimeMonitoringSupported()
        ? jit::getTotalCompilationTime
        : () -> -1;
  }

  /**
   * The CPU time of the compiler threads among the tasks under {@code tasks}, in milliseconds; -1
   * when the directory cannot be read. A thread that exits between listing and reading is left out.
   */
  static long read(Path tasks) {
    long ticks = 0;
    try (DirectoryStream<Path> dir = Files.newDirectoryStream(tasks)) {
      for (Path task : dir) {
        try {
          String comm = Files.readString(task.resolve("comm"));
          if (comm.startsWith("C1 CompilerThre") || comm.startsWith("C2 CompilerThre")) {
            ticks += cpuTicks(Files.readString(task.resolve("stat")));
          }
        } catch (IOException exited) {
          // Gone meanwhile: its time no longer counts.
        }
      }
    } catch (IOException e) {
      return -1;
    }
    return ticks * 1000 / TICKS_PER_SECOND;
  }

  /**
   * User and system time, in clock ticks, of a {@code stat} line ({@code proc(5)}: fields 14 and
   * 15, counted after the parenthesised name, which may itself hold spaces and parentheses); 0 for
   * a line of another form.
   */
  static long cpuTicks(String stat) {
    int close = stat.lastIndexOf(')');
    if (close < 0) {
      return 0;
    }
    String[] f = stat.substring(close + 1).trim().split(" ");
    if (f.length < 13) {
      return 0;
    }
    try {
      return Long.parseLong(f[11]) + Long.parseLong(f[12]);
    } catch (NumberFormatException e) {
      return 0;
    }
  }
}
