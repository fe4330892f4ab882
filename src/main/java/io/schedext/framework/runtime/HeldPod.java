package io.schedext.framework.runtime;

import io.schedext.framework.GoDurations;
import io.schedext.framework.PodInfo;
import io.schedext.framework.Status;
import io.schedext.framework.Timers;
import io.schedext.framework.WaitingPod;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

/**
 * The runtime's {@link WaitingPod}: a pod held at Permit until every waiting plugin allows it, one
 * rejects it, or a plugin's timer fires, completing {@link #outcome()} once. Thread-safe: plugins
 * may allow or reject from any thread.
 */
final class HeldPod implements WaitingPod {

  private final PodInfo pod;
  private final String nodeName;
  private final Instant since;
  private final Map<String, Timers.Cancellable> pending = new HashMap<>();
  private final CompletableFuture<Status> outcome = new CompletableFuture<>();

  HeldPod(PodInfo pod, String nodeName, Instant since) {
    this.pod = pod;
    this.nodeName = nodeName;
    this.since = since;
  }

  /**
   * Starts one timer per waiting plugin; when one fires first the pod is rejected on that plugin's
   * behalf.
   */
  synchronized void startTimers(Map<String, Duration> waits, Timers timers) {
    for (Map.Entry<String, Duration> e : waits.entrySet()) {
      String plugin = e.getKey();
      Duration d = e.getValue();
      pending.put(
          plugin,
          timers.schedule(
              d,
              () ->
                  reject(
                      plugin,
                      "rejected due to timeout after waiting "
                          + GoDurations.format(d)
                          + " at plugin "
                          + plugin)));
    }
  }

  @Override
  public PodInfo pod() {
    return pod;
  }

  @Override
  public String nodeName() {
    return nodeName;
  }

  @Override
  public Instant since() {
    return since;
  }

  @Override
  public synchronized List<String> pendingPlugins() {
    return new ArrayList<>(pending.keySet());
  }

  @Override
  public synchronized void allow(String plugin) {
    Timers.Cancellable t = pending.remove(plugin);
    if (t != null) {
      t.cancel();
    }
    if (pending.isEmpty()) {
      outcome.complete(Status.success());
    }
  }

  @Override
  public synchronized void reject(String plugin, String message) {
    for (Timers.Cancellable t : pending.values()) {
      t.cancel();
    }
    pending.clear();
    outcome.complete(Status.unschedulable(message).withPlugin(plugin));
  }

  /** Completes with Success once every plugin allowed, or with the first rejection. */
  CompletableFuture<Status> outcome() {
    return outcome;
  }
}
