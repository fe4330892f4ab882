package io.schedext.warmup;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The compiler threads' CPU time, read from {@code /proc}. */
class CompilerCpuTest {

  record Case(String stat, long ticks) {}

  @Test
  void userAndSystemTicksAreTakenAfterTheName() {
    for (Case c :
        List.of(
            new Case(
                "4242 (C2 CompilerThre) S 1 1 1 0 -1 1077936192 0 0 0 0 123 45 0 0 20 0 1 0 7 0 0",
                168),
            // A name may hold spaces and parentheses; the fields start after the last one.
            new Case("7 (a) (b c) R 1 1 1 0 -1 0 0 0 0 0 10 5 0 0 20 0 1 0 7 0 0", 15),
            new Case("no parenthesis here", 0),
            new Case("7 (short) R 1 2", 0),
            new Case("7 (x) R 1 1 1 0 -1 0 0 0 0 0 ten 5 0 0", 0))) {
      assertThat(CompilerCpu.cpuTicks(c.stat())).as(c.stat()).isEqualTo(c.ticks());
    }
  }

  @Test
  void onlyCompilerThreadsCountAndInMilliseconds(@TempDir Path tasks) throws IOException {
    task(tasks, "1", "java", 500, 500);
    task(tasks, "2", "C2 CompilerThre", 30, 2);
    task(tasks, "3", "C1 CompilerThre", 7, 1);
    task(tasks, "4", "C2 CompilerThread1", 0, 0);
    Files.createDirectories(tasks.resolve("5"));

    assertThat(CompilerCpu.read(tasks)).as("(30+2+7+1) ticks of 10 ms").isEqualTo(400);
    assertThat(CompilerCpu.read(tasks.resolve("missing"))).isEqualTo(-1);
  }

  @Test
  void thisJvmHasCompilerTimeThatNeverFalls() {
    assumeTrue(Files.isDirectory(Path.of("/proc/self/task")), "no /proc on this machine");
    var cpu = CompilerCpu.ofThisJvm();
    long first = cpu.getAsLong();
    assertThat(first).isGreaterThanOrEqualTo(0);
    assertThat(cpu.getAsLong()).isGreaterThanOrEqualTo(first);
  }

  private static void task(Path tasks, String id, String comm, long utime, long stime)
      throws IOException {
    Path t = Files.createDirectories(tasks.resolve(id));
    Files.writeString(t.resolve("comm"), comm + "\n");
    Files.writeString(
        t.resolve("stat"),
        id + " (" + comm + ") S 1 1 1 0 -1 0 0 0 0 0 " + utime + " " + stime + " 0 0 20 0 1 0 7");
  }
}
