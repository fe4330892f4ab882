package io.schedext.extender;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import io.schedext.testing.Http;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.test.context.SpringBootTest;

/**
 * At debug level, every filter, prioritize and preempt decision writes one line with its pod,
 * counts and reasons.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
class DecisionLogTest {

  @Value("${local.server.port}")
  int port;

  private final Logger logger = (Logger) LoggerFactory.getLogger(DecisionLog.NAME);
  private final ListAppender<ILoggingEvent> appender = new ListAppender<>();
  private Level previous;

  @BeforeEach
  void capture() {
    previous = logger.getLevel();
    logger.setLevel(Level.DEBUG);
    appender.start();
    logger.addAppender(appender);
  }

  @AfterEach
  void release() {
    logger.detachAppender(appender);
    logger.setLevel(previous);
  }

  private List<String> linesAfter(String verb, String file) throws Exception {
    new Http(port).post("/scheduler/" + verb, Files.readString(Path.of("docs/examples/" + file)));
    return appender.list.stream()
        .map(ILoggingEvent::getFormattedMessage)
        .filter(m -> m.startsWith(verb + " "))
        .toList();
  }

  @Test
  void filterNamesTheCountsAndTheMostFrequentReasons() throws Exception {
    List<String> lines = linesAfter("filter", "filter.json");
    assertThat(lines).hasSize(1);
    assertThat(lines.get(0))
        .startsWith("filter pod=")
        .contains(" feasible=", " failed=", " unresolvable=")
        .contains("topReasons=[\"node(s) were unschedulable\"=1");
  }

  @Test
  void prioritizeNamesTheCountsAndTheBestNodes() throws Exception {
    List<String> lines = linesAfter("prioritize", "prioritize.json");
    assertThat(lines).hasSize(1);
    assertThat(lines.get(0))
        .matches(
            "prioritize pod=\\S+ profile=default-scheduler nodes=10 scored=\\d+ unknown=\\d+ "
                + "top=\\[\\S+=\\d+, \\S+=\\d+, \\S+=\\d+]");
  }

  @Test
  void preemptNamesTheProposedAndKeptNodesAndWhyOthersWereDropped() throws Exception {
    List<String> lines = linesAfter("preempt", "preempt.json");
    assertThat(lines).hasSize(1);
    assertThat(lines.get(0))
        .startsWith("preempt pod=")
        .contains(" proposedNodes=", " keptNodes=", " victims=", " dropped=", " topReasons=");
  }

  @Test
  void topReasonsCountsEachReasonAndKeepsTheThreeMostFrequent() {
    Map<String, String> byNode = new LinkedHashMap<>();
    byNode.put("a", "Insufficient cpu");
    byNode.put("b", "taint");
    byNode.put("c", "Insufficient cpu");
    byNode.put("d", "ports");
    byNode.put("e", "ports");
    byNode.put("f", "Insufficient cpu");
    byNode.put("g", "zone");
    assertThat(DecisionLog.topReasons(byNode))
        .containsExactly("\"Insufficient cpu\"=3", "\"ports\"=2", "\"taint\"=1");
    assertThat(DecisionLog.topReasons(Map.of())).isEmpty();
  }
}
