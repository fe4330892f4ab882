package io.schedext.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Stream;

/**
 * CPU time of one JVM process by thread group, from {@code /proc/<pid>/task/<tid>/stat}: what a
 * flight recording cannot show, since the JIT compilers and the GC run no Java code. Thread names
 * are the kernel's (15 characters).
 */
final class ThreadGroupCpu {

  /** The groups, in the order they are printed. */
  static final String[] GROUPS = {"requests", "watch", "jit", "gc", "other"};

  private static final double NANOS_PER_TICK = 1e9 / 100; // USER_HZ, 100 on Linux

  private ThreadGroupCpu() {}

  /** The user and system CPU time of one {@code /proc/.../stat} line, in nanoseconds. */
  static long cpuNanos(String stat) {
    String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
    // After the command: state(0) ... utime(11) stime(12), in clock ticks.
    return (long) ((Long.parseLong(f[11]) + Long.parseLong(f[12])) * NANOS_PER_TICK);
  }

  /** Which group a thread of this name belongs to. */
  static String group(String name) {
    if (name.startsWith("http-nio-")) {
      return "requests"; // Tomcat's workers (the poller and acceptor cost next to nothing)
    }
    if (name.startsWith("vert.x-") || name.startsWith("kube-client") || name.startsWith("OkHttp")) {
      return "watch"; // the API client: websocket frames, decoding, informer stores, the cache's
      // handlers
    }
    if (name.startsWith("C1 Compiler") || name.startsWith("C2 Compiler")) {
      return "jit";
    }
    if (name.startsWith("GC Thread")
        || name.startsWith("G1 ")
        || name.startsWith("VM Thread")
        || name.startsWith("ZWorker")
        || name.startsWith("Parallel")) {
      return "gc";
    }
    return "other";
  }

  /**
   * CPU nanoseconds per group of the live threads of {@code pid} (threads that ended are not
   * counted).
   */
  static Map<String, Long> read(long pid) {
    Map<String, Long> out = new LinkedHashMap<>();
    for (String g : GROUPS) {
      out.put(g, 0L);
    }
    try (Stream<Path> tasks = Files.list(Path.of("/proc/" + pid + "/task"))) {
      tasks.forEach(
          t -> {
            try {
              String stat = Files.readString(t.resolve("stat"));
              String name = stat.substring(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
              out.merge(group(name), cpuNanos(stat), Long::sum);
            } catch (IOException | RuntimeException e) {
              // the thread ended while being read
            }
          });
    } catch (IOException e) {
      // the process ended
    }
    return out;
  }

  /** {@code after - before} per group, in ms per {@code per}. */
  static String perUnit(Map<String, Long> before, Map<String, Long> after, int per) {
    StringBuilder b = new StringBuilder();
    for (String g : GROUPS) {
      if (b.length() > 0) {
        b.append(", ");
      }
      b.append(g)
          .append(' ')
          .append(String.format(Locale.ROOT, "%.2f", (after.get(g) - before.get(g)) / 1e6 / per));
    }
    return b.toString();
  }
}
