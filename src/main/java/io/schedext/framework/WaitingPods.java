package io.schedext.framework;

import java.util.List;
import java.util.concurrent.ConcurrentHashMap;

/** The pods currently held at Permit, by UID. Thread-safe. */
public final class WaitingPods {

  private final ConcurrentHashMap<String, WaitingPod> pods = new ConcurrentHashMap<>();

  void add(WaitingPod wp) {
    pods.put(wp.pod().uid(), wp);
  }

  void remove(String uid) {
    pods.remove(uid);
  }

  /** The waiting pod with {@code uid}, or null. */
  public WaitingPod get(String uid) {
    return pods.get(uid);
  }

  /** Every waiting pod. */
  public List<WaitingPod> list() {
    return List.copyOf(pods.values());
  }
}
