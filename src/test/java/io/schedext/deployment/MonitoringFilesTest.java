package io.schedext.deployment;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assumptions.assumeThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.schedext.deployment.MonitoringFiles.PanelQuery;
import io.schedext.deployment.MonitoringFiles.Rule;
import io.schedext.testing.PrometheusPrograms;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * deployment/monitoring as Prometheus and the cluster read it: promtool checks the rules (the plain
 * file and the PrometheusRule's groups, which are the same) and runs their unit tests, in which
 * every alert fires and stays quiet; every alert has its summary, description, severity and runbook
 * in docs/troubleshooting.md; rules and panels select the extender's job; and the PodMonitor and
 * the scrape job find the pods of both layouts. What the queries return on a real extender is
 * {@link PrometheusScrapeTest}'s.
 */
class MonitoringFilesTest {

  private static final Logger log = LoggerFactory.getLogger(MonitoringFilesTest.class);
  private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());
  private static final Path TROUBLESHOOTING = Path.of("docs/troubleshooting.md");

  /** Why the promtool tests cannot run here, or null. */
  private static String missing;

  @BeforeAll
  static void lookForPromtool() {
    missing =
        PrometheusPrograms.missing("promtool tests of the rules", PrometheusPrograms.PROMTOOL);
    if (missing != null) {
      log.warn(missing);
    }
  }

  private static void assumePromtool() {
    Assumptions.assumeTrue(missing == null, missing);
  }

  static List<Rule> alerts() {
    return MonitoringFiles.alerts();
  }

  // ------------------------------------------------------------------------------------- promtool

  @Test
  void promtoolChecksTheRulesFile() {
    assumePromtool();
    PrometheusPrograms.Result r =
        PrometheusPrograms.promtool(
            MonitoringFiles.DIR, "check", "rules", MonitoringFiles.RULES.getFileName().toString());
    assertThat(r.exit()).as(r.output()).isZero();
    assertThat(r.output()).contains("SUCCESS: " + MonitoringFiles.rules().size() + " rules found");
  }

  @Test
  void promtoolChecksThePrometheusRulesGroups(@TempDir Path dir) throws IOException {
    assumePromtool();
    JsonNode spec = MonitoringFiles.yaml(MonitoringFiles.PROMETHEUS_RULE).path("spec");
    Path file = dir.resolve("prometheus-rule-groups.yaml");
    YAML.writeValue(file.toFile(), spec);
    PrometheusPrograms.Result r =
        PrometheusPrograms.promtool(dir, "check", "rules", file.getFileName().toString());
    assertThat(r.exit()).as(r.output()).isZero();
    assertThat(r.output()).contains("SUCCESS: " + MonitoringFiles.rules().size() + " rules found");
  }

  @Test
  void promtoolUnitTestsOfTheRulesPass() {
    assumePromtool();
    PrometheusPrograms.Result r =
        PrometheusPrograms.promtool(
            MonitoringFiles.DIR,
            "test",
            "rules",
            MonitoringFiles.RULES_TEST.getFileName().toString());
    assertThat(r.exit()).as(r.output()).isZero();
    assertThat(r.output()).contains("SUCCESS");
  }

  // --------------------------------------------------------------------------------- the rules

  @Test
  void thePrometheusRuleCarriesExactlyTheGroupsOfThePlainRulesFile() {
    JsonNode object = MonitoringFiles.yaml(MonitoringFiles.PROMETHEUS_RULE);
    assertThat(object.path("kind").asText()).isEqualTo("PrometheusRule");
    assertThat(object.path("spec").path("groups"))
        .isEqualTo(MonitoringFiles.yaml(MonitoringFiles.RULES).path("groups"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("alerts")
  void everyAlertFiresInAUnitTestAndStaysQuietInAnother(Rule alert) {
    List<JsonNode> cases = new ArrayList<>();
    for (JsonNode test : MonitoringFiles.yaml(MonitoringFiles.RULES_TEST).path("tests")) {
      for (JsonNode c : test.path("alert_rule_test")) {
        if (c.path("alertname").asText().equals(alert.name())) {
          cases.add(c);
        }
      }
    }
    assertThat(cases)
        .as(alert.name() + " fires on some series")
        .anyMatch(c -> c.path("exp_alerts").size() > 0);
    assertThat(cases)
        .as(alert.name() + " stays quiet on some series")
        .anyMatch(c -> c.path("exp_alerts").isEmpty());
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("alerts")
  void everyAlertHasASeveritySummaryDescriptionAndARunbookInTroubleshooting(Rule alert)
      throws IOException {
    JsonNode r = alert.rule();
    assertThat(r.path("labels").path("severity").asText()).isIn("warning", "critical");
    assertThat(r.path("annotations").path("summary").asText()).isNotBlank();
    assertThat(r.path("annotations").path("description").asText()).isNotBlank();
    String anchor = alert.name().toLowerCase(java.util.Locale.ROOT);
    assertThat(r.path("annotations").path("runbook_url").asText())
        .isEqualTo("docs/troubleshooting.md#" + anchor);
    String section = runbooks().get(alert.name());
    assertThat(section).as("### " + alert.name() + " in " + TROUBLESHOOTING).isNotNull();
    for (String part : List.of("**What it means.**", "**What to check.**", "**What to do.**")) {
      assertThat(section).as(alert.name() + "'s runbook").contains(part);
    }
  }

  @Test
  void everyRunbookInTroubleshootingBelongsToAnAlert() throws IOException {
    Set<String> names = new HashSet<>();
    alerts().forEach(a -> names.add(a.name()));
    assertThat(runbooks().keySet()).isEqualTo(names);
  }

  /** The sections under "## Alerts" in docs/troubleshooting.md, by their "###" heading. */
  private static Map<String, String> runbooks() throws IOException {
    String text = Files.readString(TROUBLESHOOTING);
    int start = text.indexOf("\n## Alerts\n");
    assertThat(start).as("## Alerts in " + TROUBLESHOOTING).isNotNegative();
    int end = text.indexOf("\n## ", start + 1);
    String alertsPart = end < 0 ? text.substring(start) : text.substring(start, end);
    Map<String, String> out = new java.util.LinkedHashMap<>();
    Matcher m = Pattern.compile("(?m)^### (\\S+)\\n").matcher(alertsPart);
    List<int[]> heads = new ArrayList<>();
    List<String> titles = new ArrayList<>();
    while (m.find()) {
      heads.add(new int[] {m.start(), m.end()});
      titles.add(m.group(1));
    }
    for (int i = 0; i < heads.size(); i++) {
      int to = i + 1 < heads.size() ? heads.get(i + 1)[0] : alertsPart.length();
      out.put(titles.get(i), alertsPart.substring(heads.get(i)[1], to));
    }
    return out;
  }

  @Test
  void everyRuleAndPanelSelectsTheExtendersSeriesByItsJob() {
    List<String> unselected = new ArrayList<>();
    Stream.concat(
            MonitoringFiles.rules().stream().map(r -> Map.entry(r.name(), r.expr())),
            MonitoringFiles.panelQueries().stream().map(q -> Map.entry(q.toString(), q.expr())))
        .forEach(
            e -> {
              for (String s : MonitoringFiles.selectors(e.getValue())) {
                // Recorded series (level:metric:operations) carry the job of the series they
                // were recorded from.
                boolean recorded = s.replaceAll("\\{.*", "").contains(":");
                if (!recorded && !s.contains("job=\"" + MonitoringFiles.JOB + "\"")) {
                  unselected.add(e.getKey() + ": " + s);
                }
              }
            });
    assertThat(unselected).isEmpty();
  }

  @Test
  void theSelectorsOfAnExpressionAreItsSeriesNotItsFunctionsLabelsOrOperators() {
    assertThat(
            MonitoringFiles.selectors(
                "sum by (job, le) (rate(a_bucket{job=\"x\", le=~\"1|{2}\"}[5m])) / on (job)"
                    + " group_left b:c:rate5m > 0.5 and absent(up == 1) or vector(5) * 1e9"
                    + " unless d offset 5m"))
        .containsExactly("a_bucket{job=\"x\", le=~\"1|{2}\"}", "b:c:rate5m", "up", "d");
    assertThat(
            MonitoringFiles.withoutThresholds(
                "x{a!=\"1\"} == 0 and on (job) max_over_time(x[1h]) > 0.05"))
        .isEqualTo("x{a!=\"1\"} and on (job) max_over_time(x[1h])");
    assertThat(MonitoringFiles.withoutThresholds("absent(up{job=\"j\"} == 1)"))
        .isEqualTo("up{job=\"j\"}");
  }

  // ----------------------------------------------------------------------------- the dashboard

  @Test
  void everyPanelHasATitleADescriptionAndTheDashboardsDataSource() {
    List<String> ids = new ArrayList<>();
    for (JsonNode p : MonitoringFiles.dashboard().path("panels")) {
      ids.add(p.path("id").asText());
      assertThat(p.path("title").asText()).isNotBlank();
      if (p.path("type").asText().equals("row")) {
        continue;
      }
      assertThat(p.path("description").asText()).as(p.path("title").asText()).isNotBlank();
      assertThat(p.path("datasource").path("uid").asText()).isEqualTo("${datasource}");
      assertThat(p.path("targets").size()).as(p.path("title").asText()).isPositive();
    }
    assertThat(ids).doesNotHaveDuplicates();
    List<PanelQuery> queries = MonitoringFiles.panelQueries();
    assertThat(queries).extracting(PanelQuery::expr).allMatch(e -> !e.contains("$"));
  }

  // -------------------------------------------------------------------- the scrape configuration

  @Test
  void thePodMonitorAndTheScrapeJobFindTheExtenderPodsOfBothLayoutsOnTheirManagementPort() {
    JsonNode monitor = MonitoringFiles.yaml(MonitoringFiles.POD_MONITOR);
    JsonNode endpoint = monitor.path("spec").path("podMetricsEndpoints").get(0);
    JsonNode scrape =
        MonitoringFiles.yaml(MonitoringFiles.SCRAPE_CONFIG).path("scrape_configs").get(0);
    assertThat(scrape.path("job_name").asText()).isEqualTo(MonitoringFiles.JOB);
    assertThat(scrape.path("metrics_path").asText()).isEqualTo("/actuator/prometheus");
    assertThat(endpoint.path("path").asText()).isEqualTo("/actuator/prometheus");
    String keep = "";
    List<String> keepLabels = new ArrayList<>();
    for (JsonNode r : scrape.path("relabel_configs")) {
      if (r.path("action").asText().equals("keep")) {
        keep = r.path("regex").asText();
        r.path("source_labels").forEach(l -> keepLabels.add(l.asText()));
      }
    }
    assertThat(keepLabels)
        .containsExactly(
            "__meta_kubernetes_pod_label_app_kubernetes_io_name",
            "__meta_kubernetes_pod_container_port_name");
    for (ManifestsTest.Layout layout : List.of(ManifestsTest.base(), ManifestsTest.standalone())) {
      Deployment d = layout.deployment();
      Map<String, String> labels = d.getSpec().getTemplate().getMetadata().getLabels();
      Container extender = ManifestsTest.container(d, "extender");
      assertThat(extender.getPorts())
          .as(layout + ": the PodMonitor's port")
          .anyMatch(p -> p.getName().equals(endpoint.path("port").asText()));
      assertThat(d.getMetadata().getNamespace())
          .isEqualTo(monitor.path("metadata").path("namespace").asText());
      monitor
          .path("spec")
          .path("selector")
          .path("matchLabels")
          .fields()
          .forEachRemaining(
              e ->
                  assertThat(labels)
                      .as(layout.name())
                      .containsEntry(e.getKey(), e.getValue().asText()));
      assertThat(labels.get(monitor.path("spec").path("jobLabel").asText()))
          .as(layout + ": the job the PodMonitor names")
          .isEqualTo(MonitoringFiles.JOB);
      assertThat(labels.get("app.kubernetes.io/name") + ";" + endpoint.path("port").asText())
          .as(layout + ": the scrape job keeps it")
          .matches(keep);
      assertThat(scrape.path("kubernetes_sd_configs").get(0).path("namespaces").path("names"))
          .extracting(JsonNode::asText)
          .containsExactly(d.getMetadata().getNamespace());
    }
  }

  @Test
  void kubectlKustomizeRendersThePodMonitorAndThePrometheusRule() throws IOException {
    String rendered = ManifestsTest.kubectlKustomize(MonitoringFiles.DIR);
    assumeThat(rendered).as("kubectl on PATH").isNotNull();
    List<String> kinds = new ArrayList<>();
    try (var parser = YAML.getFactory().createParser(rendered)) {
      for (var it = YAML.readValues(parser, JsonNode.class); it.hasNext(); ) {
        JsonNode n = it.next();
        kinds.add(n.path("kind").asText() + " " + n.path("metadata").path("name").asText());
      }
    }
    assertThat(kinds)
        .containsExactlyInAnyOrder(
            "PodMonitor scheduler-extender", "PrometheusRule scheduler-extender");
  }
}
