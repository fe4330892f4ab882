package io.schedext.deployment;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads deployment/monitoring: the rules (the plain file and the PrometheusRule), their promtool
 * unit tests, and the Grafana dashboard's queries with its variables filled in; and takes PromQL
 * expressions apart as far as the tests need: the series selectors in them, and an alert's
 * expression without its thresholds.
 */
final class MonitoringFiles {

  static final Path DIR = Manifests.ROOT.resolve("monitoring");
  static final Path RULES = DIR.resolve("scheduler-extender-rules.yaml");
  static final Path RULES_TEST = DIR.resolve("scheduler-extender-rules-test.yaml");
  static final Path PROMETHEUS_RULE = DIR.resolve("prometheus-rule.yaml");
  static final Path POD_MONITOR = DIR.resolve("pod-monitor.yaml");
  static final Path SCRAPE_CONFIG = DIR.resolve("scrape-config.yaml");
  static final Path DASHBOARD = DIR.resolve("scheduler-extender-dashboard.json");

  /** The job every rule and panel selects. */
  static final String JOB = "scheduler-extender";

  private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());
  private static final ObjectMapper JSON = new ObjectMapper();

  private MonitoringFiles() {}

  /**
   * One rule of the plain rules file.
   *
   * @param group its group
   * @param name the alert's name, or the series a recording rule records
   * @param alert whether it is an alert
   * @param expr its expression
   * @param rule the whole rule as written
   */
  record Rule(String group, String name, boolean alert, String expr, JsonNode rule) {
    @Override
    public String toString() {
      return name + (alert ? "" : " (" + rule.path("labels") + ")");
    }
  }

  /**
   * One query of a dashboard panel, its variables filled in.
   *
   * @param panel the panel's title
   * @param refId the query's letter
   * @param expr the query as Prometheus gets it
   */
  record PanelQuery(String panel, String refId, String expr) {
    @Override
    public String toString() {
      return panel + " " + refId;
    }
  }

  static JsonNode yaml(Path file) {
    try {
      return YAML.readTree(file.toFile());
    } catch (IOException e) {
      throw new UncheckedIOException(file + ": " + e.getMessage(), e);
    }
  }

  static JsonNode dashboard() {
    try {
      return JSON.readTree(DASHBOARD.toFile());
    } catch (IOException e) {
      throw new UncheckedIOException(DASHBOARD + ": " + e.getMessage(), e);
    }
  }

  /** Every rule of the plain rules file, in order. */
  static List<Rule> rules() {
    List<Rule> out = new ArrayList<>();
    for (JsonNode group : yaml(RULES).path("groups")) {
      for (JsonNode r : group.path("rules")) {
        boolean alert = r.has("alert");
        out.add(
            new Rule(
                group.path("name").asText(),
                (alert ? r.path("alert") : r.path("record")).asText(),
                alert,
                r.path("expr").asText().strip(),
                r));
      }
    }
    return out;
  }

  static List<Rule> alerts() {
    return rules().stream().filter(Rule::alert).toList();
  }

  static List<Rule> recordingRules() {
    return rules().stream().filter(r -> !r.alert()).toList();
  }

  /**
   * The values the dashboard's variables take by default: the job and the httpTimeout as set, every
   * instance (its "All" value), and {@code $__rate_interval} as one minute, which spans enough
   * scrapes at any interval up to 15 s.
   */
  static Map<String, String> dashboardVariables() {
    Map<String, String> values = new LinkedHashMap<>();
    for (JsonNode v : dashboard().path("templating").path("list")) {
      String name = v.path("name").asText();
      switch (v.path("type").asText()) {
        case "datasource" -> {}
        case "textbox", "constant" -> values.put(name, v.path("query").asText());
        default -> {
          if (v.path("includeAll").asBoolean() && v.path("allValue").isTextual()) {
            values.put(name, v.path("allValue").asText());
          } else {
            values.put(name, v.path("current").path("value").asText());
          }
        }
      }
    }
    values.put("__rate_interval", "1m");
    return values;
  }

  /** Every query of every panel of the dashboard (rows included), its variables filled in. */
  static List<PanelQuery> panelQueries() {
    Map<String, String> vars = dashboardVariables();
    List<PanelQuery> out = new ArrayList<>();
    collect(dashboard().path("panels"), vars, out);
    return out;
  }

  private static void collect(JsonNode panels, Map<String, String> vars, List<PanelQuery> out) {
    for (JsonNode p : panels) {
      for (JsonNode t : p.path("targets")) {
        out.add(
            new PanelQuery(
                p.path("title").asText(),
                t.path("refId").asText(),
                substitute(t.path("expr").asText(), vars)));
      }
      collect(p.path("panels"), vars, out);
    }
  }

  /** {@code expr} with {@code $name} and {@code ${name}} replaced, longest names first. */
  static String substitute(String expr, Map<String, String> vars) {
    String out = expr;
    List<String> names =
        vars.keySet().stream().sorted(Comparator.comparingInt(String::length).reversed()).toList();
    for (String name : names) {
      out = out.replace("${" + name + "}", vars.get(name)).replace("$" + name, vars.get(name));
    }
    if (out.contains("$")) {
      throw new AssertionError("a variable the dashboard does not define: " + expr);
    }
    return out;
  }

  // ------------------------------------------------------------------------------------ PromQL

  /** Aggregations and binary operators: words that are never series. */
  private static final Set<String> NOT_SERIES =
      Set.of(
          "sum",
          "min",
          "max",
          "avg",
          "group",
          "stddev",
          "stdvar",
          "count",
          "count_values",
          "bottomk",
          "topk",
          "quantile",
          "and",
          "or",
          "unless",
          "bool",
          "inf",
          "nan");

  /** Modifiers followed by a parenthesised list of label names. */
  private static final Set<String> LABEL_LISTS =
      Set.of("by", "without", "on", "ignoring", "group_left", "group_right");

  /**
   * The series selectors in {@code expr}, each as written ({@code name} or {@code name{matchers}}),
   * in order: every identifier that is neither a function (followed by a parenthesis), nor an
   * aggregation or operator, nor inside a label list, label matchers, a range or a string.
   */
  static List<String> selectors(String expr) {
    List<String> out = new ArrayList<>();
    int n = expr.length();
    int i = 0;
    while (i < n) {
      char c = expr.charAt(i);
      if (c == '"' || c == '\'' || c == '`') {
        i = afterString(expr, i);
      } else if (c == '[') {
        i = expr.indexOf(']', i) + 1;
      } else if (c == '{') {
        throw new AssertionError("a selector without a metric name in: " + expr);
      } else if (Character.isDigit(c) || c == '.') {
        while (i < n && (Character.isLetterOrDigit(expr.charAt(i)) || expr.charAt(i) == '.')) {
          i++;
        }
      } else if (Character.isLetter(c) || c == '_' || c == ':') {
        int start = i;
        while (i < n
            && (Character.isLetterOrDigit(expr.charAt(i)) || "_:".indexOf(expr.charAt(i)) >= 0)) {
          i++;
        }
        String word = expr.substring(start, i);
        int next = i;
        while (next < n && Character.isWhitespace(expr.charAt(next))) {
          next++;
        }
        boolean paren = next < n && expr.charAt(next) == '(';
        if (LABEL_LISTS.contains(word)) {
          i = paren ? expr.indexOf(')', next) + 1 : i;
        } else if (word.equals("offset")) {
          i = next;
          while (i < n && Character.isLetterOrDigit(expr.charAt(i))) {
            i++;
          }
        } else if (!paren && !NOT_SERIES.contains(word)) {
          if (next < n && expr.charAt(next) == '{') {
            int end = closingBrace(expr, next);
            out.add(word + expr.substring(next, end + 1));
            i = end + 1;
          } else {
            out.add(word);
          }
        }
      } else {
        i++;
      }
    }
    return out;
  }

  private static int afterString(String s, int open) {
    char quote = s.charAt(open);
    int i = open + 1;
    while (i < s.length() && s.charAt(i) != quote) {
      i += s.charAt(i) == '\\' && quote != '`' ? 2 : 1;
    }
    return i + 1;
  }

  private static int closingBrace(String s, int open) {
    int i = open + 1;
    while (i < s.length() && s.charAt(i) != '}') {
      char c = s.charAt(i);
      i = c == '"' || c == '\'' || c == '`' ? afterString(s, i) : i + 1;
    }
    return i;
  }

  private static final Pattern THRESHOLD =
      Pattern.compile("\\s*(==|!=|>=|<=|>|<)\\s*-?[0-9][0-9.eE+-]*");
  private static final Pattern ABSENT = Pattern.compile("(?s)absent\\((.*)\\)");

  /**
   * An alert's expression without its comparisons with numbers ({@code x > 0.05} becomes {@code
   * x}), and what {@code absent(...)} looks at rather than its (normally empty) answer: the series
   * the alert compares, which exist whether or not it fires.
   */
  static String withoutThresholds(String expr) {
    String s = THRESHOLD.matcher(expr).replaceAll("").strip();
    Matcher m = ABSENT.matcher(s);
    return m.matches() ? m.group(1).strip() : s;
  }
}
