package io.schedext.framework;

import java.util.List;

/**
 * A Filter plugin's account of a rejection beyond its reason (see {@link FilterDiagnoser}).
 *
 * @param lines a few lines for people (the text report and the web page), in order
 * @param data the same for programs: an object the JSON mapper can write (a record of the
 *     plugin's), or null
 */
public record FilterDiagnosis(List<String> lines, Object data) {

  /** Copies the lines. */
  public FilterDiagnosis {
    lines = List.copyOf(lines);
  }
}
