package io.schedext.deployment;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.schedext.testing.Http;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.test.context.SpringBootTest;

/**
 * The kubectl plugin {@code deployment/kubectl-schedext}, run with bash against the service on the
 * demo cluster: with {@code --url} each command prints what the HTTP request docs/verify.md makes
 * with curl answers, errors go to stderr with the extender's message and exit status 1; without it,
 * the plugin asks kubectl (a stand-in here that records its arguments) for the lease holder among
 * the labelled pods, port-forwards to it and stops the port-forward when done. Skipped, with one
 * line, where bash or curl is missing.
 */
@SpringBootTest(
    webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
    // The untouched demo cluster, in the context the explain tests share.
    properties = "extender.cluster.file=classpath:cluster/demo-cluster.yaml")
class KubectlSchedextTest {

  private static final Logger log = LoggerFactory.getLogger(KubectlSchedextTest.class);
  static final Path PLUGIN = Path.of("deployment/kubectl-schedext");

  @Value("${local.server.port}")
  int port;

  /** Why these tests cannot run here, or null. */
  private static String missing;

  @BeforeAll
  static void lookForBashAndCurl() {
    List<String> absent = Stream.of("bash", "curl").filter(p -> !onPath(p)).toList();
    if (!absent.isEmpty()) {
      missing =
          "kubectl-schedext tests skipped: " + String.join(" and ", absent) + " not on the PATH";
      log.warn(missing);
    }
  }

  private static boolean onPath(String program) {
    return Stream.of(System.getenv().getOrDefault("PATH", "").split(":"))
        .anyMatch(d -> !d.isEmpty() && Files.isExecutable(Path.of(d, program)));
  }

  @BeforeEach
  void assumeBashAndCurl() {
    Assumptions.assumeTrue(missing == null, missing);
  }

  /**
   * What one run printed.
   *
   * @param exit its exit status
   * @param out its standard output
   * @param err its standard error
   */
  record Run(int exit, String out, String err) {}

  private Run plugin(String... args) {
    return plugin(Map.of(), null, args);
  }

  private Run withUrl(String... args) {
    List<String> all = new ArrayList<>(List.of("--url", url()));
    all.addAll(List.of(args));
    return plugin(all.toArray(String[]::new));
  }

  private String url() {
    return "http://127.0.0.1:" + port;
  }

  /** Runs the plugin with bash, {@code env} added to its environment and {@code stdin} as input. */
  private static Run plugin(Map<String, String> env, Path stdin, String... args) {
    try {
      Path out = Files.createTempFile("kubectl-schedext", ".out");
      Path err = Files.createTempFile("kubectl-schedext", ".err");
      List<String> command = new ArrayList<>(List.of("bash", PLUGIN.toString()));
      command.addAll(List.of(args));
      ProcessBuilder pb =
          new ProcessBuilder(command).redirectOutput(out.toFile()).redirectError(err.toFile());
      pb.environment().putAll(env);
      if (stdin != null) {
        pb.redirectInput(stdin.toFile());
      }
      Process p = pb.start();
      if (!p.waitFor(60, TimeUnit.SECONDS)) {
        p.destroyForcibly();
        throw new AssertionError(command + " did not finish within 60 s");
      }
      Run run = new Run(p.exitValue(), Files.readString(out), Files.readString(err));
      Files.delete(out);
      Files.delete(err);
      return run;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  private Http.Reply get(String path) {
    Http.Reply r = new Http(port).get(path);
    assertThat(r.status()).as(path).isEqualTo(200);
    return r;
  }

  @Test
  void whyPrintsTheTextReportOfExplainByName() {
    String report = get("/scheduler/explain/shop/redis-2?format=text").body();

    Run byPath = withUrl("why", "shop/redis-2");
    Run byFlag = withUrl("why", "redis-2", "-n", "shop");

    assertThat(byPath).isEqualTo(new Run(0, report, ""));
    assertThat(byFlag).isEqualTo(new Run(0, report, ""));
  }

  @Test
  void whyWithJsonPrintsTheExplanationDocument() {
    assertThat(withUrl("why", "shop/redis-2", "--json"))
        .isEqualTo(new Run(0, get("/scheduler/explain/shop/redis-2?format=json").body(), ""));
  }

  @Test
  void verifyMdShowsWhatWhyPrintsForTheDemosPendingPod() throws IOException {
    Run why = withUrl("why", "shop/redis-2");
    assertThat(Files.readString(Path.of("docs/verify.md")))
        .contains(
            "$ kubectl schedext --url http://127.0.0.1:8888 why shop/redis-2\n"
                + why.out()
                + "```\n");
  }

  @Test
  void explainPostsAPodFileOrStandardInputAsYamlAndPrintsTheReport(@TempDir Path dir)
      throws IOException {
    Path pod = Path.of("docs/examples/pod.yaml");
    Http.Reply r =
        new Http(port)
            .post(
                "/scheduler/explain?format=text", Files.readString(pod), "application/yaml", "*/*");
    assertThat(r.status()).isEqualTo(200);

    assertThat(withUrl("explain", "-f", pod.toString())).isEqualTo(new Run(0, r.body(), ""));
    List<String> args = List.of("--url", url(), "explain", "-f", "-");
    assertThat(plugin(Map.of(), pod, args.toArray(String[]::new)))
        .isEqualTo(new Run(0, r.body(), ""));
  }

  @Test
  void cacheCompareSummaryAndNodePrintTheDebugViewsOnALine() {
    assertThat(withUrl("cache", "compare"))
        .isEqualTo(new Run(0, get("/debug/cache/compare").body() + "\n", ""));
    assertThat(withUrl("cache", "node", "node-c1"))
        .isEqualTo(new Run(0, get("/debug/cache/nodes/node-c1").body() + "\n", ""));
    Run summary = withUrl("cache", "summary");
    assertThat(summary.exit()).isZero();
    // The generation and the nodes' sums are the cache's now; the source and the counts stay.
    assertThat(summary.out())
        .startsWith(get("/debug/cache").body().substring(0, 60))
        .contains("\"ready\":true");
  }

  @Test
  void statusPrintsReadinessThenTheHealthSeriesVerifyMdGreps() {
    // Readiness waits for the warm-up, whose progress it reports.
    await()
        .atMost(Duration.ofSeconds(30))
        .until(() -> new Http(port).get("/actuator/health/readiness").status() == 200);
    Run status = withUrl("status");
    String readiness = get("/actuator/health/readiness").body();
    List<String> series =
        get("/actuator/prometheus")
            .body()
            .lines()
            .filter(
                l ->
                    l.matches(
                        "^(extender_cluster_ready|extender_informer_|extender_cache_|extender_bind_total"
                            + "|extender_request_duration_seconds_(count|max)).*"))
            .map(KubectlSchedextTest::seriesOf)
            .toList();

    assertThat(status.exit()).as(status.err()).isZero();
    List<String> lines = status.out().lines().toList();
    assertThat(lines.get(0)).isEqualTo(readiness);
    // Values move with every call; the series are the same.
    assertThat(lines.subList(1, lines.size()))
        .extracting(KubectlSchedextTest::seriesOf)
        .isEqualTo(series)
        .contains("extender_cluster_ready{application=\"scheduler-extender\"}");
  }

  private static String seriesOf(String line) {
    return line.substring(0, line.lastIndexOf(' '));
  }

  @Test
  void anUnknownPodIsAnErrorOnStandardErrorWithTheExtendersMessage() {
    Run run = withUrl("why", "shop/nope");
    assertThat(run.exit()).isEqualTo(1);
    assertThat(run.out()).isEmpty();
    assertThat(run.err())
        .isEqualTo(
            "kubectl-schedext: HTTP 404 from "
                + url()
                + "/scheduler/explain/shop/nope?format=text: pod \"shop/nope\" is not known to the"
                + " extender: neither pending in the cluster source nor in the cache\n");
  }

  @Test
  void aMistakeInTheCommandIsAUsageErrorWithStatus2() {
    for (String[] args :
        List.of(
            new String[] {},
            new String[] {"--url", url(), "frob"},
            new String[] {"--url", url(), "why"},
            new String[] {"--url", url(), "why", "shop/redis-2", "-n", "shop"},
            new String[] {"--url", url(), "explain"},
            new String[] {"--url", url(), "cache", "flush"},
            new String[] {"--url"})) {
      Run run = plugin(args);
      assertThat(run.exit()).as(String.join(" ", args)).isEqualTo(2);
      assertThat(run.out()).isEmpty();
      assertThat(run.err()).isNotEmpty();
    }
    Run help = plugin("--help");
    assertThat(help.exit()).isZero();
    assertThat(help.out()).contains("kubectl schedext why NAMESPACE/POD");
  }

  @Test
  void withoutUrlItPortForwardsToTheLeaseHoldersPodAndStopsTheForwardWhenDone(@TempDir Path bin)
      throws IOException {
    // kubectl as the plugin uses it: the labelled running pods, the lease's holder, and a
    // port-forward that names the service's port as its local end and runs until stopped.
    Path calls = bin.resolve("calls");
    Path forwarder = bin.resolve("forwarder.pid");
    Path kubectl = bin.resolve("kubectl");
    Files.writeString(
        kubectl,
        "#!/usr/bin/env bash\n"
            + "echo \"$*\" >> '"
            + calls
            + "'\n"
            + "case \"$*\" in\n"
            + "  *' get pods '*) printf 'scheduler-extender-a\\nscheduler-extender-b\\n' ;;\n"
            + "  *' get lease extender-scheduler '*) printf 'scheduler-extender-b_6f1c' ;;\n"
            + "  *' port-forward '*)\n"
            + "    echo $$ > '"
            + forwarder
            + "'\n"
            + "    echo 'Forwarding from 127.0.0.1:"
            + port
            + " -> 8888'\n"
            + "    echo 'Forwarding from [::1]:"
            + port
            + " -> 8888'\n"
            + "    exec sleep 120 ;;\n"
            + "  *) exit 1 ;;\n"
            + "esac\n");
    Files.setPosixFilePermissions(kubectl, PosixFilePermissions.fromString("rwxr-xr-x"));
    Map<String, String> env = Map.of("PATH", bin + ":" + System.getenv("PATH"));

    Run run = plugin(env, null, "why", "shop/redis-2", "--context", "prod");

    assertThat(run.exit()).as(run.err()).isZero();
    assertThat(run.out()).isEqualTo(get("/scheduler/explain/shop/redis-2?format=text").body());
    assertThat(run.err())
        .isEqualTo(
            "kubectl-schedext: scheduler-extender/scheduler-extender-b port 8888 through a"
                + " port-forward\n");
    assertThat(Files.readAllLines(calls, StandardCharsets.UTF_8))
        .containsExactly(
            "--context=prod -n scheduler-extender get pods -l"
                + " app.kubernetes.io/name=scheduler-extender -o jsonpath={range"
                + " .items[?(@.status.phase==\"Running\")]}{.metadata.name}{\"\\n\"}{end}",
            "--context=prod -n scheduler-extender get lease extender-scheduler -o"
                + " jsonpath={.spec.holderIdentity}",
            "--context=prod -n scheduler-extender port-forward pod/scheduler-extender-b :8888");
    long pid = Long.parseLong(Files.readString(forwarder).strip());
    await()
        .atMost(Duration.ofSeconds(10))
        .until(() -> ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false) == false);
  }
}
