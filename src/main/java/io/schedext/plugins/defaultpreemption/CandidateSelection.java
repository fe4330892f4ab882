package io.schedext.plugins.defaultpreemption;

import io.schedext.framework.PodInfo;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.function.ToLongFunction;

/**
 * Picks the node to preempt on among the candidates, as upstream's {@code
 * pickOneNodeForPreemption}: each rule keeps the candidates with the best score and the next rule
 * only breaks ties. Victims must be ordered most important first.
 */
final class CandidateSelection {

  /**
   * {@code math.MaxInt32 + 1}: added to every priority so that sums of negative priorities compare
   * sensibly.
   */
  private static final long PRIORITY_SHIFT = (long) Integer.MAX_VALUE + 1;

  private CandidateSelection() {}

  /**
   * The best candidate: fewest PDB violations, then the lowest highest victim priority, then the
   * lowest sum of shifted victim priorities, then the fewest victims, then the latest start among
   * the highest-priority victims; remaining ties go to the first candidate in the given order
   * (upstream's order is Go map order, i.e. arbitrary). Null when there are none.
   */
  static Candidate pickOne(List<Candidate> candidates, Instant now) {
    if (candidates.isEmpty()) {
      return null;
    }
    List<ToLongFunction<Candidate>> rules =
        List.of(
            c -> -c.numPdbViolations(),
            c -> -(long) c.victims().get(0).priority(),
            c -> {
              long sum = 0;
              for (PodInfo p : c.victims()) {
                sum += p.priority() + PRIORITY_SHIFT;
              }
              return -sum;
            },
            c -> -(long) c.victims().size(),
            c -> {
              Instant t = PodImportance.earliestStartOfHighestPriority(c.victims(), now);
              return t == null ? Long.MIN_VALUE : t.getEpochSecond() * 1_000_000_000L + t.getNano();
            });
    List<Candidate> remaining = candidates;
    for (ToLongFunction<Candidate> rule : rules) {
      List<Candidate> best = new ArrayList<>();
      long max = Long.MIN_VALUE;
      for (Candidate c : remaining) {
        long score = rule.applyAsLong(c);
        if (score > max) {
          max = score;
          best.clear();
        }
        if (score == max) {
          best.add(c);
        }
      }
      if (best.size() == 1) {
        return best.get(0);
      }
      remaining = best;
    }
    return remaining.get(0);
  }
}
