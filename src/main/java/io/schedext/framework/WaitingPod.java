package io.schedext.framework;

import java.time.Instant;
import java.util.List;

/**
 * A pod held at Permit, as upstream's {@code WaitingPod}: it proceeds when every waiting plugin
 * allows it, and fails when one rejects it or a plugin's wait times out. Implementations are
 * thread-safe: plugins may allow or reject from any thread.
 */
public interface WaitingPod {

  /** The pod. */
  PodInfo pod();

  /** The node it was reserved on. */
  String nodeName();

  /** When it started waiting. */
  Instant since();

  /** The plugins it still waits for. */
  List<String> pendingPlugins();

  /** Clears {@code plugin}'s wait; when none is left the pod proceeds. */
  void allow(String plugin);

  /** Rejects the pod on behalf of {@code plugin} with {@code message}. */
  void reject(String plugin, String message);
}
