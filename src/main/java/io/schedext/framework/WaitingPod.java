package io.schedext.framework;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

/**
 * A pod held at Permit until every waiting plugin allows it, one rejects it, or a plugin's timer fires. Thread-safe:
 * plugins may allow or reject from any thread.
 */
public final class WaitingPod {

  private final PodInfo pod;
  private final String nodeName;
  private final Instant since;
  private final Map<String, Timers.Cancellable> pending = new HashMap<>();
  private final CompletableFuture<Status> outcome = new CompletableFuture<>();

  WaitingPod(PodInfo pod, String nodeName, Instant since) {
    this.pod = pod;
    this.nodeName = nodeName;
    this.since = since;
  }

  synchronized void startTimers(Map<String, Duration> waits, Timers timers) {
    for (Map.Entry<String, Duration> e : waits.entrySet()) {
      String plugin = e.getKey();
      Duration d = e.getValue();
      pending.put(plugin, timers.schedule(d, () -> reject(plugin,
          "rejected due to timeout after waiting " + GoDurations.format(d) + " at plugin " + plugin)));
    }
  }

  /** The pod. */
  public PodInfo pod() {
    return pod;
  }

  /** The node it was reserved on. */
  public String nodeName() {
    return nodeName;
  }

  /** When it started waiting. */
  public Instant since() {
    return since;
  }

  /** The plugins it still waits for. */
  public synchronized List<String> pendingPlugins() {
    return new ArrayList<>(pending.keySet());
  }

  /** Clears {@code plugin}'s wait; when none is left the pod proceeds. */
  public synchronized void allow(String plugin) {
    Timers.Cancellable t = pending.remove(plugin);
    if (t != null) {
      t.cancel();
    }
    if (pending.isEmpty()) {
      outcome.complete(Status.success());
    }
  }

  /** Rejects the pod on behalf of {@code plugin} with {@code message}. */
  public synchronized void reject(String plugin, String message) {
    for (Timers.Cancellable t : pending.values()) {
      t.cancel();
    }
    pending.clear();
    outcome.complete(Status.unschedulable(message).withPlugin(plugin));
  }

  CompletableFuture<Status> outcome() {
    return outcome;
  }
}
