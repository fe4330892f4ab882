package io.schedext.cache;

import io.schedext.framework.PodInfo;
import io.schedext.framework.PodNominator;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The victims this extender agreed to evict for each preemptor, per node, as its preempt verb
 * answered kube-scheduler: the cache's counterpart of an assumed pod, for pods on their way out.
 *
 * <p>kube-scheduler deletes the victims of the one node it picks among those answered, nominates
 * the preemptor there and, since 1.33 (asynchronous preemption), retries it on that node as soon as
 * the deletions are under way. Its own cache has lost the victims by then; a watch that lags behind
 * it has not. Were the extender's filter to count them, it would reject the nominated node and
 * kube-scheduler, finding no node, would preempt again on another one, evicting pods nobody needed
 * to lose. {@link #over} gives a nominator that knows the agreed victims ({@link
 * PodNominator#victimsAgreed}): the Filter of the preemptor on its nominated node treats them as
 * gone, and a later preempt call for it treats those kube-scheduler no longer proposes as gone; on
 * any other node, and for any other pod, nothing changes.
 *
 * <p>An agreement lasts {@code ttl} from the last preempt call for the preemptor: well beyond a
 * watch's normal lag, short enough that a victim whose deletion failed holds its place again soon.
 * At most {@link #MAX_PREEMPTORS} preemptors are remembered; past that, the oldest agreements go.
 * Thread-safe.
 */
public final class VictimsInFlight {

  /** The most preemptors remembered at once. */
  static final int MAX_PREEMPTORS = 4096;

  /** One preempt answer: the victims per node, and when it was given. */
  private record Agreement(Map<String, Set<String>> byNode, Instant at) {}

  private final Clock clock;
  private final Duration ttl;
  private final Map<String, Agreement> byPreemptor = new ConcurrentHashMap<>();

  /**
   * Agreements that last {@code ttl} (zero or negative: none is remembered), timed by {@code
   * clock}.
   */
  public VictimsInFlight(Clock clock, Duration ttl) {
    this.clock = clock;
    this.ttl = ttl;
  }

  /**
   * Remembers the victims the preempt verb answered for the preemptor with UID {@code preemptor}
   * (node → victim UIDs), beside those of earlier answers for it that still last: kube-scheduler
   * may preempt again for the same pod on the same node before the first victims are gone from the
   * watch (it proposes only the ones left in its own cache), and all of them are on their way out.
   */
  public void agreed(String preemptor, Map<String, List<String>> victimsByNode) {
    if (ttl.isZero() || ttl.isNegative() || victimsByNode.isEmpty()) {
      return;
    }
    Instant now = clock.instant();
    byPreemptor.compute(
        preemptor,
        (uid, earlier) -> {
          Map<String, Set<String>> merged = new HashMap<>();
          if (earlier != null && !expired(earlier, now)) {
            merged.putAll(earlier.byNode());
          }
          victimsByNode.forEach(
              (node, uids) -> {
                Set<String> all = new HashSet<>(merged.getOrDefault(node, Set.of()));
                all.addAll(uids);
                merged.put(node, Set.copyOf(all));
              });
          return new Agreement(Map.copyOf(merged), now);
        });
    if (byPreemptor.size() > MAX_PREEMPTORS) {
      trim(now);
    }
  }

  /**
   * The victims agreed for {@code preemptor} on {@code node} while the agreement lasts; empty
   * otherwise.
   */
  public Set<String> on(String preemptor, String node) {
    Agreement a = byPreemptor.get(preemptor);
    if (a == null) {
      return Set.of();
    }
    if (expired(a, clock.instant())) {
      byPreemptor.remove(preemptor, a);
      return Set.of();
    }
    return a.byNode().getOrDefault(node, Set.of());
  }

  /** The nodes with victims agreed for {@code preemptor} while the agreement lasts; else empty. */
  public Set<String> nodes(String preemptor) {
    Agreement a = byPreemptor.get(preemptor);
    if (a == null) {
      return Set.of();
    }
    if (expired(a, clock.instant())) {
      byPreemptor.remove(preemptor, a);
      return Set.of();
    }
    return a.byNode().keySet();
  }

  /** How many preemptors have an agreement remembered (expired ones included until looked at). */
  public int size() {
    return byPreemptor.size();
  }

  /** {@code nominator}, whose {@link PodNominator#victimsAgreed} answers from this record. */
  public PodNominator over(PodNominator nominator) {
    VictimsInFlight victims = this;
    return new PodNominator() {
      @Override
      public List<PodInfo> nominatedPodsForNode(String nodeName) {
        return nominator.nominatedPodsForNode(nodeName);
      }

      @Override
      public boolean isEmpty() {
        return nominator.isEmpty();
      }

      @Override
      public Set<String> victimsAgreed(String preemptor, String nodeName) {
        return victims.on(preemptor, nodeName);
      }

      @Override
      public Set<String> nodesWithVictimsAgreed(String preemptor) {
        return victims.nodes(preemptor);
      }
    };
  }

  private boolean expired(Agreement a, Instant now) {
    return !now.isBefore(a.at().plus(ttl));
  }

  /** Drops expired agreements and, if still too many, the oldest ones. */
  private void trim(Instant now) {
    byPreemptor.entrySet().removeIf(e -> expired(e.getValue(), now));
    int excess = byPreemptor.size() - MAX_PREEMPTORS;
    if (excess > 0) {
      byPreemptor.entrySet().stream()
          .sorted(Map.Entry.comparingByValue((x, y) -> x.at().compareTo(y.at())))
          .limit(excess)
          .map(Map.Entry::getKey)
          .toList()
          .forEach(byPreemptor::remove);
    }
  }
}
