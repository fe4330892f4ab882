package io.schedext.extender;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The one logger of the verbs' decisions: at {@code debug}, one line per filter, prioritize,
 * preempt and bind; a failed bind at {@code info}. Its name, {@value #NAME}, is what operators
 * switch on.
 */
final class DecisionLog {

  /** The logger's name. */
  static final String NAME = "io.schedext.extender.decisions";

  /** The logger. */
  static final Logger LOG = LoggerFactory.getLogger(NAME);

  /** How many nodes or reasons a decision line names at most. */
  static final int TOP = 3;

  private DecisionLog() {}

  /**
   * The most frequent reasons of {@code byNode}, most frequent first, as {@code "reason"=count}.
   */
  static List<String> topReasons(Map<String, String> byNode) {
    Map<String, Integer> counts = new LinkedHashMap<>();
    byNode.values().forEach(r -> counts.merge(r, 1, Integer::sum));
    return counts.entrySet().stream()
        .sorted(Map.Entry.<String, Integer>comparingByValue().reversed())
        .limit(TOP)
        .map(e -> "\"" + e.getKey() + "\"=" + e.getValue())
        .toList();
  }
}
